// SPDX-License-Identifier: Apache-2.0

import Dispatch
import MapperCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The registry of one replica when its overlay lives in a shared store (`registryStore: etcd`, docs/cluster.md).
///
/// The store is the truth; the local `SchemaRegistry` serves its latest state. Two paths change what this replica
/// serves, and both end in the same `adopt`: one new snapshot built from the schema files plus the store's
/// overlay, swapped in whole (as a `SIGHUP` reload does), and only ever for a newer store revision.
/// - The sync loop (`SharedRegistry+Sync.swift`) reads the whole overlay, then watches it from that revision.
/// - A write (`SharedRegistry+Write.swift`) validates the change against the store state it knows, commits it with
///   a compare-and-swap, and adopts the committed state before it answers (read-your-writes on this replica).
final class SharedRegistry: Sendable {
    let store: any RegistryStore
    let registry: SchemaRegistry
    /// `etcdTimeoutMs`: how long the watch may be down before the replica calls itself unsynced; a write keeps
    /// retrying for three times this while etcd has no leader.
    let timeoutMs: Int
    /// Names this replica's writes in the head record, so an unknown outcome can be recognised as its own.
    let replicaID: String
    let metrics = Mutex(ClusterMetrics())
    /// The store state this replica serves, and the schema files under it.
    let served: Mutex<Served>
    /// Serialises this replica's writes (other replicas' writes are serialised by the compare-and-swap).
    let writes = Mutex<Int>(0)

    struct Served {
        var state = StoreState()
        var files: [SchemaFile]
        /// The first full read has been adopted.
        var everSynced = false
        /// When the watch went down (monotonic nanoseconds); nil while it runs.
        var downSince: UInt64? = 0
    }

    init(store: any RegistryStore, registry: SchemaRegistry, files: [SchemaFile], timeoutMs: Int) {
        self.store = store
        self.registry = registry
        self.timeoutMs = timeoutMs
        served = Mutex(Served(files: files))
        var generator = SystemRandomNumberGenerator()
        replicaID = String(generator.next() as UInt64, radix: 16)
    }

    /// Whether the first full read has been adopted (until then `/ready` answers 503 and writes 503).
    var hasSynced: Bool { served.withLock { $0.everSynced } }

    /// Synced: the first full read has been adopted and the watch runs, or has been down for at most the timeout.
    var status: (synced: Bool, revision: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        return served.withLock { served in
            let down = served.downSince.map { now - $0 > UInt64(timeoutMs) * 1_000_000 } ?? false
            return (served.everSynced && !down, served.state.revision)
        }
    }

    /// SIGHUP: new schema files under the same overlay, all or nothing.
    func reload(files: [SchemaFile]) throws(SchemaSetError) -> RegistrySnapshot {
        try served.withLock { (served) throws(SchemaSetError) -> RegistrySnapshot in
            let snapshot = try registry.load(
                files, overlay: Self.overlay(served.state, keep: registry.limits.maxVersionsPerModel))
            served.files = files
            return snapshot
        }
    }

    /// Serves `state` if it is newer than what is served: one snapshot swap. A state that does not validate here
    /// (say, a newer server wrote an option this one does not know) leaves the running registry in place, is
    /// logged and counted; the state is still recorded, so the next change is validated on top of it.
    /// `replacing`: also a state of the revision served (a full read that must replace what a commit adopted).
    func adopt(_ state: StoreState, fullRead: Bool = false, replacing: Bool = false) {
        adopt(fullRead: fullRead, replacing: replacing) { _ in state }
    }

    /// `adopt` of the state `next` makes from the served one, decided under the same lock as the swap.
    func adopt(fullRead: Bool = false, replacing: Bool = false, _ next: (StoreState) -> StoreState) {
        let nowMs = Self.wallClockMs()
        let first = served.withLock { served -> Int? in
            let state = next(served.state)
            guard
                state.revision > served.state.revision || fullRead && !served.everSynced
                    || replacing && state.revision >= served.state.revision
            else { return nil }
            do throws(SchemaSetError) {
                try registry.load(served.files, overlay: Self.overlay(state, keep: registry.limits.maxVersionsPerModel))
            } catch {
                Log.event(
                    .registryApplyFailed,
                    [
                        "revision": String(state.revision),
                        "problems": error.problems.map(\.description).joined(separator: "; "),
                    ])
                metrics.withLock { $0.applyFailures += 1 }
            }
            served.state = state
            if let head = state.head, head.committedAtMs > 0, !fullRead {
                metrics.withLock { $0.applyLag.observe(Double(nowMs - head.committedAtMs) / 1000) }
            }
            let first = fullRead && !served.everSynced
            if fullRead { served.everSynced = true }
            return first ? state.revision : nil
        }
        if let first {
            Log.event(.registrySynced, ["revision": String(first)])
        }
    }

    /// The store's state as an overlay: current documents with their versions, deletion markers, and every name's
    /// lifecycle (kept versions, oldest first and at most `keep`, its counter and its configuration), so that
    /// `/schemas/{M}/versions`, pinning, `/config` and compatibility checks read what etcd holds.
    static func overlay(_ state: StoreState, keep: Int) -> RegistryOverlay {
        var models: [SchemaFile] = []
        var deleted: [String] = []
        var lifecycles: [String: ModelLifecycle] = [:]
        for (name, model) in state.models.sorted(by: { $0.key < $1.key }) {
            if let document = state.document(of: name) {
                models.append(
                    SchemaFile(name: "etcd:" + name, bytes: document, source: .registry, version: model.version))
            } else if model.deleted {
                deleted.append(name)
            }
        }
        for name in Set(state.models.keys).union(state.versions.keys).union(state.configs.keys) {
            var kept = (state.versions[name] ?? [:]).values.sorted { $0.version < $1.version }.map {
                ModelVersion(version: $0.version, createdAt: $0.createdAt, document: $0.document)
            }
            // A record from before histories: its inline document is its only known version.
            if let model = state.models[name], let inline = model.inlineDocument, kept.last?.version != model.version {
                kept.append(
                    ModelVersion(
                        version: model.version, createdAt: HealthEndpoint.timestamp(milliseconds: model.committedAtMs),
                        document: inline))
            }
            lifecycles[name] = ModelLifecycle(
                lastVersion: state.lastVersion(of: name), versions: Array(kept.suffix(keep)),
                config: state.configs[name] ?? CompatibilityConfig())
        }
        return RegistryOverlay(models: models, deleted: deleted, lifecycles: lifecycles)
    }

    /// UTC milliseconds (the commit times stored with each write).
    static func wallClockMs() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
