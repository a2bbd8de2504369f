// SPDX-License-Identifier: Apache-2.0

/// A shared, replicated store that holds the registry overlay for every replica (docs/cluster.md): what
/// `SharedRegistry` needs from etcd, and all it needs, so another store (say, the Kubernetes API) can take its place.
///
/// The store holds, per model name, the current document or a deletion marker together with the name's version
/// counter (`StoredModel`), plus one head record that every write replaces. A write commits only if the head is
/// still the one the writer validated against (compare-and-swap on the whole set); when it is not, the store
/// answers the state it has now, read at the same revision as the failed comparison. The default `local` store (the
/// `.registry.json` file) does not go through this seam: it is written in place by `SchemasEndpoint`.
protocol RegistryStore: Sendable {
    /// The whole overlay and the revision it was read at.
    func readAll() throws(EtcdError) -> StoreState

    /// Commits `changes` if the head's revision is still `headRevision`, else returns the current state.
    func commit(_ changes: [StoredModel], head: StoreHead, expectingHeadRevision headRevision: Int)
        throws(EtcdError) -> StoreCommitOutcome

    /// Follows changes after `revision`, handing each batch (one store revision) to `onChange` until it returns
    /// false or the connection ends. Throws when the watch cannot start or is cut off.
    func watch(after revision: Int, onChange: @escaping (StoreWatchBatch) -> Bool) throws(EtcdError)

    /// Says what the store is in `/health`.
    var kind: String { get }
}

/// One name's record: its current document (canonical bytes) or a deletion marker, with the name's last version.
/// Versions never repeat for a name: a delete keeps the counter, a re-create continues from it.
struct StoredModel: Sendable, Equatable {
    var name: String
    var version: Int
    /// The canonical document; nil for a deletion marker.
    var document: [UInt8]?
    /// When the writer committed it (UTC milliseconds), for the apply-lag metric.
    var committedAtMs: Int
}

/// The head record: which write came last, and when (UTC milliseconds).
struct StoreHead: Sendable, Equatable {
    var writer: String
    var committedAtMs: Int
}

/// The overlay at one store revision.
struct StoreState: Sendable {
    var models: [String: StoredModel] = [:]
    var head: StoreHead?
    /// The head record's last-change revision (0 before the first write).
    var headRevision = 0
    /// The store revision this state was read at (or reached through the watch).
    var revision = 0
}

/// What a compare-and-swap commit did.
enum StoreCommitOutcome: Sendable {
    /// Committed at this revision.
    case committed(revision: Int)
    /// Someone else wrote first; here is the state now.
    case conflict(StoreState)
}

/// One revision's worth of watched changes, or the news that the watch must restart from a full read.
enum StoreWatchBatch: Sendable {
    /// The watch is established (from here on, every change arrives).
    case started
    /// Changes at `revision`: models put or deleted, and the head when it was replaced.
    case changes(revision: Int, models: [StoredModel], removed: [String], head: StoreHead?)
    /// The watched revision was compacted away: read everything again.
    case compacted
}
