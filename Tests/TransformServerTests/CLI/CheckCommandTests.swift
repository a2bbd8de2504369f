// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@Suite struct CheckCommandTests {
    @Test func theShippedExamplesHaveNoProblems() throws {
        let result = try ChildProcess.run(["check", "config/schemas"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("config/schemas: "))
        #expect(result.stdout.hasSuffix(" models, no problems\n"))
    }

    @Test func listsEveryProblemWithFileAndPointer() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = [
            "a.json": #"{"name":"A","properties":{"x":"int33","y":{"type":"B"}}}"#,
            "b.json": #"{"models":[{"name":"C","extends":"D","properties":{}},{"name":"D","extends":"C"}]}"#,
            "c.json": #"{"name":"E","properties":{"p":{"type":"string","pattern":"(?<=a)b"}}}"#,
            ".registry.json": "not even json",
            "notes.txt": "ignored",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        let result = try ChildProcess.run(["check", directory.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("a.json: /properties/x: unknown type \"int33\""))
        #expect(lines.contains("a.json: /properties/y/type: unknown type \"B\""))
        #expect(lines.contains { $0.hasPrefix("b.json: /models/0/extends: extends forms a cycle") })
        #expect(lines.contains { $0.hasPrefix("b.json: /models/1/extends: extends forms a cycle") })
        #expect(!result.stdout.contains(".registry.json"))
        #expect(result.stderr.contains("problems"))
    }

    @Test func reportsAFileThatIsNotJSONWithItsPosition() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{\"name\": \"A\",\n \"properties\": {,}}".utf8).write(
            to: directory.appendingPathComponent("bad.json"))
        let result = try ChildProcess.run(["check", directory.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("bad.json: /: invalid JSON at line 2, column 17"))
    }
}
