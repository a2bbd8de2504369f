// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// docs/api.md's examples are real: scripts/api-examples.py runs every one, in the order shown, against this build's
/// server and compares the answers with the page (request ids aside; `--write` regenerates them).
struct APIExamplesTests {
    static func onPath(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    static let toolsArePresent = onPath("python3") && onPath("curl") && onPath("bash")

    @Test(.enabled(if: toolsArePresent, "needs python3, curl and bash (bash scripts/provision.sh)"))
    func everyExampleOfTheAPIPageAnswersAsShown() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", ChildProcess.packageRoot.appendingPathComponent("scripts/api-examples.py").path,
            "--check", "--binary", ChildProcess.executable.path,
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONDONTWRITEBYTECODE": "1"]) { $1 }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("api-examples-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(process.terminationStatus == 0, "docs/api.md differs from a real run:\n\(text.prefix(6000))")
    }
}
