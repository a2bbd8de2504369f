// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Synchronization

/// Builds a `Server` from a resolved configuration: loads the schema source into the registry, with the
/// `.registry.json` overlay (or, with `registryStore: etcd`, the shared registry kept in sync with etcd), then makes
/// the context and metrics the server runs on. `serve` calls `build` at start-up and `reload` on `SIGHUP`; the
/// end-to-end tests reach it through the real binary.
enum ServerBuilder {
    enum BuildError: Error, CustomStringConvertible {
        case schemas([SchemaProblem])
        case unreadable(String)

        var description: String {
            switch self {
            case .schemas(let problems): problems.map(\.description).joined(separator: "\n")
            case .unreadable(let why): why
            }
        }

        /// 1 for a broken schema set (every problem listed); 2 for a schema directory that cannot be read at all,
        /// a configuration error like a bad setting.
        var exitStatus: Int32 {
            switch self {
            case .schemas: 1
            case .unreadable: 2
            }
        }
    }

    static func build(_ configuration: ServerConfiguration) throws(BuildError) -> Server {
        let registry = SchemaRegistry(
            limits: configuration.schemaLimits,
            compatibilityDefaults: configuration.compatibilityDefaults)
        let source = configuration.schemaSource
        let files: [SchemaFile]
        let overlay: RegistryOverlay?
        do {
            files = try source.files()
            // With etcd, no .registry.json is read or written: the overlay comes from etcd (docs/cluster.md).
            overlay = configuration.registryStore == "etcd" ? nil : try source.overlay()
        } catch {
            throw .unreadable("\(error)")
        }
        let snapshot: RegistrySnapshot
        do throws(SchemaSetError) {
            snapshot = try registry.load(files, overlay: overlay)
        } catch {
            throw .schemas(error.problems)
        }
        var overlayDirectory: String?
        var shared: SharedRegistry?
        if configuration.registryStore == "etcd" {
            shared = makeShared(configuration, registry: registry, files: files)
        } else if case .directory(let path) = source, RegistryOverlayFile.isWritable(path) {
            overlayDirectory = path
        }
        let context = ServerContext(
            configuration: configuration, registry: registry, metrics: MetricsRegistry(),
            overlayDirectory: overlayDirectory, shared: shared)
        context.setFileModelNames(of: snapshot, overlay: overlay)
        context.schemaReloadState.withLock { $0.attempted = SchemaFile.fingerprint(of: files) }
        context.metrics.observe(registry: registry)
        context.markLoaded()
        if let shared {
            context.metrics.observe(shared: shared)
            shared.startSync()
        }
        return Server(context: context)
    }

    /// The etcd store of `configuration` behind a `SharedRegistry`; its sync loop starts with the server.
    static func makeShared(
        _ configuration: ServerConfiguration, registry: SchemaRegistry,
        files: [SchemaFile]
    ) -> SharedRegistry {
        let options = EtcdHTTP.Options(
            timeoutMs: configuration.etcdTimeoutMs, caFile: configuration.etcdCaFile,
            certFile: configuration.etcdCertFile, keyFile: configuration.etcdKeyFile)
        let client = EtcdClient(
            endpoints: configuration.etcdEndpoints, username: configuration.etcdUsername,
            password: configuration.etcdPassword, options: options)
        return SharedRegistry(
            store: EtcdRegistryStore(client: client, prefix: configuration.etcdPrefix),
            registry: registry, files: files, timeoutMs: configuration.etcdTimeoutMs)
    }

    /// SIGHUP: re-reads the files, re-applies the overlay, and swaps the registry only if the whole set is valid.
    static func reload(_ server: Server) {
        SchemaReloader.reload(server.context, trigger: .signal)
    }
}
