// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// scripts/validate.sh, the test suite's first stage, catches each habit it holds: run on a small repository made
/// for the test, with the project's own script and configuration files, every broken habit is reported with its
/// file, and a repository that keeps them all passes.
@Suite(.serialized)
struct ValidateScriptTests {
    /// A git repository holding the project's validate.sh, provision.sh and format configurations plus `files`.
    static func makeRepository(_ files: [String: String]) throws -> URL {
        let root = try ChildProcess.temporaryDirectory()
        let project = ChildProcess.packageRoot
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("scripts"),
            withIntermediateDirectories: true)
        for name in ["scripts/validate.sh", "scripts/provision.sh", ".swift-format", ".clang-format", ".editorconfig"] {
            try FileManager.default.copyItem(
                at: project.appendingPathComponent(name),
                to: root.appendingPathComponent(name))
        }
        for (name, text) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        #expect(try run(["git", "init", "-q"], in: root).status == 0)
        #expect(try run(["git", "add", "-A"], in: root).status == 0)
        return root
    }

    /// Runs `arguments` (looked up on PATH) in `directory`; standard output and error together.
    static func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let log = directory.appendingPathComponent(".run-output")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        process.environment = environment
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: log), as: UTF8.self))
    }

    static let goodSwift = "// SPDX-License-Identifier: Apache-2.0\n\nstruct Good {\n    var count: Int\n}\n"
    static let goodScript = "#!/usr/bin/env bash\n# SPDX-License-Identifier: Apache-2.0\necho ok\n"

    @Test func passesARepositoryThatKeepsEveryHabit() throws {
        let root = try Self.makeRepository(["Sources/Good.swift": Self.goodSwift, "tool.sh": Self.goodScript])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run(["bash", "scripts/validate.sh"], in: root)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("validate: ok"))
    }

    @Test func reportsEachBrokenHabitWithItsFile() throws {
        let root = try Self.makeRepository([
            "Sources/Good.swift": Self.goodSwift,
            "Sources/NoHeader.swift": "struct NoHeader {}\n",
            "Sources/Parens.swift":
                "// SPDX-License-Identifier: Apache-2.0\n\nfunc f(_ x: Bool) -> Int {\n    if (x) { return 1 }\n    return 0\n}\n",
            "tool.sh": "#!/usr/bin/env bash\necho missing header\n",
            "trailing.txt": "a line with trailing spaces   \n",
            "tabbed.txt": "\tindented with a tab\n",
            "unended.txt": "no newline at the end",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run(["bash", "scripts/validate.sh"], in: root)
        #expect(result.status == 1, "\(result.output)")
        for expected in [
            "Sources/NoHeader.swift: no SPDX-License-Identifier line",
            "tool.sh: no SPDX-License-Identifier line",
            "trailing.txt:1: trailing whitespace",
            "tabbed.txt:1: a tab",
            "unended.txt: no newline at the end",
            "Sources/Parens.swift:4:",
            "[NoParensAroundConditions]",
        ] {
            #expect(result.output.contains(expected), "missing \(expected) in:\n\(result.output)")
        }
        #expect(!result.output.contains("Good.swift"), "\(result.output)")
    }

    /// The C layout check runs where clang-format is installed (scripts/provision.sh installs it for CI).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/clang-format")))
    func reportsCCodeThatClangFormatWouldChange() throws {
        let root = try Self.makeRepository([
            "Sources/C/bad.c": "// SPDX-License-Identifier: Apache-2.0\nint  f(void){return 1;}\n",
            "Sources/C/good.c": "// SPDX-License-Identifier: Apache-2.0\nint g(void) { return 1; }\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run(["bash", "scripts/validate.sh"], in: root)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("Sources/C/bad.c: not laid out as .clang-format says"), "\(result.output)")
        #expect(!result.output.contains("good.c"), "\(result.output)")
    }
}
