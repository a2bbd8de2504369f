// SPDX-License-Identifier: Apache-2.0
import Glibc
import MapperCore
import Testing

/// Runs cel-spec's own conformance files (`../shared/testdata/cel-spec/*.textproto`, next to the repository) when
/// present: every case that uses only the language of docs/rules.md must pass; the rest are skipped and counted
/// by reason, and docs/rules.md states the same counts. Without the files the suite says so and passes.
@Suite struct CELConformanceTests {
    static let folder: String? = {
        let candidate = JSONTestSuiteTests.Folder.repositoryRoot + "/../shared/testdata/cel-spec"
        guard let directory = opendir(candidate) else { return nil }
        closedir(directory)
        return candidate
    }()

    static let files = [
        "basic", "comparisons", "conversions", "fields", "fp_math", "integer_math", "lists", "logic",
        "macros", "parse", "plumbing", "string", "timestamps",
    ]

    struct Outcome {
        var passed = 0
        var failures: [String] = []
        var skipped: [String: Int] = [:]
        var total: Int { passed + failures.count + skipped.values.reduce(0, +) }
    }

    static let outcome: Outcome? = {
        guard let folder else { return nil }
        var outcome = Outcome()
        for file in files {
            guard let bytes = JSONTestSuiteTests.Folder.read(path: "\(folder)/\(file).textproto") else {
                outcome.failures.append("\(file): cannot be read")
                continue
            }
            do {
                let document = try TextProto.parse(bytes)
                for section in document.all("section") {
                    for test in section.all("test") {
                        let name = "\(file)/\(section["name"]?.text ?? "")/\(test["name"]?.text ?? "")"
                        switch ConformanceCase.run(test) {
                        case .passed: outcome.passed += 1
                        case .failed(let why): outcome.failures.append("\(name): \(why)")
                        case .skipped(let reason): outcome.skipped[reason.rawValue, default: 0] += 1
                        }
                    }
                }
            } catch {
                outcome.failures.append("\(file): \(error)")
            }
        }
        return outcome
    }()

    @Test func everySupportedCasePasses() {
        guard let outcome = Self.outcome else {
            print("cel-spec conformance files are absent (../shared/testdata/cel-spec): conformance cases skipped")
            return
        }
        print(
            "cel-spec conformance: \(outcome.total) cases, \(outcome.passed) passed, \(outcome.failures.count) failed, "
                + "skipped: \(outcome.skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
        )
        for failure in outcome.failures { Issue.record("\(failure)") }
        #expect(outcome.passed > 500)
    }

    /// docs/rules.md's conformance table: a row `| reason | count |` per skip reason and the passed total.
    @Test func docsStateTheCounts() throws {
        guard let outcome = Self.outcome else { return }
        let document = try #require(
            JSONTestSuiteTests.Folder.read(path: JSONTestSuiteTests.Folder.repositoryRoot + "/docs/rules.md"))
        let text = String(decoding: document, as: UTF8.self)
        #expect(text.contains("| passed (run, and required to pass) | \(outcome.passed) |"))
        for (reason, count) in outcome.skipped {
            #expect(text.contains("| \(reason) | \(count) |"), "docs/rules.md lacks the row for \(reason): \(count)")
        }
        #expect(text.contains("| total | \(outcome.total) |"))
    }
}
