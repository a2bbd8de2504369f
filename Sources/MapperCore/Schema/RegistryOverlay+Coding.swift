// SPDX-License-Identifier: Apache-2.0

/// The bytes of `.registry.json`:
///
///     {"models":[{"version":3,"schema":{"name":"User",…}},…],"deleted":["OldModel"],
///      "lifecycles":{"User":{"lastVersion":3,"config":{"compatibility":"backward"},
///                            "versions":[{"version":2,"createdAt":"…","schema":{…}},…]},…}}
///
/// `lifecycles` (docs/lifecycle.md) came later: an overlay without it reads as before, each model's history
/// starting at its kept version, and a server that predates it ignores it.
extension RegistryOverlay {
    /// Why an overlay could not be read.
    package struct DecodingError: Error, Sendable, CustomStringConvertible {
        /// One sentence.
        package var description: String
    }

    /// Reads an overlay; `file` names it in schema problems found later.
    package init(decoding bytes: [UInt8], file: String) throws(DecodingError) {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONValue.parse(bytes)
        } catch {
            throw DecodingError(description: error.located)
        }
        guard case .object = root else { throw DecodingError(description: "expected an object") }
        var models: [SchemaFile] = []
        if case .array(let entries)? = root["models"] {
            for entry in entries {
                guard case .number(let text)? = entry["version"], let version = Int(text), let schema = entry["schema"],
                    case .object = schema
                else { throw DecodingError(description: "each model needs a version and a schema object") }
                models.append(SchemaFile(name: file, bytes: schema.bytes, source: .registry, version: version))
            }
        }
        var deleted: [String] = []
        if case .array(let names)? = root["deleted"] {
            for name in names {
                guard case .string(let text) = name else {
                    throw DecodingError(description: "deleted holds model names")
                }
                deleted.append(text)
            }
        }
        var lifecycles: [String: ModelLifecycle] = [:]
        if case .object(let members)? = root["lifecycles"] {
            for member in members { lifecycles[member.key] = try ModelLifecycle(member.value, name: member.key) }
        }
        self.init(models: models, deleted: deleted, lifecycles: lifecycles)
    }

    /// The overlay's canonical bytes (written whole by the server on every registry write).
    package func encoded() -> [UInt8] {
        var out: [UInt8] = Array("{\"models\":[".utf8)
        for (i, model) in models.enumerated() {
            if i > 0 { out.append(.comma) }
            out.append(contentsOf: "{\"version\":\(model.version ?? 1),\"schema\":".utf8)
            out.append(contentsOf: model.bytes)
            out.append(.closeBrace)
        }
        out.append(contentsOf: "],\"deleted\":[".utf8)
        for (i, name) in deleted.enumerated() {
            if i > 0 { out.append(.comma) }
            JSONValue.writeString(name, into: &out)
        }
        out.append(.closeBracket)
        if !lifecycles.isEmpty {  // absent when empty: the bytes of an overlay from before histories
            out.append(contentsOf: ",\"lifecycles\":{".utf8)
            for (i, name) in lifecycles.keys.sorted().enumerated() {
                if i > 0 { out.append(.comma) }
                JSONValue.writeString(name, into: &out)
                out.append(.colon)
                out.append(contentsOf: lifecycles[name]!.encoded())
            }
            out.append(.closeBrace)
        }
        out.append(.closeBrace)
        return out
    }
}

/// One name's lifecycle as a JSON object, the unit a store persists per name:
///
///     {"lastVersion":3,"config":{"compatibility":"backward","view":"both"},
///      "versions":[{"version":2,"createdAt":"2026-01-02T03:04:05.678Z","schema":{"name":"User",…}},…]}
extension ModelLifecycle {
    /// Reads one lifecycle object (`name` for messages).
    package init(decoding bytes: [UInt8], name: String) throws(RegistryOverlay.DecodingError) {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONValue.parse(bytes)
        } catch {
            throw RegistryOverlay.DecodingError(
                description: error.located)
        }
        try self.init(value, name: name)
    }

    init(_ value: JSONValue, name: String) throws(RegistryOverlay.DecodingError) {
        func bad(_ why: String) -> RegistryOverlay.DecodingError {
            RegistryOverlay.DecodingError(description: "the lifecycle of \(name) \(why)")
        }
        guard case .number(let last)? = value["lastVersion"], let lastVersion = Int(last), lastVersion >= 0 else {
            throw bad("needs a lastVersion")
        }
        var versions: [ModelVersion] = []
        if case .array(let list)? = value["versions"] {
            for entry in list {
                guard case .number(let text)? = entry["version"], let version = Int(text), version <= lastVersion,
                    case .string(let createdAt)? = entry["createdAt"], let schema = entry["schema"],
                    case .object = schema
                else { throw bad("has a version without a number up to lastVersion, a createdAt or a schema object") }
                versions.append(ModelVersion(version: version, createdAt: createdAt, document: schema.bytes))
            }
        }
        var config = CompatibilityConfig()
        if let stored = value["config"] {
            if case .string(let text)? = stored["compatibility"] {
                guard let level = CompatibilityLevel(rawValue: text) else { throw bad("has an unknown compatibility") }
                config.level = level
            }
            if case .string(let text)? = stored["view"] {
                guard let view = CompatibilityView(rawValue: text) else { throw bad("has an unknown view") }
                config.view = view
            }
        }
        self.init(lastVersion: lastVersion, versions: versions, config: config)
    }

    /// The lifecycle's canonical bytes.
    package func encoded() -> [UInt8] {
        var out: [UInt8] = Array("{\"lastVersion\":\(lastVersion),\"config\":{".utf8)
        var members: [String] = []
        if let level = config.level { members.append("\"compatibility\":\"\(level.rawValue)\"") }
        if let view = config.view { members.append("\"view\":\"\(view.rawValue)\"") }
        out.append(contentsOf: members.joined(separator: ",").utf8)
        out.append(contentsOf: "},\"versions\":[".utf8)
        for (i, version) in versions.enumerated() {
            if i > 0 { out.append(.comma) }
            out.append(contentsOf: "{\"version\":\(version.version),\"createdAt\":".utf8)
            JSONValue.writeString(version.createdAt, into: &out)
            out.append(contentsOf: ",\"schema\":".utf8)
            out.append(contentsOf: version.document)
            out.append(.closeBrace)
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }
}
