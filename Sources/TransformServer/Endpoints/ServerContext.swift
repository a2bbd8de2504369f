// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Synchronization

/// What every request may need: the registry, the configuration, metrics, and the server's lifecycle flags.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let registry: SchemaRegistry
    let metrics: MetricsRegistry
    /// Where registry writes are persisted; nil when they live in memory only.
    let overlayDirectory: String?
    /// The shared registry when `registryStore` is `etcd` (docs/cluster.md); nil with the local overlay file.
    let shared: SharedRegistry?
    /// Serialises registry writes with their overlay file rewrite.
    let registryWrites = Mutex<Void>(())
    /// Names of the models the schema files define (for the overlay's deletion markers).
    private let fileModels = Mutex<Set<String>>([])
    /// What the last schema reload attempt saw (`SchemaReloader`).
    let schemaReloadState = Mutex(SchemaReloader.State())
    /// The last snapshot `/health` described and its `schemaSet` (hashing every document once per snapshot).
    private let schemaSetCache = Mutex<(snapshot: RegistrySnapshot, schemaSet: String)?>(nil)
    private let draining = Atomic<Bool>(false)
    private let loaded = Atomic<Bool>(false)
    /// `configuration.resolvedBatchWorkers`, read once.
    private let batchWorkers: Int

    init(
        configuration: ServerConfiguration, registry: SchemaRegistry, metrics: MetricsRegistry,
        overlayDirectory: String?, shared: SharedRegistry? = nil
    ) {
        self.configuration = configuration
        self.shared = shared
        batchWorkers = configuration.resolvedBatchWorkers
        self.registry = registry
        self.metrics = metrics
        self.overlayDirectory = overlayDirectory
    }

    var fileModelNames: Set<String> { fileModels.withLock { $0 } }
    func setFileModelNames(_ names: Set<String>) { fileModels.withLock { $0 = names } }
    /// The file models of a freshly loaded `snapshot`, with the names the overlay hides.
    func setFileModelNames(of snapshot: RegistrySnapshot, overlay: RegistryOverlay?) {
        setFileModelNames(
            Set(snapshot.entries.filter { $0.value.source != .registry }.map(\.key))
                .union(overlay?.deleted ?? []))
    }

    /// The registry writes of the current snapshot as an overlay: every registry-written model, and a deletion
    /// marker for each file model that is gone (docs/api.md, "Persistence").
    func writtenOverlay() -> RegistryOverlay {
        let snapshot = registry.current
        let models = snapshot.modelNames.compactMap { name -> SchemaFile? in
            guard let entry = snapshot.entries[name], entry.source == .registry else { return nil }
            return SchemaFile(
                name: RegistryOverlayFile.name, bytes: entry.document, source: .registry,
                version: entry.version)
        }
        return RegistryOverlay(models: models, deleted: fileModelNames.filter { !snapshot.contains($0) }.sorted())
    }

    /// `/health`'s `schemaSet` of `snapshot` (docs/api.md), computed once per snapshot.
    func schemaSet(of snapshot: RegistrySnapshot) -> String {
        if let cached = schemaSetCache.withLock({ $0 }), cached.snapshot === snapshot { return cached.schemaSet }
        let schemaSet = snapshot.schemaSet
        schemaSetCache.withLock { $0 = (snapshot, schemaSet) }
        return schemaSet
    }

    var isDraining: Bool { draining.load(ordering: .acquiring) }
    func startDraining() { draining.store(true, ordering: .releasing) }
    var isLoaded: Bool { loaded.load(ordering: .acquiring) }
    func markLoaded() { loaded.store(true, ordering: .releasing) }

    var conversionOptions: ConversionOptions {
        var options = ConversionOptions()
        options.maxDepth = configuration.maxNestingDepth
        options.maxReportEntries = configuration.maxReportEntries
        options.maxRuleSteps = configuration.maxRuleSteps
        options.maxRuleBytes = configuration.maxBodyBytes
        options.batchWorkers = batchWorkers
        options.keepsEntries = false  // a success answers its count and codes only
        return options
    }
}

extension RegistryOverlayFile.Saver {
    /// A saver into this server's overlay directory, for the models its schema files define now.
    convenience init(_ context: ServerContext) {
        self.init(directory: context.overlayDirectory, fileModels: context.fileModelNames)
    }
}
