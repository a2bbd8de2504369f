// SPDX-License-Identifier: Apache-2.0

import Foundation
import MapperCore
import Synchronization
import Testing

@testable import TransformServer

#if canImport(Glibc)
    import Glibc
#endif

/// `schemaReloadIntervalMs` against the real server, on a schema directory laid out as a Kubernetes ConfigMap volume
/// (`..data` swaps, files as symlinks through it).
@Suite struct SchemaHotReloadTests {
    static let userV1 = #"{"name":"User","properties":{"uid":"uint64"}}"#
    static let userV2 = #"{"name":"User","properties":{"uid":"uint64","name":"string"}}"#
    static let book = #"{"name":"Book","properties":{"title":"string"}}"#
    static let broken = #"{"name":"User","properties":{"uid":"int99"}}"#

    /// A server whose schema directory is a ConfigMap volume holding `files`, polling every 100 ms.
    static func start(_ files: [String: String], interval: Int = 100) throws -> (ServerProcess, ConfigMapVolume) {
        let directory = try ChildProcess.temporaryDirectory()
        let volume = try ConfigMapVolume(at: directory.appendingPathComponent("schemas"), files: files)
        let server = try ServerProcess(settings: ["schemaReloadIntervalMs": String(interval)], directory: directory)
        return (server, volume)
    }

    struct Health {
        var models: Int
        var schemaSet: String
        var schemasLoadedAt: String
    }

    static func health(_ server: ServerProcess) throws -> Health {
        let response = try server.client().request("GET", "/health")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return Health(
            models: try #require(object["models"] as? Int),
            schemaSet: try #require(object["schemaSet"] as? String),
            schemasLoadedAt: try #require(object["schemasLoadedAt"] as? String))
    }

    /// The value of one sample line of `/metrics`, such as `transform_schema_reloads_total{outcome="ok"}`.
    static func metric(_ server: ServerProcess, _ series: String) throws -> Int? {
        let text = try server.client().request("GET", "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
        return line.flatMap { Int($0.split(separator: " ").last!) }
    }

    static func reloads(_ server: ServerProcess) throws -> (ok: Int?, rejected: Int?) {
        (
            try metric(server, #"transform_schema_reloads_total{outcome="ok"}"#),
            try metric(server, #"transform_schema_reloads_total{outcome="rejected"}"#)
        )
    }

    /// Polls `condition` every 50 ms for at most 20 s (a loaded machine may be slow to schedule the poll).
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    static func convertUser(_ server: ServerProcess) throws -> String {
        try server.client().request("POST", "/convert/User", body: #"{"uid":"7","name":"Ann"}"#).text
    }

    @Test func aConfigMapDataSwapReloadsTheSchemasAsSighupWould() throws {
        var (server, volume) = try Self.start(["user.json": Self.userV1])
        let before = try Self.health(server)
        #expect(try Self.convertUser(server) == #"{"uid":7}"#)
        try volume.publish(["user.json": Self.userV2, "book.json": Self.book])
        #expect(try Self.eventually { try Self.reloads(server).ok == 1 })
        let after = try Self.health(server)
        #expect(after.models == 2)
        #expect(after.schemaSet != before.schemaSet)
        #expect(after.schemasLoadedAt > before.schemasLoadedAt)
        #expect(try Self.convertUser(server) == #"{"uid":7,"name":"Ann"}"#)
        #expect(try server.client().request("POST", "/convert/Book", body: #"{"title":"T"}"#).status == 200)
        // A file removed from the ConfigMap goes away as well.
        try volume.publish(["user.json": Self.userV2])
        #expect(try Self.eventually { try Self.reloads(server).ok == 2 })
        #expect(try server.client().request("POST", "/convert/Book", body: "{}").status == 404)
        #expect(try Self.reloads(server).rejected == 0)
    }

    @Test func aBrokenSetKeepsTheRunningRegistryAndIsCountedOnce() throws {
        var (server, volume) = try Self.start(["user.json": Self.userV1])
        let before = try Self.health(server)
        try volume.publish(["user.json": Self.broken])
        #expect(try Self.eventually { try Self.reloads(server).rejected == 1 })
        usleep(1_000_000)  // ten more polls of the same broken state
        #expect(try Self.reloads(server) == (ok: 0, rejected: 1))
        #expect(try Self.convertUser(server) == #"{"uid":7}"#, "the running registry stays")
        #expect(try Self.health(server).schemaSet == before.schemaSet)
        try volume.publish(["user.json": Self.userV2])
        #expect(try Self.eventually { try Self.reloads(server).ok == 1 })
        #expect(try Self.convertUser(server) == #"{"uid":7,"name":"Ann"}"#)
    }

    @Test func anUnchangedDirectoryIsNeverRecompiled() throws {
        var (server, volume) = try Self.start(["user.json": Self.userV1, "book.json": Self.book])
        let before = try Self.health(server)
        let compiled = try Self.metric(server, "transform_meta_cache_misses_total")
        // The same bytes again through a new ..data version, and a touched file: nothing to do.
        try volume.publish(["user.json": Self.userV1, "book.json": Self.book])
        let target = volume.directory.appendingPathComponent("user.json").path
        #expect(utime(target, nil) == 0)
        usleep(1_000_000)
        #expect(try Self.reloads(server) == (ok: 0, rejected: 0))
        #expect(try Self.metric(server, "transform_meta_cache_misses_total") == compiled)
        let after = try Self.health(server)
        #expect(after.schemaSet == before.schemaSet)
        #expect(after.schemasLoadedAt == before.schemasLoadedAt)
    }

    @Test func sighupAlwaysReloadsAndPollingCanBeTurnedOff() throws {
        var (server, volume) = try Self.start(["user.json": Self.userV1], interval: 0)
        let before = try Self.health(server)
        try volume.publish(["user.json": Self.userV2])
        usleep(500_000)
        #expect(try Self.convertUser(server) == #"{"uid":7}"#, "no polling with 0")
        server.signal(SIGHUP)
        #expect(try Self.eventually { try Self.reloads(server).ok == 1 })
        #expect(try Self.convertUser(server) == #"{"uid":7,"name":"Ann"}"#)
        let changed = try Self.health(server)
        server.signal(SIGHUP)  // nothing changed, and it reloads all the same
        #expect(try Self.eventually { try Self.reloads(server).ok == 2 })
        let again = try Self.health(server)
        #expect(changed.schemaSet != before.schemaSet)
        #expect(again.schemaSet == changed.schemaSet)
        #expect(again.schemasLoadedAt >= changed.schemasLoadedAt)
    }

    @Test func replicasServingTheSameModelsReportTheSameSchemaSet() throws {
        let (one, _) = try Self.start(["a.json": Self.userV2, "b.json": Self.book])
        let (two, _) = try Self.start(["all.json": #"{"models":[\#(Self.book),\#(Self.userV2)]}"#])
        let first = try Self.health(one), second = try Self.health(two)
        #expect(first.schemaSet == second.schemaSet)
        #expect(first.schemaSet.count == 32)
        #expect(first.schemasLoadedAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
    }

    /// With no writable directory (a ConfigMap volume is read-only) registry writes live in memory; a reload keeps
    /// them on top of the new files, as the overlay file would. In-process: as root every directory is writable.
    @Test func registryWritesInMemorySurviveAReload() throws {
        let directory = try ChildProcess.temporaryDirectory()
        var volume = try ConfigMapVolume(
            at: directory.appendingPathComponent("schemas"), files: ["user.json": Self.userV1])
        var configuration = ServerConfiguration()
        configuration.schemaDir = volume.directory.path
        let registry = SchemaRegistry(limits: configuration.schemaLimits)
        let files = try configuration.schemaSource.files()
        let snapshot = try registry.load(files)
        let context = ServerContext(
            configuration: configuration, registry: registry, metrics: MetricsRegistry(),
            overlayDirectory: nil)
        context.setFileModelNames(of: snapshot, overlay: nil)
        context.schemaReloadState.withLock { $0.attempted = SchemaFile.fingerprint(of: files) }
        try registry.apply(upserts: [SchemaFile(name: "(request)", bytes: Array(Self.book.utf8))], deletes: [])
        SchemaReloader.reload(context, trigger: .change)
        #expect(registry.current.entries["User"]?.version == 1, "nothing changed: no reload")
        try volume.publish(["user.json": Self.userV2])
        SchemaReloader.reload(context, trigger: .change)
        #expect(registry.current.entries["User"]?.document == Array(Self.userV2.utf8))
        #expect(registry.current.entries["Book"]?.source == .registry, "the write made in memory stays")
    }
}

/// `maxConnectionAgeMs` on a real socket.
@Suite struct ConnectionAgeTests {
    @Test func aRequestAfterTheMaximumAgeIsAnsweredWithConnectionCloseThenTheConnectionCloses() throws {
        let server = try ServerProcess(settings: ["maxConnectionAgeMs": "300"])
        let client = try server.client()
        let young = try client.request("GET", "/health")
        #expect(young.status == 200)
        #expect(young.header("Connection") == nil)
        usleep(400_000)
        let old = try client.request("GET", "/health")
        #expect(old.status == 200)
        #expect(old.header("Connection") == "close")
        #expect(client.isClosedByPeer())
        // A new connection is young again.
        #expect(try server.client().request("GET", "/health").header("Connection") == nil)
    }

    @Test func withoutAMaximumAgeAnOldConnectionStaysOpen() throws {
        let server = try ServerProcess()
        let client = try server.client()
        _ = try client.request("GET", "/health")
        usleep(400_000)
        let later = try client.request("GET", "/health")
        #expect(later.header("Connection") == nil)
        #expect(try client.request("GET", "/health").status == 200)
    }
}
