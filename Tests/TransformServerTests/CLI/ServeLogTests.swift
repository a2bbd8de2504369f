// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// Everything `serve` writes, apart from its `listening on` line, is one JSON object per line — also when it
/// cannot start (docs/operations.md, "Logs").
@Suite struct ServeLogTests {
    /// The JSON objects of `text`, one per line; fails the test on a line that is not one.
    static func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)")
            return object
        }
    }

    @Test func aBadSettingIsAStartupFailedEventAndExitStatus2() throws {
        let result = try ChildProcess.run(["serve", "--port", "70000"])
        #expect(result.status == 2)
        let events = Self.events(result.stderr)
        #expect(events.count == 1)
        #expect(events.first?["event"] as? String == "startup_failed")
        #expect((events.first?["reason"] as? String)?.contains("listenPort") == true)
    }

    @Test func aBrokenSchemaSetListsEveryProblemAsOneEventEach() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"name":"X","properties":{"a":"int99","b":"nope"}}"#.utf8).write(
            to: directory.appendingPathComponent("x.json"))
        let result = try ChildProcess.run(["serve", "--schemas", directory.path, "--port", "0"])
        #expect(result.status == 1)
        let reasons = Self.events(result.stderr).compactMap { $0["reason"] as? String }
        #expect(reasons.count == 2)
        #expect(reasons.contains { $0.contains("/properties/a") } && reasons.contains { $0.contains("/properties/b") })
    }

    @Test func theUnknownVariableWarningIsAnEventToo() throws {
        // 192.0.2.1 (TEST-NET-1) is no address of this machine: binding fails after the configuration is read.
        let result = try ChildProcess.run(
            ["serve", "--host", "192.0.2.1", "--port", "0"],
            environment: ["TRANSFORM_SERVICE_HOST": "transform"])
        #expect(result.status == 1)
        let events = Self.events(result.stderr)
        #expect(events.map { $0["event"] as? String } == ["configuration_warning", "startup_failed"])
        #expect((events.first?["message"] as? String)?.contains("TRANSFORM_SERVICE_HOST") == true)
    }
}
