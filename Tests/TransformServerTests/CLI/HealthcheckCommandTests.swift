// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// `TransformServer healthcheck` finds the port as `serve` does, so an image's HEALTHCHECK follows the configured
/// port instead of a fixed 8080.
@Suite struct HealthcheckCommandTests {
    @Test func withoutAURLItProbesThePortOfTheEnvironment() throws {
        let server = try ServerProcess()
        let probe = try ChildProcess.run(["healthcheck"], environment: ["TRANSFORM_LISTEN_PORT": String(server.port)])
        #expect(probe.status == 0, "\(probe.stderr)")
    }

    @Test func withoutAURLItProbesThePortOfServerJSON() throws {
        let server = try ServerProcess()
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"listenPort": \#(server.port)}"#.utf8).write(to: config.appendingPathComponent("server.json"))
        #expect(try ChildProcess.run(["healthcheck"], cwd: directory).status == 0)
        #expect(try ChildProcess.run(["healthcheck", "--config", config.path]).status == 0)
    }

    @Test func thePortFlagWinsAndAClosedPortFails() throws {
        let server = try ServerProcess()
        #expect(
            try ChildProcess.run(
                ["healthcheck", "--port", String(server.port)],
                environment: ["TRANSFORM_LISTEN_PORT": "1"]
            ).status == 0)
        #expect(try ChildProcess.run(["healthcheck"], environment: ["TRANSFORM_LISTEN_PORT": "1"]).status == 1)
        #expect(try ChildProcess.run(["healthcheck", "http://127.0.0.1:\(server.port)/health"]).status == 0)
    }

    @Test func aBadSettingIsAUsageError() throws {
        let probe = try ChildProcess.run(["healthcheck", "--port", "70000"])
        #expect(probe.status == 2)
        #expect(probe.stderr.contains("listenPort"), "\(probe.stderr)")
    }
}
