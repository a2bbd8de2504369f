// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import TransformServer

#if canImport(Glibc)
    import Glibc
#endif

/// docs/cluster.md's proof: three replicas sharing one registry through a real three-member etcd cluster. Every
/// loop is bounded; waits are generous because the machine may be loaded (the figures are in bench-cluster.sh).
@Suite(.serialized, .enabled(if: EtcdCluster.shouldRun, "etcd-server is not installed"))
struct ClusterTests {
    typealias F = ClusterFixture

    @Test func aWriteOnOneReplicaIsServedByEveryReplicaWithTheSameVersionAndETag() throws {
        let cluster = try ClusterFixture()
        let (a, b, c) = (cluster.replicas[0], cluster.replicas[1], cluster.replicas[2])
        let created = try F.put(a, "Point", F.document("one"))
        #expect(created.status == 201)
        let etag = try #require(created.header("ETag"))
        // Read-your-writes on the answering replica: served before the answer.
        #expect(try F.etag(a, "Point") == etag)
        for replica in [b, c] { try F.eventually(20, "the write propagated") { try F.etag(replica, "Point") == etag } }
        let replaced = try F.put(b, "Point", F.document("two"))
        #expect(replaced.status == 200)
        #expect(replaced.text.contains(#""version":2"#))
        let lists = try cluster.replicas.map { replica in
            try F.eventually(20, "the replacement propagated") {
                try F.etag(replica, "Point") == replaced.header("ETag")
            }
            return try F.list(replica)
        }
        #expect(lists[0].contains(#"{"name":"Point","version":2,"#))
        #expect(Set(lists).count == 1)
        try F.eventually(20, "the replica reports itself synced") {
            try c.client().request("GET", "/health").text
                .contains(#""schemaPersistence":"etcd","registryStore":{"kind":"etcd","synced":true,"revision":"#)
        }
        let metrics = try c.client().request("GET", "/metrics").text
        #expect(metrics.contains("\ntransform_registry_store_up 1\n"))
        #expect(metrics.contains("transform_registry_apply_lag_seconds_count "))
        #expect(
            try c.client().request("POST", "/convert/Point", body: #"{"id":"7"}"#).text == #"{"id":7,"note":"two"}"#)
        // The same bytes again commit nothing: same version, same etcd revision.
        func revision() throws -> Substring? {
            try c.client().request("GET", "/health").text.split(separator: #""revision":"#).last
        }
        let before = try revision()
        #expect(try F.put(c, "Point", F.document("two")).text.contains(#""version":2"#))
        #expect(try revision() == before)
        #expect(try c.client().request("DELETE", "/schemas/Point", headers: F.auth).status == 204)
        for replica in cluster.replicas {
            try F.eventually(20, "the delete propagated") { try F.etag(replica, "Point") == nil }
        }
        // Versions never repeat for a name, also across a delete and re-create.
        #expect(try F.put(a, "Point", F.document("three")).text.contains(#""version":3,"#))
    }

    @Test func concurrentWritersOnDifferentReplicasLoseNothing() throws {
        let cluster = try ClusterFixture()
        let results = Shared<[(String, Int, String)]>([])
        Concurrently.run(3) { writer in
            let replica = cluster.replicas[writer]
            for i in 0..<6 {
                let response = try? F.put(replica, "W\(writer)x\(i)", F.document("\(writer)-\(i)"))
                results.withLock { $0.append(("W\(writer)x\(i)", response?.status ?? 0, "")) }
                let shared = try? F.put(replica, "Shared", F.document("writer \(writer) round \(i)"))
                results.withLock { $0.append(("Shared", shared?.status ?? 0, shared?.text ?? "")) }
            }
        }
        let all = results.withLock { $0 }
        #expect(
            all.allSatisfy { [200, 201].contains($0.1) },
            "every write was accepted: \(all.filter { ![200, 201].contains($0.1) })")
        // 18 different documents were written to Shared: versions 1…18, each handed out once.
        let versions = all.filter { $0.0 == "Shared" }.compactMap { entry in
            entry.2.split(separator: ",").first { $0.hasPrefix(#""version":"#) }.flatMap { Int($0.dropFirst(10)) }
        }
        #expect(versions.sorted() == Array(1...18))
        for replica in cluster.replicas {
            try F.eventually(20, "every write propagated") {
                let list = try F.list(replica)
                return (0..<3).allSatisfy { w in (0..<6).allSatisfy { list.contains(#""name":"W\#(w)x\#($0)""#) } }
                    && list.contains(#"{"name":"Shared","version":18,"#)
            }
        }
        #expect(Set(try cluster.replicas.map(F.list)).count == 1)
    }

    @Test func theSameIfMatchOnTwoReplicasAtOnceLetsExactlyOneWin() throws {
        let cluster = try ClusterFixture()
        var etag = try #require(try F.put(cluster.replicas[0], "Doc", F.document("start")).header("ETag"))
        for round in 0..<5 {
            for replica in cluster.replicas.prefix(2) {
                try F.eventually(20, "both replicas serve the same version") { try F.etag(replica, "Doc") == etag }
            }
            let statuses = Shared<[Int: String?]>([:])
            let current = etag
            Concurrently.run(2) { side in
                let response = try? F.put(
                    cluster.replicas[side], "Doc", F.document("round \(round) side \(side)"),
                    ifMatch: current)
                statuses.withLock { $0[response?.status ?? 0] = response?.header("ETag") }
            }
            let outcome = statuses.withLock { $0 }
            #expect(Set(outcome.keys) == [200, 412], "round \(round): \(outcome)")
            etag = try #require(outcome[200] ?? nil)
        }
        let metrics = try cluster.replicas.map { try $0.client().request("GET", "/metrics").text }
        #expect(metrics.contains { !$0.contains("\ntransform_registry_write_conflicts_total 0\n") })
    }

    @Test func aBundleIsAllOrNothingOnEveryReplica() throws {
        let cluster = try ClusterFixture()
        let (a, c) = (cluster.replicas[0], cluster.replicas[2])
        let broken =
            #"{"models":[{"name":"Order","properties":{"item":"Item"}},{"name":"Item","properties":{"n":"int99"}}]}"#
        #expect(try a.client().request("POST", "/schemas", body: broken, headers: F.auth).status == 400)
        let torn = Shared(false)
        let done = Shared(false)
        let watcher = Thread {
            while !done.withLock({ $0 }) {
                if let list = try? F.list(c), list.contains(#""name":"Order""#) != list.contains(#""name":"Item""#) {
                    torn.withLock { $0 = true }
                }
                usleep(5_000)
            }
        }
        watcher.start()
        let bundle =
            #"{"models":[{"name":"Order","properties":{"item":"Item"}},{"name":"Item","properties":{"n":"int64"}}]}"#
        let answer = try a.client().request("POST", "/schemas", body: bundle, headers: F.auth)
        #expect(answer.status == 200)
        for replica in cluster.replicas {
            try F.eventually(20, "the bundle propagated") {
                let list = try F.list(replica)
                return list.contains(#""name":"Order""#) && list.contains(#""name":"Item""#)
            }
        }
        done.withLock { $0 = true }
        while !watcher.isFinished { usleep(5_000) }
        #expect(!torn.withLock { $0 }, "a replica served one model of the bundle without the other")
        // More operations than one etcd transaction allows (128 by default): 413, nothing written.
        let models = (0..<130).map { #"{"name":"Big\#($0)","properties":{"n":"int64"}}"# }.joined(separator: ",")
        let tooLarge = try a.client().request("POST", "/schemas", body: #"{"models":[\#(models)]}"#, headers: F.auth)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.text.contains(#""code":"body_too_large""#))
        #expect(try F.etag(a, "Big0") == nil)
        #expect(try F.etag(cluster.replicas[1], "Big129") == nil)
    }

    /// A model document at the 1 MiB document limit fits etcd's default request limit (1.5 MiB); a bundle of two
    /// does not, and is refused whole.
    @Test func aOneMebibyteDocumentIsStoredAndABundleOverEtcdsRequestLimitIs413() throws {
        let cluster = try ClusterFixture()
        func large(_ name: String, _ fill: Character) -> String {
            let prefix = #"{"name":"\#(name)","properties":{"text":"string"},"description":""#
            let suffix = #""}"#
            return prefix + String(repeating: fill, count: 1_048_576 - prefix.utf8.count - suffix.utf8.count) + suffix
        }
        let document = large("Huge", "a")
        #expect(document.utf8.count == 1_048_576)
        let stored = try cluster.replicas[0].client().request("PUT", "/schemas/Huge", body: document, headers: F.auth)
        #expect(stored.status == 201)
        try F.eventually(20, "the large document propagated") {
            try F.etag(cluster.replicas[2], "Huge") == stored.header("ETag")
        }
        let bundle = #"{"models":[\#(large("HugeA", "b")),\#(large("HugeB", "c"))]}"#
        let refused = try cluster.replicas[1].client().request("POST", "/schemas", body: bundle, headers: F.auth)
        #expect(refused.status == 413)
        #expect(refused.text.contains(#""code":"body_too_large""#))
        #expect(try F.etag(cluster.replicas[1], "HugeA") == nil)
    }

    @Test func writesResumeAfterTheEtcdLeaderIsKilledAndNoAcknowledgedWriteIsLost() throws {
        let cluster = try ClusterFixture()
        var acknowledged: [String] = []
        for i in 0..<5 where try F.put(cluster.replicas[i % 3], "Before\(i)", F.document("\(i)")).status == 201 {
            acknowledged.append("Before\(i)")
        }
        #expect(acknowledged.count == 5)
        var leader: Int?
        try F.eventually(20, "etcd reported a leader") {
            leader = cluster.etcd.leaderIndex()
            return leader != nil
        }
        cluster.etcd.stop(leader!)
        var after = 0
        try F.eventually(60, "a write succeeded after the leader was killed") {
            after += 1
            let status = try F.put(cluster.replicas[after % 3], "After\(after)", F.document("\(after)")).status
            if status == 201 { acknowledged.append("After\(after)") }
            return status == 201
        }
        for replica in cluster.replicas {
            try F.eventually(20, "every acknowledged write is served") {
                let list = try F.list(replica)
                return acknowledged.allSatisfy { list.contains(#""name":"\#($0)""#) }
            }
        }
    }

    @Test func killingAReplicaDuringAWriteStormLosesNoAcknowledgedWrite() throws {
        let cluster = try ClusterFixture()
        let acknowledged = Shared<[String]>([])
        let victim = cluster.replicas[2]
        Concurrently.run(3) { writer in
            for i in 0..<15 {
                if writer == 2, i == 5 { victim.signal(SIGKILL) }
                let name = "Storm\(writer)x\(i)"
                if let response = try? F.put(cluster.replicas[writer], name, F.document(name)), response.status == 201 {
                    acknowledged.withLock { $0.append(name) }
                }
            }
        }
        let names = acknowledged.withLock { $0 }
        #expect(names.count >= 30)
        let fresh = try cluster.addReplica()
        try F.waitUntilReady(fresh)
        for replica in [cluster.replicas[0], cluster.replicas[1], fresh] {
            try F.eventually(20, "every acknowledged write is served") {
                let list = try F.list(replica)
                return names.allSatisfy { list.contains(#""name":"\#($0)""#) }
            }
        }
    }

    @Test func aReplicaStartedLaterServesTheSameRegistry() throws {
        let cluster = try ClusterFixture()
        for i in 0..<4 { #expect(try F.put(cluster.replicas[i % 3], "Early\(i)", F.document("\(i)")).status == 201) }
        #expect(try cluster.replicas[1].client().request("DELETE", "/schemas/User", headers: F.auth).status == 204)
        let late = try cluster.addReplica()
        try F.waitUntilReady(late)
        try F.eventually(20, "the late replica lists what the others list") {
            try F.list(late) == F.list(cluster.replicas[0])
        }
        #expect(try F.etag(late, "User") == nil)
        // SIGHUP re-reads the files under the overlay from etcd.
        try Data(#"{"name":"Extra","properties":{"x":"int8"}}"#.utf8)
            .write(to: late.directory.appendingPathComponent("schemas/Extra.json"))
        late.signal(SIGHUP)
        try F.eventually(20, "the reload added the file model") { try F.etag(late, "Extra") != nil }
        #expect(try F.etag(late, "Early0") != nil)
        #expect(try F.etag(late, "User") == nil)
    }

    @Test func withEtcdDownConversionsGoOnWritesAnswer503AndRecoverWhenItReturns() throws {
        let cluster = try ClusterFixture()
        let (a, b) = (cluster.replicas[0], cluster.replicas[1])
        #expect(try F.put(a, "Kept", F.document("kept")).status == 201)
        try F.eventually(20, "the write propagated") { try F.etag(b, "Kept") != nil }
        for index in 0..<3 { cluster.etcd.stop(index) }
        #expect(
            try b.client().request("POST", "/convert/Kept", body: #"{"id":"1"}"#).text == #"{"id":1,"note":"kept"}"#)
        let refused = try F.put(b, "Refused", F.document("no"))
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") != nil)
        #expect(refused.text.contains(#""code":"unavailable""#))
        #expect(try b.client().request("GET", "/ready").status == 200)
        try F.eventually(20, "the replica reports itself unsynced") {
            try b.client().request("GET", "/health").text.contains(#""synced":false"#)
        }
        #expect(try b.client().request("GET", "/metrics").text.contains("\ntransform_registry_store_up 0\n"))
        for index in 0..<3 { try cluster.etcd.start(index) }
        try F.eventually(60, "writes succeed again") { try F.put(b, "Back", F.document("back")).status == 201 }
        try F.eventually(20, "the write after recovery propagated") { try F.etag(a, "Back") != nil }
        try F.eventually(20, "the replica is synced again") {
            try a.client().request("GET", "/health").text.contains(#""synced":true"#)
        }
        #expect(try F.etag(a, "Refused") == nil)
    }

    @Test func aWriteWaitingOnALostQuorumStallsNoConversionAndAnswers503() throws {
        let cluster = try ClusterFixture(replicas: 1)
        let replica = cluster.replicas[0]
        cluster.etcd.stop(0)
        cluster.etcd.stop(1)
        let answer = Shared<RawClient.Response?>(nil)
        let writer = Thread {
            let client = try? RawClient(port: replica.port, timeoutSeconds: 60)
            let response = try? client?.request("PUT", "/schemas/NoQuorum", body: F.document("x"), headers: F.auth)
            answer.withLock { $0 = response }
        }
        writer.start()
        usleep(200_000)
        // The write is waiting for etcd; conversions on other connections are answered meanwhile.
        for _ in 0..<20 {
            #expect(try replica.client().request("POST", "/convert/User", body: #"{"id":"1"}"#).status == 200)
        }
        #expect(answer.withLock { $0 } == nil, "the write did not wait for etcd")
        try F.eventually(60, "the write was answered") { answer.withLock { $0 } != nil }
        let response = try #require(answer.withLock { $0 })
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
        #expect(response.text.contains(#""code":"unavailable""#))
        #expect(try F.etag(replica, "NoQuorum") == nil)
    }

    /// A record this server cannot validate (as a newer server might write) is put straight into etcd through the
    /// gateway client: every replica keeps its running registry and counts the failure; once the record is
    /// deleted, the next state is served again.
    @Test func aStateThatDoesNotValidateHereLeavesTheRunningRegistryAndIsCounted() throws {
        let cluster = try ClusterFixture(replicas: 2)
        let (a, b) = (cluster.replicas[0], cluster.replicas[1])
        #expect(try F.put(a, "Good", F.document("good")).status == 201)
        let client = EtcdClient(
            endpoints: cluster.etcd.members.map(\.clientURL), username: nil, password: nil,
            options: EtcdHTTP.Options())
        let key = EtcdRegistryStore(client: client, prefix: cluster.prefix).modelKey("Future")
        try client.put(
            key, Array(#"{"version":1,"committedAtMs":0,"schema":{"name":"Future","properties":{"x":"int128"}}}"#.utf8))
        for replica in [a, b] {
            try F.eventually(20, "the failure was counted") {
                try replica.client().request("GET", "/metrics").text.contains(
                    "\ntransform_registry_apply_failures_total 1\n")
            }
            #expect(try F.etag(replica, "Good") != nil)
            #expect(try F.etag(replica, "Future") == nil)
        }
        // Writes validate on the stored state, so they are refused with its problems until it is mended.
        #expect(try F.put(b, "Blocked", F.document("b")).status == 400)
        try client.deleteRange(key, end: key + [0])
        try F.eventually(20, "writes are accepted again") { try F.put(b, "After", F.document("after")).status == 201 }
        try F.eventually(20, "the write propagated") { try F.etag(a, "After") != nil }
    }

    /// Keys put straight into etcd (as `etcdctl` would: no head) right before each write of the replica's own: the
    /// replica's commit may overtake one on its way through the watch; every one is served in the end all the same.
    @Test func keysPutAroundTheServiceWhileTheReplicaWritesAreAllServed() throws {
        let cluster = try ClusterFixture(replicas: 1)
        let replica = cluster.replicas[0]
        let client = EtcdClient(
            endpoints: cluster.etcd.members.map(\.clientURL), username: nil, password: nil,
            options: EtcdHTTP.Options())
        let store = EtcdRegistryStore(client: client, prefix: cluster.prefix)
        for i in 0..<20 {
            try client.put(
                store.modelKey("Raw\(i)"), Array(#"{"version":1,"committedAtMs":0,"schema":{"name":"Raw\#(i)"}}"#.utf8))
            #expect(try F.put(replica, "Api\(i)", F.document("\(i)")).status == 201)
        }
        try F.eventually(20, "every key put around the service is served") {
            let list = try F.list(replica)
            return (0..<20).allSatisfy {
                list.contains(#""name":"Raw\#($0)""#) && list.contains(#""name":"Api\#($0)""#)
            }
        }
    }

    @Test func aReplicaCutOffWhileHistoryIsCompactedReadsEverythingAgain() throws {
        let cluster = try ClusterFixture(replicas: 1)
        let writer = cluster.replicas[0]
        // This replica reaches etcd only through member 2.
        let isolated = try cluster.addReplica(endpoints: cluster.etcd.members[2].clientURL)
        try F.waitUntilReady(isolated)
        let first = try F.put(writer, "Moving", F.document("v1"))
        try F.eventually(20, "the first version propagated") { try F.etag(isolated, "Moving") == first.header("ETag") }
        cluster.etcd.stop(2)
        var last = first
        for i in 2...6 { last = try F.put(writer, "Moving", F.document("v\(i)")) }
        #expect(try F.put(writer, "Added", F.document("added")).status == 201)
        #expect(try cluster.etcd.compact(try cluster.etcd.revision()) == 200)
        #expect(try F.etag(isolated, "Moving") == first.header("ETag"))
        try cluster.etcd.start(2)
        try F.eventually(60, "the cut-off replica caught up") {
            try F.etag(isolated, "Moving") == last.header("ETag") && F.etag(isolated, "Added") != nil
        }
        #expect(try F.list(isolated) == F.list(writer))
        #expect(
            !(try isolated.client().request("GET", "/metrics").text.contains(
                "\ntransform_registry_watch_restarts_total 0\n")))
    }
}

/// etcd with authentication on: the token from `/v3/auth/authenticate` goes with every request and is fetched again
/// when it expires (the members here let tokens live one second).
@Suite(.serialized, .enabled(if: EtcdCluster.shouldRun, "etcd-server is not installed"))
struct ClusterAuthenticationTests {
    typealias F = ClusterFixture

    @Test func aReplicaWithTheRightPasswordServesAndRenewsItsTokenAndAWrongOneNeverSyncs() throws {
        let etcd = try EtcdCluster(extraArguments: ["--auth-token-ttl", "1"])
        try etcd.enableAuthentication(password: "root-pw")
        let cluster = try ClusterFixture(replicas: 0, etcd: etcd)
        let good = try cluster.addReplica(settings: ["etcdUsername": #""root""#, "etcdPassword": #""root-pw""#])
        let bad = try cluster.addReplica(settings: ["etcdUsername": #""root""#, "etcdPassword": #""wrong""#])
        try F.waitUntilReady(good)
        #expect(try F.put(good, "Secret", F.document("1")).status == 201)
        usleep(2_500_000)  // past the token's lifetime
        #expect(try F.put(good, "Secret", F.document("2")).status == 200)
        #expect(try good.client().request("GET", "/ready").status == 200)
        #expect(try bad.client().request("GET", "/ready").status == 503)
        #expect(try bad.client().request("GET", "/health").text.contains(#""synced":false"#))
        #expect(try F.put(bad, "Secret", F.document("3")).status == 503)
        // Until its first read of etcd, a replica converts with the file layer.
        #expect(try bad.client().request("POST", "/convert/User", body: #"{"id":"5"}"#).text == #"{"id":5}"#)
        #expect(try F.etag(bad, "Secret") == nil)
    }
}

/// Runs `body(0..<count)` on `count` threads at once and waits for all of them.
enum Concurrently {
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let finished = Shared(0)
        let start = Shared(false)
        for index in 0..<count {
            Thread {
                while !start.withLock({ $0 }) { usleep(100) }
                body(index)
                finished.withLock { $0 += 1 }
            }.start()
        }
        start.withLock { $0 = true }
        while finished.withLock({ $0 }) < count { usleep(1_000) }
    }
}

/// A value behind a lock, for the test threads.
final class Shared<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
