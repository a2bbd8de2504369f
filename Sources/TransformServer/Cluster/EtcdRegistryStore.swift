// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials

/// The registry overlay in etcd (docs/cluster.md, "Layout"). Every key starts with `etcdPrefix`:
///
///     <prefix>models/<name>        {"version":3,"committedAtMs":1700000000000,"schema":{"name":"User",…}}
///                                  {"version":4,"committedAtMs":1700000000000,"deleted":true}
///     <prefix>head                 {"writer":"<replica>/<write>","committedAtMs":1700000000000}
///     <prefix>history/<name>/<n>   (kept older versions; reserved for the version history)
///
/// A model key holds the current document or a deletion marker, and the name's version counter either way. Every
/// write replaces `head` in the same transaction and compares the head's revision it validated against, so two
/// writes can never both commit on the same state, whichever keys they touch.
struct EtcdRegistryStore: RegistryStore {
    let client: EtcdClient
    let prefix: [UInt8]
    var kind: String { "etcd" }

    init(client: EtcdClient, prefix: String) {
        self.client = client
        self.prefix = Array(prefix.utf8)
    }

    var modelsPrefix: [UInt8] { prefix + Array("models/".utf8) }
    var headKey: [UInt8] { prefix + Array("head".utf8) }
    func modelKey(_ name: String) -> [UInt8] { modelsPrefix + Array(name.utf8) }

    func readAll() throws(EtcdError) -> StoreState {
        let range = try client.range(prefix, end: EtcdClient.prefixEnd(prefix))
        return state(from: range)
    }

    func commit(_ changes: [StoredModel], head: StoreHead, expectingHeadRevision headRevision: Int)
        throws(EtcdError) -> StoreCommitOutcome
    {
        var operations = changes.map { EtcdOperation.put(key: modelKey($0.name), value: Self.encode($0)) }
        operations.append(.put(key: headKey, value: Self.encode(head)))
        let result = try client.txn(compare: [EtcdCompare(key: headKey, modRevision: headRevision)],
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
            var batches: [(Int, [StoredModel], [String], StoreHead?)] = []
            // (etcd gives a delete event's key the revision of the delete.)
            for event in response.events {
                if batches.last?.0 != event.kv.modRevision { batches.append((event.kv.modRevision, [], [], nil)) }
                if event.kv.key == headKey, !event.isDelete {
                    batches[batches.count - 1].3 = Self.decodeHead(event.kv.value)
                } else if let name = modelName(event.kv.key) {
                    if event.isDelete {
                        batches[batches.count - 1].2.append(name)
                    } else if let model = Self.decodeModel(name, event.kv.value) {
                        batches[batches.count - 1].1.append(model)
                    }
                }
            }
            for batch in batches where !onChange(.changes(revision: batch.0, models: batch.1, removed: batch.2, head: batch.3)) {
                return false
            }
            return true
        }
    }

    // MARK: - Values

    private func state(from range: EtcdRange) -> StoreState {
        var state = StoreState(revision: range.revision)
        for kv in range.kvs {
            if kv.key == headKey {
                state.head = Self.decodeHead(kv.value)
                state.headRevision = kv.modRevision
            } else if let name = modelName(kv.key), let model = Self.decodeModel(name, kv.value) {
                state.models[name] = model
            }
        }
        return state
    }

    private func modelName(_ key: [UInt8]) -> String? {
        guard key.count > modelsPrefix.count, key.starts(with: modelsPrefix) else { return nil }
        return String(decoding: key[modelsPrefix.count...], as: UTF8.self)
    }

    private struct ModelHeader: Decodable {
        var version: Int
        var committedAtMs: Int?
        var deleted: Bool?
    }

    private struct HeadValue: Decodable {
        var writer: String
        var committedAtMs: Int
    }

    static let schemaMember = Array(",\"schema\":".utf8)

    static func encode(_ model: StoredModel) -> [UInt8] {
        var out = Array("{\"version\":\(model.version),\"committedAtMs\":\(model.committedAtMs)".utf8)
        if let document = model.document {
            out += schemaMember + document
        } else {
            out += Array(",\"deleted\":true".utf8)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The header members are numbers written before `schema`, so the document is everything after the first
    /// `,"schema":` up to the closing brace, byte for byte as the writer stored it.
    static func decodeModel(_ name: String, _ value: [UInt8]) -> StoredModel? {
        guard let header = try? JSONDecoder().decode(ModelHeader.self, from: Data(value)) else { return nil }
        var document: [UInt8]?
        if header.deleted != true {
            guard let start = value.firstRange(of: schemaMember)?.upperBound, value.last == UInt8(ascii: "}") else {
                return nil
            }
            document = Array(value[start..<(value.count - 1)])
        }
        return StoredModel(name: name, version: header.version, document: document,
                           committedAtMs: header.committedAtMs ?? 0)
    }

    static func encode(_ head: StoreHead) -> [UInt8] {
        Array("{\"writer\":".utf8) + Array(ConfigurationFile.quoted(head.writer).utf8)
            + Array(",\"committedAtMs\":\(head.committedAtMs)}".utf8)
    }

    static func decodeHead(_ value: [UInt8]) -> StoreHead? {
        guard let head = try? JSONDecoder().decode(HeadValue.self, from: Data(value)) else { return nil }
        return StoreHead(writer: head.writer, committedAtMs: head.committedAtMs)
    }
}
