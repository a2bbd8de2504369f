// SPDX-License-Identifier: Apache-2.0

/// The bytes of `.registry.json`:
///
///     {"models":[{"version":3,"schema":{"name":"User",…}},…],"deleted":["OldModel"]}
extension RegistryOverlay {
    /// Why an overlay could not be read.
    public struct DecodingError: Error, Sendable, CustomStringConvertible {
        /// One sentence.
        public var description: String
    }

    /// Reads an overlay; `file` names it in schema problems found later.
    public init(decoding bytes: [UInt8], file: String) throws(DecodingError) {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONValue.parse(bytes)
        } catch {
            throw DecodingError(description: "invalid JSON at byte \(error.offset): \(error.description)")
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
                guard case .string(let text) = name else { throw DecodingError(description: "deleted holds model names") }
                deleted.append(text)
            }
        }
        self.init(models: models, deleted: deleted)
    }

    /// The overlay's canonical bytes (written whole by the server on every registry write).
    public func encoded() -> [UInt8] {
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
        out.append(contentsOf: "]}".utf8)
        return out
    }
}
