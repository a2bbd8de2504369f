// SPDX-License-Identifier: Apache-2.0

// `GET /schemas/{Model}/jsonschema`: a model exported as a JSON Schema (draft 2020-12) document that describes the
// wire form strict mode accepts, that is, input that converts with no entry at all. Each model the exported one can
// reach becomes one `$defs` entry, referenced by name, so recursive models stay finite:
//
//     {"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Repo","$ref":"#/$defs/Repo","$defs":{
//       "Owner":{"title":"Owner","type":"object","properties":{"id":{"type":"integer",…}},"required":["id"]},
//       "Repo":{"title":"Repo","type":"object","properties":{…,
//               "owner":{"anyOf":[{"$ref":"#/$defs/Owner"},{"type":"null"}]}}}}}
//
// A `$defs` entry describes "a value built as that model", in the order of docs/semantics.md, "Building a model: the
// order": the `willTransform.unwrap` wrapper, then the model's own `classForDictionary` rules as an `if`/`then`/`else`
// chain, then the object schema of the model picked (JSONSchemaExport+Object). The document is a `JSONValue` tree
// written once in canonical compact bytes; every list in it is built in a fixed order, so one snapshot always gives the
// same bytes. What JSON Schema cannot say (duplicate keys, a set's deduplication, date ranges, …) is listed in
// docs/jsonschema.md.

extension RegistrySnapshot {
    /// The model's strict-valid wire form as a JSON Schema (draft 2020-12) document in canonical compact bytes, or
    /// nil when no model has that name.
    public func jsonSchema(for model: String) -> [UInt8]? {
        guard let root = self.model(named: model) else { return nil }
        var export = JSONSchemaExport(snapshot: self)
        return export.document(for: root).bytes
    }
}

/// Builds one JSON Schema document from a snapshot; a value used for one export only.
struct JSONSchemaExport {
    static let dialect = "https://json-schema.org/draft/2020-12/schema"
    /// An object schema's keywords, in the order they are written.
    typealias Keywords = [(key: String, value: JSONValue)]

    let snapshot: RegistrySnapshot
    /// Which side of the models the document describes (`output`: docs/lifecycle.md, Views).
    var view: CompatibilityView = .input
    /// For compatibility checks only: `x-` markers carry what JSON Schema cannot express, so that a change to it
    /// is a difference (never set for `GET …/jsonschema`).
    var marksUnexpressed = false
    /// Finished `$defs` entries by model name.
    private var definitions: [String: JSONValue] = [:]
    /// Models referenced whose definition is still to be built.
    private var pending: [CompiledModel] = []
    /// Ids of every model referenced so far (each is defined once).
    private var referenced: Set<Int> = []
    /// Each model's own schema document, parsed once, for `description`s.
    private var documents: [Int: JSONValue] = [:]

    init(snapshot: RegistrySnapshot) {
        self.snapshot = snapshot
    }

    /// The whole document: the root model by reference, and every model reachable from it in `$defs`.
    mutating func document(for root: CompiledModel) -> JSONValue {
        _ = reference(to: root)
        while let model = pending.popLast() {
            definitions[model.name] = builtSchema(model)
            // The model's own document under the vendor keyword, so that an import restores it exactly
            // (docs/lifecycle.md, Import); validators ignore it.
            if view == .input, !marksUnexpressed, let own = document(of: model) {
                definitions[model.name] = Self.adding([("x-transform", own)], to: definitions[model.name]!)
                // Its parent and the models its rules build are defined too, so that the import has them.
                if let parent = model.parentID { _ = reference(to: snapshot.model(parent)) }
                for rule in model.classRules { _ = reference(to: snapshot.model(rule.useID)) }
            }
        }
        return .object([
            ("$schema", .string(Self.dialect)),
            ("title", .string(root.name)),
            ("$ref", .string(Self.definitionPointer(root.name))),
            ("$defs", .object(definitions.keys.sorted().map { ($0, definitions[$0]!) })),
        ])
    }

    /// `{"$ref": "#/$defs/Name"}`, queuing the model's definition the first time it is referenced.
    mutating func reference(to model: CompiledModel) -> JSONValue {
        if referenced.insert(model.id).inserted { pending.append(model) }
        return .object([("$ref", .string(Self.definitionPointer(model.name)))])
    }

    /// Model names are identifiers (`[A-Za-z_][A-Za-z0-9_]*`), so they need no JSON Pointer escaping.
    static func definitionPointer(_ name: String) -> String { "#/$defs/" + name }

    /// A value built as `model` (docs/semantics.md, "Building a model: the order"): `unwrap` first, then
    /// `classForDictionary` on the unwrapped object (its predicates see the object after `rename`, `remove` and
    /// `defaults`), then the chosen model's object.
    private mutating func builtSchema(_ model: CompiledModel) -> JSONValue {
        if view == .output { return outputDefinition(model) }
        var schema = objectSchema(model, declared: model)
        let steps = model.willTransform
        for rule in model.classRules.reversed() {
            schema = .object([
                ("if", condition(rule.wire, under: steps)),
                ("then", objectSchema(snapshot.model(rule.useID), declared: model)),
                ("else", schema),
            ])
        }
        if !model.classRules.isEmpty { schema = .object([("type", .string("object"))] + Self.members(schema)) }
        if let unwrap = steps?.unwrap {
            // Keys beside the unwrap target are neither read nor unknown; the target must be an object.
            let wrapped = Self.present(unwrap.components[...], then: schema)
            schema = .object([("type", .string("object"))] + Self.members(wrapped))
        }
        if !model.classRules.isEmpty || steps?.unwrap != nil {
            schema = .object([("title", .string(model.name))] + Self.members(schema))
        }
        return schema
    }

    /// The model's own schema document (its registry entry's canonical bytes, not its parents'), parsed once.
    mutating func document(of model: CompiledModel) -> JSONValue? {
        if let parsed = documents[model.id] { return parsed }
        guard let bytes = snapshot.entries[model.name]?.document, let parsed = try? JSONValue.parse(bytes) else {
            return nil
        }
        documents[model.id] = parsed
        return parsed
    }
}

// MARK: - Combinators

extension JSONSchemaExport {
    /// The schema every instance satisfies.
    static let always = JSONValue.object([])
    /// The schema no instance satisfies.
    static let never = JSONValue.bool(false)

    static func allOf(_ schemas: [JSONValue]) -> JSONValue {
        if schemas.contains(never) { return never }
        let kept = schemas.filter { $0 != always }
        switch kept.count {
        case 0: return always
        case 1: return kept[0]
        default: return .object([("allOf", .array(kept))])
        }
    }

    static func anyOf(_ schemas: [JSONValue]) -> JSONValue {
        if schemas.contains(always) { return always }
        let kept = schemas.filter { $0 != never }
        switch kept.count {
        case 0: return never
        case 1: return kept[0]
        default: return .object([("anyOf", .array(kept))])
        }
    }

    static func not(_ schema: JSONValue) -> JSONValue {
        if schema == always { return never }
        if schema == never { return always }
        return .object([("not", schema)])
    }

    /// The keywords of an object schema (a boolean schema becomes one `allOf`).
    static func members(_ schema: JSONValue) -> Keywords {
        if case .object(let members) = schema { return members }
        return [("allOf", .array([schema]))]
    }

    /// `schema` with `extra` keywords appended.
    static func adding(_ extra: Keywords, to schema: JSONValue) -> JSONValue {
        extra.isEmpty ? schema : .object(members(schema) + extra)
    }

    /// An input key as the JSON Schema property name.
    static func name(_ key: [UInt8]) -> String { String(decoding: key, as: UTF8.self) }
}
