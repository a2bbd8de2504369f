// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// Models replaced through the API while other clients convert: every answer is one whole version, never a mix,
/// and never an error.
@Suite struct ConcurrentReplacementTests {
    @Test func conversionsSeeOneWholeVersionWhileTheModelIsReplaced() throws {
        let server = try ServerProcess(
            schemas: ["m.json": #"{"name":"M","properties":{"a":"int32","b":"int32"}}"#],
            environment: ["TRANSFORM_ADMIN_TOKEN": "tok"])
        let port = server.port
        let versions = [#"{"properties":{"a":"int32","b":"int32"}}"#, #"{"properties":{"a":"string","b":"string"}}"#]
        let allowed: Set<String> = [#"{"a":1,"b":2}"#, #"{"a":"1","b":"2"}"#]
        let results = ResultLog()
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread {
                defer { group.leave() }
                guard let client = try? RawClient(port: port) else { return results.add("connect failed") }
                for _ in 0..<300 {
                    guard let response = try? client.request("POST", "/convert/M", body: #"{"a":1,"b":"2"}"#) else {
                        return results.add("request failed")
                    }
                    results.add(response.status == 200 ? response.text : "status \(response.status)")
                }
            }.start()
        }
        group.enter()
        Thread {
            defer { group.leave() }
            guard let admin = try? RawClient(port: port) else { return results.add("admin connect failed") }
            for i in 0..<60 {
                let answer = try? admin.request(
                    "PUT", "/schemas/M", body: versions[i % 2], headers: ["Authorization": "Bearer tok"])
                if answer?.status != 200 { results.add("replace answered \(answer?.status ?? 0)") }
            }
        }.start()
        #expect(group.wait(timeout: .now() + 60) == .success)
        let seen = results.all
        #expect(seen.count >= 1200)
        let unexpected = Set(seen).subtracting(allowed)
        #expect(unexpected.isEmpty, "unexpected answers: \(unexpected.prefix(5))")
    }
}

final class ResultLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}
