// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@Suite struct RegistryOverlayTests {
    /// `.registry.json` goes on top of the schema files: registered models replace, deletion markers hide.
    @Test func overlayReplacesAndHidesFileModels() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = [
            "point.json": #"{"name":"Point","properties":{"x":"int8"}}"#,
            "gone.json": #"{"name":"Gone","properties":{"x":"int8"}}"#,
            ".registry.json":
                #"{"models":[{"version":4,"schema":{"name":"Point","properties":{"x":"string"}}}],"deleted":["Gone"]}"#,
        ]
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        let point = try ChildProcess.run(["convert", "Point", "--schemas", directory.path], stdin: #"{"x":5}"#)
        #expect(point.status == 0)
        #expect(point.stdout == #"{"x":"5"}"# + "\n")
        let gone = try ChildProcess.run(["convert", "Gone", "--schemas", directory.path], stdin: "{}")
        #expect(gone.status == 2)
        #expect(gone.stderr.contains("no model named \"Gone\""))
    }

    @Test func aBrokenOverlayIsABrokenSchemaDirectory() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"models":[{"schema":{}}]}"#.utf8).write(to: directory.appendingPathComponent(".registry.json"))
        let result = try ChildProcess.run(["convert", "User", "--schemas", directory.path], stdin: "{}")
        #expect(result.status == 2)
        #expect(result.stderr.contains("registry overlay"))
    }
}
