// SPDX-License-Identifier: Apache-2.0
import Glibc
import Testing

@testable import MapperCore

/// Runs nst/JSONTestSuite's `test_parsing` files when the shared test data is present (skipped otherwise):
/// every `y_` file must be accepted, every `n_` file rejected, and every `i_` file decided as
/// `implementationDefined` says — the same choices, with reasons, as docs/json-test-suite.md.
struct JSONTestSuiteTests {
    /// The scanner's choice for a file the suite leaves to the implementation.
    enum Verdict: Equatable, CustomStringConvertible {
        case accept
        case reject(offset: Int)

        var description: String {
            switch self {
            case .accept: "accept"
            case .reject(let offset): "reject at \(offset)"
            }
        }
    }

    /// Our choice for every `i_` file, with the offset reported on rejection. See docs/json-test-suite.md.
    static let implementationDefined: [String: Verdict] = [
        // Numbers of any size are kept as written (docs/semantics.md, "JSON input"); range is the target type's
        // business.
        "i_number_double_huge_neg_exp.json": .accept,
        "i_number_huge_exp.json": .accept,
        "i_number_neg_int_huge_exp.json": .accept,
        "i_number_pos_double_huge_exp.json": .accept,
        "i_number_real_neg_overflow.json": .accept,
        "i_number_real_pos_overflow.json": .accept,
        "i_number_real_underflow.json": .accept,
        "i_number_too_big_neg_int.json": .accept,
        "i_number_too_big_pos_int.json": .accept,
        "i_number_very_big_negative_int.json": .accept,
        // Lone surrogate escapes are errors, at the escape's backslash.
        "i_object_key_lone_2nd_surrogate.json": .reject(offset: 2),
        "i_string_1st_surrogate_but_2nd_missing.json": .reject(offset: 2),
        "i_string_1st_valid_surrogate_2nd_invalid.json": .reject(offset: 2),
        "i_string_incomplete_surrogate_and_escape_valid.json": .reject(offset: 2),
        "i_string_incomplete_surrogate_pair.json": .reject(offset: 2),
        "i_string_incomplete_surrogates_escape_valid.json": .reject(offset: 2),
        "i_string_invalid_lonely_surrogate.json": .reject(offset: 2),
        "i_string_invalid_surrogate.json": .reject(offset: 2),
        "i_string_inverted_surrogates_U+1D11E.json": .reject(offset: 2),
        "i_string_lone_second_surrogate.json": .reject(offset: 2),
        // Invalid UTF-8 is an error, at the first byte of the bad sequence.
        "i_string_UTF-8_invalid_sequence.json": .reject(offset: 7),
        "i_string_UTF8_surrogate_U+D800.json": .reject(offset: 3),
        "i_string_invalid_utf-8.json": .reject(offset: 2),
        "i_string_iso_latin_1.json": .reject(offset: 3),
        "i_string_lone_utf8_continuation_byte.json": .reject(offset: 2),
        "i_string_not_in_unicode_range.json": .reject(offset: 3),
        "i_string_overlong_sequence_2_bytes.json": .reject(offset: 2),
        "i_string_overlong_sequence_6_bytes.json": .reject(offset: 2),
        "i_string_overlong_sequence_6_bytes_null.json": .reject(offset: 2),
        "i_string_truncated-utf-8.json": .reject(offset: 3),
        // Only UTF-8 is accepted: UTF-16 fails at its first byte that is not JSON.
        "i_string_UTF-16LE_with_BOM.json": .reject(offset: 0),
        "i_string_utf16BE_no_BOM.json": .reject(offset: 0),
        "i_string_utf16LE_no_BOM.json": .reject(offset: 1),
        // Depth 500 is within the default limit of 512; a UTF-8 byte-order mark is skipped.
        "i_structure_500_nested_arrays.json": .accept,
        "i_structure_UTF-8_BOM_empty_object.json": .accept,
    ]

    /// The default nesting limit (docs/api.md, "Limits").
    static let maxDepth = 512

    @Test(.enabled(if: Folder.path != nil), arguments: Folder.files(prefix: "y_"))
    func acceptsEveryValidText(file: String) throws {
        let result = try #require(Folder.scan(file))
        if case .failure(let error) = result {
            Issue.record("\(file): \(error) at \(error.offset)")
        }
    }

    @Test(.enabled(if: Folder.path != nil), arguments: Folder.files(prefix: "n_"))
    func rejectsEveryInvalidText(file: String) throws {
        let bytes = try #require(Folder.contents(of: file))
        switch try #require(Folder.scan(file)) {
        case .success:
            Issue.record("\(file) accepted")
        case .failure(let error):
            #expect(error.offset >= 0 && error.offset <= bytes.count)
        }
    }

    @Test(.enabled(if: Folder.path != nil), arguments: Folder.files(prefix: "i_"))
    func decidesEveryImplementationDefinedTextAsDocumented(file: String) throws {
        let expected = try #require(Self.implementationDefined[file], "\(file) has no documented choice")
        let actual: Verdict =
            switch try #require(Folder.scan(file)) {
            case .success: .accept
            case .failure(let error): .reject(offset: error.offset)
            }
        #expect(actual == expected, "\(file)")
    }

    @Test(.enabled(if: Folder.path != nil))
    func documentsExactlyTheFilesOfTheSuite() {
        #expect(Set(Folder.files(prefix: "i_")) == Set(Self.implementationDefined.keys))
        #expect(Folder.files(prefix: "y_").count > 90 && Folder.files(prefix: "n_").count > 180)
    }

    @Test func documentStatesTheSameChoices() throws {
        // docs/json-test-suite.md has a table row per file: | `i_….json` | accept / reject | why |
        let document = try #require(
            Folder.read(path: Folder.repositoryRoot + "/docs/json-test-suite.md"))
        var documented: [String: String] = [:]
        for line in String(decoding: document, as: UTF8.self).split(separator: "\n") where line.hasPrefix("| `i_") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: " `") }
            documented[cells[0]] = cells[1]
        }
        #expect(documented.count == Self.implementationDefined.count)
        for (file, verdict) in Self.implementationDefined {
            let word: String
            switch verdict {
            case .accept: word = "accept"
            case .reject: word = "reject"
            }
            #expect(documented[file] == word, "\(file)")
        }
    }
}

extension JSONTestSuiteTests {
    /// Finds and reads the shared JSONTestSuite files, located relative to this source file.
    enum Folder {
        /// The package root: this file is `<root>/Tests/MapperCoreTests/JSON/JSONTestSuiteTests.swift`.
        static let repositoryRoot: String = {
            var path = "\(#filePath)"
            for _ in 0..<4 {
                path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            }
            return path
        }()

        /// The `test_parsing` folder next to the repository (`../shared/testdata/...`), or nil when absent.
        static let path: String? = {
            let candidate = repositoryRoot + "/../shared/testdata/JSONTestSuite/test_parsing"
            guard let directory = opendir(candidate) else { return nil }
            closedir(directory)
            return candidate
        }()

        /// The `.json` files whose names start with `prefix`, sorted; empty when the folder is absent.
        static func files(prefix: String) -> [String] {
            guard let path, let directory = opendir(path) else { return [] }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix(prefix) && name.hasSuffix(".json") {
                    names.append(name)
                }
            }
            return names.sorted()
        }

        static func contents(of file: String) -> [UInt8]? {
            guard let path else { return nil }
            return read(path: path + "/" + file)
        }

        /// Scans a suite file with the default nesting limit; nil when it cannot be read.
        static func scan(_ file: String) -> Result<JSONTape, JSONSyntaxError>? {
            contents(of: file).map { JSONTape.scanning($0, maxDepth: JSONTestSuiteTests.maxDepth) }
        }

        static func read(path: String) -> [UInt8]? {
            guard let handle = fopen(path, "rb") else { return nil }
            defer { fclose(handle) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = fread(&chunk, 1, chunk.count, handle)
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            return bytes
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
