// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A registry write is saved before it is served or acknowledged (docs/api.md, Persistence): the real binary, real
/// files, a real `kill -9`.
@Suite struct RegistryDurabilityTests {
    static let token = ["Authorization": "Bearer secret", "Content-Type": "application/json"]
    static let point = #"{"properties":{"x":"int8"}}"#

    /// The overlay's temporary path is blocked by a directory, so it cannot be written: every kind of write answers
    /// `503 unavailable` naming the failed step, and changes nothing — not in memory, not on disk, not after a restart.
    @Test func aWriteThatCannotBeSavedIsRefusedAndChangesNothing() throws {
        let server = try ServerProcess(settings: ["adminToken": "\"secret\""])
        let schemas = server.directory.appendingPathComponent("schemas")
        let blocker = schemas.appendingPathComponent(".registry.json.tmp")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        let client = try server.client()
        let refused = [
            try client.request("PUT", "/schemas/Point", body: Self.point, headers: Self.token),
            try client.request(
                "POST", "/schemas", body: #"{"models":[{"name":"Point","properties":{}}]}"#,
                headers: Self.token),
            try client.request("DELETE", "/schemas/User", headers: Self.token),
        ]
        for answer in refused {
            #expect(answer.status == 503)
            #expect(answer.text.contains(#""code":"unavailable""#))
            #expect(answer.text.contains(".registry.json.tmp"), "the message says which step failed: \(answer.text)")
            #expect(answer.header("connection") != "close", "the connection stays usable")
        }
        #expect(try client.request("GET", "/schemas/Point").status == 404)
        #expect(try client.request("GET", "/schemas/User").status == 200)
        #expect(!FileManager.default.fileExists(atPath: schemas.appendingPathComponent(".registry.json").path))
        let health = try client.request("GET", "/health")
        #expect(health.text.contains(#""schemaPersistence":"disk""#), "every acknowledged write is on disk")

        try FileManager.default.removeItem(at: blocker)
        #expect(try client.request("PUT", "/schemas/Point", body: Self.point, headers: Self.token).status == 201)
        server.stop()
        let restarted = try ServerProcess(settings: ["adminToken": "\"secret\""], directory: server.directory)
        let again = try restarted.client()
        #expect(try again.request("GET", "/schemas/Point").status == 200)
        #expect(try again.request("GET", "/schemas/User").status == 200)
    }

    /// `kill -9` right after each acknowledged write, a few times over: the restarted server serves exactly the
    /// versions acknowledged (a write was once served before it was saved, and a crash then lost it).
    @Test func everyAcknowledgedWriteSurvivesKillNine() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var server = try ServerProcess(settings: ["adminToken": "\"secret\""], directory: directory)
        for round in 1...5 {
            let body = #"{"properties":{"x":"int8"},"description":"round \#(round)"}"#
            let answer = try server.client().request("PUT", "/schemas/Point", body: body, headers: Self.token)
            #expect(answer.status == (round == 1 ? 201 : 200))
            #expect(answer.text.contains(#""version":\#(round)"#))
            server.signal(SIGKILL)
            _ = server.waitForExit()
            server = try ServerProcess(settings: ["adminToken": "\"secret\""], directory: directory)
            let kept = try server.client().request("GET", "/schemas/Point")
            #expect(kept.status == 200)
            #expect(kept.text.contains("round \(round)"), "round \(round): \(kept.text)")
        }
    }
}
