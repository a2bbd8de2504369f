// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// A shared, replicated store that holds the registry overlay for every replica (docs/cluster.md): what
/// `SharedRegistry` needs from etcd, and all it needs, so another store (say, the Kubernetes API) can take its place.
///
/// The store holds, per model name, a record of the current version or a deletion marker carrying the name's
/// version counter (`StoredModel`), the kept versions' documents (`StoredVersion`, the name's history), the name's
/// compatibility configuration, plus one head record that every write replaces. A write commits only if the head is
/// still the one the writer validated against (compare-and-swap on the whole set); when it is not, the store
/// answers the state it has now, read at the same revision as the failed comparison. The default `local` store (the
/// `.registry.json` file) does not go through this seam: it is written in place by `SchemasEndpoint`.
protocol RegistryStore: Sendable {
    /// The whole overlay and the revision it was read at.
    func readAll() throws(EtcdError) -> StoreState

    /// Commits `change` (its `head` set) if the head's revision is still `headRevision`, else returns the current
    /// state.
    func commit(_ change: StoreDelta, expectingHeadRevision headRevision: Int) throws(EtcdError) -> StoreCommitOutcome

    /// Follows changes after `revision`, handing each batch (one store revision) to `onChange` until it returns
    /// false or the connection ends. Throws when the watch cannot start or is cut off.
    func watch(after revision: Int, onChange: @escaping (StoreWatchBatch) -> Bool) throws(EtcdError)

    /// Says what the store is in `/health`.
    var kind: String { get }
}

/// One name's record: which version is current, or a deletion marker, with the name's last version number.
/// Versions never repeat for a name: a delete keeps the counter, a re-create continues from it. The current
/// version's document is the name's `StoredVersion` of that number; a record written before histories existed
/// carries it inline instead (`inlineDocument`).
struct StoredModel: Sendable, Equatable {
    var name: String
    var version: Int
    var deleted = false
    /// When the writer committed it (UTC milliseconds), for the apply-lag metric.
    var committedAtMs: Int
    /// The document of a record from before histories (read, never written).
    var inlineDocument: [UInt8]?
}

/// One kept version of a name: its number, canonical document and when the registry accepted it (RFC 3339, UTC).
struct StoredVersion: Sendable, Equatable {
    var version: Int
    var createdAt: String
    var document: [UInt8]
}

/// The head record: which write came last, and when (UTC milliseconds).
struct StoreHead: Sendable, Equatable {
    var writer: String
    var committedAtMs: Int
}

/// The overlay at one store revision.
struct StoreState: Sendable {
    var models: [String: StoredModel] = [:]
    /// Every name's kept versions by number (the current one included).
    var versions: [String: [Int: StoredVersion]] = [:]
    /// Names' own compatibility configurations.
    var configs: [String: CompatibilityConfig] = [:]
    var head: StoreHead?
    /// The head record's last-change revision (0 before the first write).
    var headRevision = 0
    /// The store revision this state was read at (or reached through the watch).
    var revision = 0

    /// The current document of `name`, nil when it is deleted, unknown, or its version's document is missing.
    func document(of name: String) -> [UInt8]? {
        guard let model = models[name], !model.deleted else { return nil }
        return versions[name]?[model.version]?.document ?? model.inlineDocument
    }

    /// The highest version number `name` has had in the store (its counter, or a kept version's number).
    func lastVersion(of name: String) -> Int {
        max(models[name]?.version ?? 0, versions[name]?.keys.max() ?? 0)
    }

    /// Applies one revision's changes (a commit of this replica's, or a batch seen through the watch).
    mutating func apply(_ delta: StoreDelta, at revision: Int) {
        for model in delta.models { models[model.name] = model }
        for name in delta.removedModels { models[name] = nil }
        for (name, version) in delta.versions { versions[name, default: [:]][version.version] = version }
        for (name, number) in delta.removedVersions {
            versions[name]?[number] = nil
            if versions[name]?.isEmpty == true { versions[name] = nil }
        }
        for (name, config) in delta.configs { configs[name] = config }
        for name in delta.removedConfigs { configs[name] = nil }
        if let head = delta.head {
            self.head = head
            headRevision = revision
        }
        self.revision = max(revision, self.revision)
    }
}

/// The changes of one store revision: what a write commits, or what the watch saw.
struct StoreDelta: Sendable {
    var models: [StoredModel] = []
    var removedModels: [String] = []
    var versions: [(name: String, version: StoredVersion)] = []
    var removedVersions: [(name: String, version: Int)] = []
    var configs: [(name: String, config: CompatibilityConfig)] = []
    var removedConfigs: [String] = []
    var head: StoreHead?

    /// Nothing to commit (the head alone does not count).
    var isEmpty: Bool {
        models.isEmpty && removedModels.isEmpty && versions.isEmpty && removedVersions.isEmpty && configs.isEmpty
            && removedConfigs.isEmpty
    }
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
    /// The changes of the store revision `revision`.
    case changes(revision: Int, StoreDelta)
    /// The watched revision was compacted away: read everything again.
    case compacted
}
