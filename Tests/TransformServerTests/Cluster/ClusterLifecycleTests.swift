// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import TransformServer

/// docs/cluster.md, "Version history": each model's kept versions, its version counter and its compatibility
/// configuration live in etcd, written in the same transaction as the model, so every replica lists the same
/// history, pins the same versions, checks compatibility against the same history, and a restart loses nothing.
@Suite(.serialized, .enabled(if: EtcdCluster.shouldRun, "etcd-server is not installed"))
struct ClusterLifecycleTests {
    typealias F = ClusterFixture

    static func versions(_ replica: ServerProcess, _ name: String) throws -> RawClient.Response {
        try replica.client().request("GET", "/schemas/\(name)/versions")
    }

    static func config(_ replica: ServerProcess, _ name: String, _ body: String? = nil) throws -> RawClient.Response {
        if let body {
            return try replica.client().request("PUT", "/schemas/\(name)/config", body: body, headers: F.auth)
        }
        return try replica.client().request("GET", "/schemas/\(name)/config")
    }

    /// The `"version":N` of a write's answer.
    static func version(_ response: RawClient.Response) -> Int? {
        guard let range = response.text.range(of: #""version":"#) else { return nil }
        return Int(response.text[range.upperBound...].prefix { $0.isNumber })
    }

    /// The history keys etcd holds for `name`, read straight from etcd.
    static func historyKeys(_ cluster: ClusterFixture, _ name: String) throws -> [String] {
        let client = EtcdClient(
            endpoints: cluster.etcd.members.map(\.clientURL), username: nil, password: nil,
            options: EtcdHTTP.Options())
        let key = Array("\(cluster.prefix)history/\(name)/".utf8)
        return try client.range(key, end: EtcdClient.prefixEnd(key)).kvs.map { String(decoding: $0.key, as: UTF8.self) }
    }

    @Test func replicasListPinAndConfigureTheSameHistory() throws {
        let cluster = try ClusterFixture(replicas: 2)
        let (a, b) = (cluster.replicas[0], cluster.replicas[1])
        #expect(try F.put(a, "Point", F.document("one")).status == 201)
        #expect(Self.version(try F.put(b, "Point", F.document("two"))) == 2)
        let third = try F.put(a, "Point", F.document("three"))
        #expect(Self.version(third) == 3)
        try F.eventually(20, "the last version propagated") { try F.etag(b, "Point") == third.header("ETag") }
        let list = try Self.versions(a, "Point")
        #expect(list.status == 200)
        #expect(list.text.hasPrefix(#"{"name":"Point","versions":[{"version":1,"#))
        #expect(list.text.contains(#"{"version":3,"#))
        // The same numbers, ETags and creation times on both replicas: all of it comes from etcd.
        #expect(try Self.versions(b, "Point").text == list.text)
        #expect(
            try Self.historyKeys(cluster, "Point").sorted()
                == (1...3).map { "\(cluster.prefix)history/Point/\($0)" })
        // A version written by replica b, pinned on replica a (and the reverse).
        let pinned = try a.client().request("POST", "/convert/Point?version=2", body: #"{"id":"7"}"#)
        #expect(pinned.text == #"{"id":7,"note":"two"}"#)
        #expect(pinned.header("X-Model-Version") == "2")
        let current = try b.client().request("POST", "/convert/Point", body: #"{"id":"7"}"#)
        #expect(current.header("X-Model-Version") == "3")
        #expect(try b.client().request("GET", "/schemas/Point/versions/1").text.contains(#""default":"one""#))
        // The configuration set on one replica is the one every replica answers, also for a model not there yet.
        #expect(
            try Self.config(a, "Point", #"{"compatibility":"backward"}"#).text
                == #"{"compatibility":"backward","view":"both"}"#)
        #expect(try Self.config(b, "Later", #"{"view":"input"}"#).text == #"{"compatibility":"none","view":"input"}"#)
        try F.eventually(20, "the configuration propagated") {
            try Self.config(b, "Point").text == #"{"compatibility":"backward","view":"both"}"#
                && Self.config(a, "Later").text == #"{"compatibility":"none","view":"input"}"#
        }
        // Setting the same configuration again commits nothing.
        let revision = try a.client().request("GET", "/health").text.split(separator: #""revision":"#).last
        #expect(try Self.config(a, "Point", #"{"compatibility":"backward"}"#).status == 200)
        #expect(try a.client().request("GET", "/health").text.split(separator: #""revision":"#).last == revision)
        // Replica b checks a narrowing change against the configuration replica a set: 409, nothing changes.
        let narrowing = #"{"properties":{"id":"int8","note":{"type":"string","default":"four"}}}"#
        let refused = try F.put(b, "Point", narrowing)
        #expect(refused.status == 409)
        #expect(refused.text.contains(#""code":"incompatible_schema""#))
        #expect(refused.text.contains(#""compatibility":"backward","against":[3],"#))
        #expect(try F.etag(b, "Point") == third.header("ETag"))
    }

    /// `forward_transitive` checks every kept version: versions 1 and 2 were written by two other replicas.
    @Test func aTransitiveCheckUsesTheVersionsOtherReplicasWrote() throws {
        let cluster = try ClusterFixture()
        let (a, b, c) = (cluster.replicas[0], cluster.replicas[1], cluster.replicas[2])
        #expect(try F.put(b, "Reading", #"{"properties":{"value":"int8"}}"#).status == 201)
        #expect(try F.put(c, "Reading", #"{"properties":{"value":"int16"}}"#).status == 200)
        #expect(try Self.config(c, "Reading", #"{"compatibility":"forward_transitive"}"#).status == 200)
        let refused = try F.put(a, "Reading", #"{"properties":{"value":"int16","unit":"string"}}"#)
        #expect(refused.status == 409)
        #expect(refused.text.contains(#""compatibility":"forward_transitive","against":[1,2],"#))
        let bundle = try a.client().request(
            "POST", "/schemas", body: #"{"models":[{"name":"Reading","properties":{"value":"int32"}}]}"#,
            headers: F.auth)
        #expect(bundle.status == 409)
        #expect(bundle.text.contains(#""against":{"Reading":[1,2]}"#))
        // The dry run on the third replica reads the same history.
        let dryRun = try a.client().request(
            "POST", "/schemas/Reading/compatibility", body: #"{"properties":{"value":"int8"}}"#)
        #expect(dryRun.text.hasPrefix(#"{"compatible":true,"level":"forward_transitive","against":[1,2],"#))
        // Replay on the third replica runs the current version another replica wrote (value: int16).
        let replay = try a.client().request(
            "POST", "/schemas/Reading/replay?mode=strict",
            body: #"{"schema":{"properties":{"value":"int8"}},"documents":[{"value":300},{"value":3}]}"#)
        #expect(
            replay.text.hasPrefix(
                #"{"total":2,"same":1,"changed":0,"newlyFailing":1,"newlyPassing":0,"results":[{"index":0,"outcome":"newly_failing","current":{"value":300},"#
            ),
            "\(replay.text)")
    }

    /// Three writers on three replicas write one model at once: every acknowledged version number is new, and the
    /// history keeps the newest `maxVersionsPerModel`, in etcd as on every replica.
    @Test func versionNumbersNeverRepeatAcrossReplicasAndTrimmingKeepsTheNewest() throws {
        let cluster = try ClusterFixture(replicas: 0)
        for _ in 0..<3 { try cluster.addReplica(settings: ["maxVersionsPerModel": "3"]) }
        for replica in cluster.replicas { try F.waitUntilReady(replica) }
        let numbers = Shared<[Int]>([])
        Concurrently.run(3) { writer in
            for i in 0..<4 {
                let response = try? F.put(cluster.replicas[writer], "Counter", F.document("w\(writer)-\(i)"))
                if let response, response.status == 200 || response.status == 201, let number = Self.version(response) {
                    numbers.withLock { $0.append(number) }
                }
            }
        }
        let acknowledged = numbers.withLock { $0 }.sorted()
        #expect(acknowledged == Array(1...12))
        #expect(
            try Self.historyKeys(cluster, "Counter").sorted()
                == [10, 11, 12].map { "\(cluster.prefix)history/Counter/\($0)" }.sorted())
        for replica in cluster.replicas {
            try F.eventually(20, "every replica lists the three newest") {
                let text = try Self.versions(replica, "Counter").text
                return [10, 11, 12].allSatisfy { text.contains(#"{"version":\#($0),"#) }
                    && !text.contains(#"{"version":9,"#)
            }
            let trimmed = try replica.client().request("GET", "/schemas/Counter/versions/9")
            #expect(trimmed.status == 404)
            #expect(trimmed.text.contains(#""code":"unknown_version""#))
        }
        // A delete keeps the counter and the history; the re-created name goes on from it.
        #expect(try cluster.replicas[0].client().request("DELETE", "/schemas/Counter", headers: F.auth).status == 204)
        try F.eventually(20, "the delete propagated") {
            try F.etag(cluster.replicas[1], "Counter") == nil
                && Self.versions(cluster.replicas[1], "Counter").status == 200
        }
        let again = try F.put(cluster.replicas[1], "Counter", F.document("again"))
        #expect(again.status == 201)
        #expect(Self.version(again) == 13)
        #expect(try Self.historyKeys(cluster, "Counter").count == 3)
    }

    /// Every replica stopped, a new one started: history, counter and configuration come back from etcd, and a
    /// record written before histories existed (the model's document inline) is read and carried into the history.
    @Test func aRestartRecoversHistoryCounterAndConfigurationFromEtcd() throws {
        let cluster = try ClusterFixture(replicas: 2)
        let (a, b) = (cluster.replicas[0], cluster.replicas[1])
        let client = EtcdClient(
            endpoints: cluster.etcd.members.map(\.clientURL), username: nil, password: nil,
            options: EtcdHTTP.Options())
        let store = EtcdRegistryStore(client: client, prefix: cluster.prefix)
        try client.put(
            store.modelKey("Legacy"),
            Array(#"{"version":4,"committedAtMs":0,"schema":{"name":"Legacy","properties":{"x":"int8"}}}"#.utf8))
        try F.eventually(20, "the legacy record is served") {
            try F.etag(a, "Legacy") != nil && F.etag(b, "Legacy") != nil
        }
        #expect(try F.put(a, "Kept", F.document("one")).status == 201)
        let second = try F.put(b, "Kept", F.document("two"))
        #expect(try Self.config(a, "Kept", #"{"compatibility":"backward","view":"output"}"#).status == 200)
        #expect(try b.client().request("DELETE", "/schemas/Kept", headers: F.auth).status == 204)
        #expect(Self.version(try F.put(a, "Legacy", #"{"properties":{"x":"int16"}}"#)) == 5)
        #expect(
            try Self.historyKeys(cluster, "Legacy").sorted()
                == [4, 5].map { "\(cluster.prefix)history/Legacy/\($0)" })
        a.stop()
        b.stop()
        let restarted = try cluster.addReplica()
        try F.waitUntilReady(restarted)
        #expect(try F.etag(restarted, "Kept") == nil)
        let list = try Self.versions(restarted, "Kept").text
        #expect(list.hasPrefix(#"{"name":"Kept","versions":[{"version":1,"#) && list.contains(#"{"version":2,"#))
        let two = try restarted.client().request("GET", "/schemas/Kept/versions/2")
        #expect(two.header("ETag") == second.header("ETag"))
        #expect(try Self.config(restarted, "Kept").text == #"{"compatibility":"backward","view":"output"}"#)
        let pinned = try restarted.client().request("POST", "/convert/Legacy?version=4", body: #"{"x":1}"#)
        #expect(pinned.header("X-Model-Version") == "4")
        // The re-created name goes on from the counter, checked against the history that survived.
        let narrowing = #"{"properties":{"id":"int8","note":{"type":"string","default":"three"}}}"#
        #expect(try F.put(restarted, "Kept", narrowing).status == 409)
        let recreated = try F.put(restarted, "Kept", F.document("three"))
        #expect(recreated.status == 201)
        #expect(Self.version(recreated) == 3)
    }
}
