// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials

/// The registry overlay in etcd (docs/cluster.md, "Layout"). Every key starts with `etcdPrefix`:
///
///     <prefix>models/<name>        {"version":3,"committedAtMs":1700000000000}
///                                  {"version":4,"committedAtMs":1700000000000,"deleted":true}
///     <prefix>history/<name>/<n>   {"version":3,"createdAt":"2026-11-27T16:00:00.000Z","schema":{"name":"User",…}}
///     <prefix>config/<name>        {"compatibility":"backward","view":"both"}
///     <prefix>head                 {"writer":"<replica>/<write>","committedAtMs":1700000000000}
///
/// A model key names the current version (its document is that version's history key), or is a deletion marker,
/// and holds the name's version counter either way. Each version's document is written once, in its own history
/// key, so a write carries one document per model and a 1 MiB document fits etcd's request limit; trimming deletes
/// the oldest history keys in the same transaction. Every write replaces `head` in the same transaction and
/// compares the head's revision it validated against, so two writes can never both commit on the same state,
/// whichever keys they touch.
struct EtcdRegistryStore: RegistryStore {
    let client: EtcdClient
    let prefix: [UInt8]
    var kind: String { "etcd" }

    init(client: EtcdClient, prefix: String) {
        self.client = client
        self.prefix = Array(prefix.utf8)
    }

    var modelsPrefix: [UInt8] { prefix + Array("models/".utf8) }
    var historyPrefix: [UInt8] { prefix + Array("history/".utf8) }
    var configPrefix: [UInt8] { prefix + Array("config/".utf8) }
    var headKey: [UInt8] { prefix + Array("head".utf8) }
    func modelKey(_ name: String) -> [UInt8] { modelsPrefix + Array(name.utf8) }
    func versionKey(_ name: String, _ version: Int) -> [UInt8] { historyPrefix + Array("\(name)/\(version)".utf8) }
    func configKey(_ name: String) -> [UInt8] { configPrefix + Array(name.utf8) }

    func readAll() throws(EtcdError) -> StoreState {
        let range = try client.range(prefix, end: EtcdClient.prefixEnd(prefix))
        return state(from: range)
    }

    func commit(_ change: StoreDelta, expectingHeadRevision headRevision: Int) throws(EtcdError) -> StoreCommitOutcome {
        var operations: [EtcdOperation] = []
        for (name, version) in change.versions {
            operations.append(.put(key: versionKey(name, version.version), value: Self.encode(version)))
        }
        for model in change.models { operations.append(.put(key: modelKey(model.name), value: Self.encode(model))) }
        for (name, number) in change.removedVersions { operations.append(.delete(key: versionKey(name, number))) }
        for (name, config) in change.configs {
            operations.append(.put(key: configKey(name), value: Self.encode(config)))
        }
        for name in change.removedModels { operations.append(.delete(key: modelKey(name))) }
        for name in change.removedConfigs { operations.append(.delete(key: configKey(name))) }
        if let head = change.head { operations.append(.put(key: headKey, value: Self.encode(head))) }
        let result = try client.txn(
            compare: [EtcdCompare(key: headKey, modRevision: headRevision)],
            success: operations,
            failure: [.range(key: prefix, end: EtcdClient.prefixEnd(prefix))])
        if result.succeeded { return .committed(revision: result.revision) }
        guard let range = result.reads.first else {
            throw .rejected(code: 0, message: "the failed transaction returned no read")
        }
        return .conflict(state(from: range))
    }

    func watch(after revision: Int, onChange: @escaping (StoreWatchBatch) -> Bool) throws(EtcdError) {
        try client.watch(prefix, end: EtcdClient.prefixEnd(prefix), startRevision: revision + 1) { response in
            if response.compactRevision > 0 { return onChange(.compacted) && false }
            if response.canceled { return false }
            if response.created { return onChange(.started) }
            // One watch response holds the events of one or more revisions; each revision is one batch.
            // (etcd gives a delete event's key the revision of the delete.)
            var batches: [(revision: Int, delta: StoreDelta)] = []
            for event in response.events {
                if batches.last?.revision != event.kv.modRevision {
                    batches.append((event.kv.modRevision, StoreDelta()))
                }
                record(event.kv.key, event.isDelete ? nil : event.kv.value, into: &batches[batches.count - 1].delta)
            }
            for batch in batches where !onChange(.changes(revision: batch.revision, batch.delta)) {
                return false
            }
            return true
        }
    }

    // MARK: - Keys

    /// What a key under the prefix is.
    enum Key: Equatable {
        case model(String)
        case version(String, Int)
        case config(String)
        case head
    }

    /// The meaning of `key`, or nil for a key this server does not know (a later version's, say).
    func parse(_ key: [UInt8]) -> Key? {
        if key == headKey { return .head }
        if let name = Self.suffix(key, after: modelsPrefix) { return .model(name) }
        if let name = Self.suffix(key, after: configPrefix) { return .config(name) }
        if let rest = Self.suffix(key, after: historyPrefix), let slash = rest.lastIndex(of: "/"),
            let number = Int(rest[rest.index(after: slash)...]), number > 0, slash > rest.startIndex
        {
            return .version(String(rest[..<slash]), number)
        }
        return nil
    }

    private static func suffix(_ key: [UInt8], after prefix: [UInt8]) -> String? {
        guard key.count > prefix.count, key.starts(with: prefix) else { return nil }
        return String(decoding: key[prefix.count...], as: UTF8.self)
    }

    /// Adds the key's put (`value`) or delete (nil) to `delta`; values that do not decode are ignored.
    private func record(_ key: [UInt8], _ value: [UInt8]?, into delta: inout StoreDelta) {
        switch parse(key) {
        case .head?:
            if let value, let head = Self.decodeHead(value) { delta.head = head }
        case .model(let name)?:
            if let value {
                if let model = Self.decodeModel(name, value) { delta.models.append(model) }
            } else {
                delta.removedModels.append(name)
            }
        case .version(let name, let number)?:
            if let value {
                if let version = Self.decodeVersion(value), version.version == number {
                    delta.versions.append((name, version))
                }
            } else {
                delta.removedVersions.append((name, number))
            }
        case .config(let name)?:
            if let value {
                if let config = Self.decodeConfig(value) { delta.configs.append((name, config)) }
            } else {
                delta.removedConfigs.append(name)
            }
        case nil:
            break
        }
    }

    private func state(from range: EtcdRange) -> StoreState {
        var delta = StoreDelta()
        var headRevision = 0
        for kv in range.kvs {
            if kv.key == headKey { headRevision = kv.modRevision }
            record(kv.key, kv.value, into: &delta)
        }
        var state = StoreState()
        state.apply(delta, at: range.revision)
        state.headRevision = delta.head == nil ? 0 : headRevision
        return state
    }
}
