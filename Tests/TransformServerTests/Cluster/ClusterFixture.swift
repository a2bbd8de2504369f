// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real etcd cluster and TransformServer replicas sharing one registry through it (docs/cluster.md).
final class ClusterFixture: @unchecked Sendable {
    static let token = "cluster-token"
    static let schemas = [
        "User.json": #"{"name":"User","properties":{"id":"int64","name":"string"}}"#
    ]

    let etcd: EtcdCluster
    let prefix = "/ts-test-\(UUID().uuidString.prefix(8))/"
    private(set) var replicas: [ServerProcess] = []

    init(replicas count: Int = 3, etcd: EtcdCluster? = nil) throws {
        self.etcd = try etcd ?? EtcdCluster()
        for _ in 0..<count { try addReplica() }
        for replica in replicas { try Self.waitUntilReady(replica) }
    }

    deinit { for replica in replicas { replica.stop() } }

    /// Starts one more replica (not waiting for its first sync); `endpoints` defaults to every member.
    @discardableResult
    func addReplica(endpoints: String? = nil, settings extra: [String: String] = [:]) throws -> ServerProcess {
        let settings = [
            "registryStore": #""etcd""#, "etcdEndpoints": "\"\(endpoints ?? etcd.endpoints)\"",
            "etcdPrefix": "\"\(prefix)\"", "adminToken": "\"\(Self.token)\"", "etcdTimeoutMs": "2000",
            "drainGraceMs": "0",
        ].merging(extra) { $1 }
        let replica = try ServerProcess(schemas: Self.schemas, settings: settings)
        replicas.append(replica)
        return replica
    }

    static func waitUntilReady(_ replica: ServerProcess, seconds: Double = 30) throws {
        try eventually(seconds, "the replica became ready") {
            try replica.client().request("GET", "/ready").status == 200
        }
    }

    /// Polls `condition` every 10 ms until it holds; throws after `seconds`.
    static func eventually(_ seconds: Double, _ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? condition()) == true { return }
            usleep(10_000)
        }
        throw EtcdCluster.StartError(description: "timed out after \(seconds) s waiting until \(what)")
    }

    static var auth: [String: String] { ["Authorization": "Bearer \(token)"] }

    /// `PUT /schemas/{name}` with `body`, and `If-Match` when given.
    static func put(_ replica: ServerProcess, _ name: String, _ body: String, ifMatch: String? = nil) throws
        -> RawClient.Response
    {
        var headers = auth
        if let ifMatch { headers["If-Match"] = ifMatch }
        return try replica.client().request("PUT", "/schemas/\(name)", body: body, headers: headers)
    }

    /// The model's ETag on `replica`, or nil when it does not serve the model.
    static func etag(_ replica: ServerProcess, _ name: String) throws -> String? {
        let response = try replica.client().request("GET", "/schemas/\(name)")
        return response.status == 200 ? response.header("ETag") : nil
    }

    /// `GET /schemas` of `replica`.
    static func list(_ replica: ServerProcess) throws -> String {
        try replica.client().request("GET", "/schemas").text
    }

    /// A small model document whose bytes depend on `tag`.
    static func document(_ tag: String) -> String {
        #"{"properties":{"id":"int64","note":{"type":"string","default":"\#(tag)"}}}"#
    }
}

/// The cluster tests drive replicas from several threads; each call on a `ServerProcess` is a signal or a new
/// connection, safe from any thread.
extension ServerProcess: @unchecked Sendable {}
