// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

/// The values of the etcd layout (docs/cluster.md, "Layout"). Documents are stored byte for byte as the writer's
/// canonical bytes: the numbers and strings of a record come before `schema`, so a document is everything after the
/// first `,"schema":` up to the closing brace.
extension EtcdRegistryStore {
    private struct ModelHeader: Decodable {
        var version: Int
        var committedAtMs: Int?
        var deleted: Bool?
    }

    private struct VersionHeader: Decodable {
        var version: Int
        var createdAt: String
    }

    private struct ConfigValue: Decodable {
        var compatibility: String?
        var view: String?
    }

    private struct HeadValue: Decodable {
        var writer: String
        var committedAtMs: Int
    }

    static let schemaMember = Array(",\"schema\":".utf8)

    /// The document after `,"schema":`, or nil when there is none.
    private static func document(in value: [UInt8]) -> [UInt8]? {
        guard let start = value.firstRange(of: schemaMember)?.upperBound, value.last == UInt8(ascii: "}"),
            start < value.count - 1
        else { return nil }
        return Array(value[start..<(value.count - 1)])
    }

    static func encode(_ model: StoredModel) -> [UInt8] {
        var out = Array("{\"version\":\(model.version),\"committedAtMs\":\(model.committedAtMs)".utf8)
        if model.deleted { out += Array(",\"deleted\":true".utf8) }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A model record; one from before histories carries its document inline (`"schema"`).
    static func decodeModel(_ name: String, _ value: [UInt8]) -> StoredModel? {
        guard let header = try? JSONDecoder().decode(ModelHeader.self, from: Data(value)), header.version > 0 else {
            return nil
        }
        let deleted = header.deleted == true
        return StoredModel(
            name: name, version: header.version, deleted: deleted,
            committedAtMs: header.committedAtMs ?? 0, inlineDocument: deleted ? nil : document(in: value))
    }

    static func encode(_ version: StoredVersion) -> [UInt8] {
        Array("{\"version\":\(version.version),\"createdAt\":".utf8)
            + Array(ConfigurationFile.quoted(version.createdAt).utf8)
            + schemaMember + version.document + [UInt8(ascii: "}")]
    }

    static func decodeVersion(_ value: [UInt8]) -> StoredVersion? {
        guard let header = try? JSONDecoder().decode(VersionHeader.self, from: Data(value)),
            let document = document(in: value)
        else { return nil }
        return StoredVersion(version: header.version, createdAt: header.createdAt, document: document)
    }

    /// `{"compatibility":…,"view":…}`, members absent when they take the defaults.
    static func encode(_ config: CompatibilityConfig) -> [UInt8] {
        var members: [String] = []
        if let level = config.level { members.append("\"compatibility\":\"\(level.rawValue)\"") }
        if let view = config.view { members.append("\"view\":\"\(view.rawValue)\"") }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }

    /// A configuration; a value this server does not know (a later version's level, say) takes the default.
    static func decodeConfig(_ value: [UInt8]) -> CompatibilityConfig? {
        guard let stored = try? JSONDecoder().decode(ConfigValue.self, from: Data(value)) else { return nil }
        return CompatibilityConfig(
            level: stored.compatibility.flatMap(CompatibilityLevel.init(rawValue:)),
            view: stored.view.flatMap(CompatibilityView.init(rawValue:)))
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
