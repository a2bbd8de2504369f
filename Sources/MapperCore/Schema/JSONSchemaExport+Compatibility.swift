// SPDX-License-Identifier: Apache-2.0

// The two documents a compatibility check compares (docs/lifecycle.md, Views):
//
//     input   GET /schemas/{M}/jsonschema               what the model accepts in strict mode
//     output  GET /schemas/{M}/jsonschema?view=output   what /normalize writes: the declared wire keys, each with
//                                                       the form its value is written in, no additionalProperties
//
// The output document of `Tag {label: string, weight: int32}`:
//
//     {"title":"Tag","type":"object","properties":{"label":{"type":"string"},
//      "weight":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["weight"]}
//
// Numeric properties are always written (absent ones as their zero), so they are required; so are required
// properties and those with a declared default. Everything else is written only when it has a value.
//
// For a check, both documents also carry `x-` markers for what a JSON Schema cannot say but a version can change:
// `willTransform` and `transformToJSON` steps, a date's output format, constraints compared after conversion
// (dates, trimmed URLs, base64 data, rounded floats). A check treats an unknown keyword as "must be the same".

extension RegistrySnapshot {
    /// The model's JSON Schema of one side (`input` or `output`), canonical compact bytes; nil for an unknown
    /// model.
    public func jsonSchema(for model: String, view: CompatibilityView) -> [UInt8]? {
        compatibilityDocument(for: model, view: view, marked: false)?.bytes
    }

    /// The document a compatibility check reads: the export of `view`, with markers when `marked`.
    func compatibilityDocument(for model: String, view: CompatibilityView, marked: Bool) -> JSONValue? {
        guard let root = self.model(named: model) else { return nil }
        var export = JSONSchemaExport(snapshot: self)
        export.view = view == .output ? .output : .input
        export.marksUnexpressed = marked
        return export.document(for: root)
    }
}

extension JSONSchemaExport {
    /// `x-<step>` members holding the steps of `model` and its ancestors as their documents declare them.
    mutating func unexpressedSteps(_ step: String, of model: CompiledModel) -> Keywords {
        var chain: [JSONValue] = []
        var current: CompiledModel? = model
        while let owner = current {
            if let declared = document(of: owner)?[step] { chain.append(declared) }
            current = owner.parentID.map { snapshot.model($0) }
        }
        return chain.isEmpty ? [] : [("x-" + step, .array(chain))]
    }

    /// A value schema with markers for the constraints the engine compares after conversion.
    static func marking(_ schema: JSONValue, _ value: CompiledValue) -> JSONValue {
        guard let c = value.constraints else { return schema }
        var kept: [String] = []
        switch value.kind {
        case .date, .url, .data:
            kept.append("\(value.typeName) constraints compared after conversion")
        case .float where c.minimum != nil || c.maximum != nil, .double where c.minimum != nil || c.maximum != nil:
            kept.append("\(value.typeName) bounds compared after rounding")
        default: break
        }
        guard !kept.isEmpty else { return schema }
        let constraints = JSONValue.object([
            ("minimum", c.minimum.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null),
            ("maximum", c.maximum.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null),
            ("minimumInstant", c.minimumInstant.map { .number(String($0.microseconds)) } ?? .null),
            ("maximumInstant", c.maximumInstant.map { .number(String($0.microseconds)) } ?? .null),
            ("minLength", c.minLength.map { .number(String($0)) } ?? .null),
            ("maxLength", c.maxLength.map { .number(String($0)) } ?? .null),
            ("pattern", c.pattern.map { .string($0.source) } ?? .null),
            ("enum", c.enumValues.map { .array($0.map { .string(String(decoding: $0, as: UTF8.self)) }) } ?? .null),
            ("why", .string(kept.joined(separator: "; "))),
        ])
        return adding([("x-constraints", constraints)], to: schema)
    }

    // MARK: - Output view

    /// A model's output definition: its own object, or with `classForDictionary` rules any of the objects they
    /// may build.
    mutating func outputDefinition(_ model: CompiledModel) -> JSONValue {
        let own = outputObject(model)
        guard !model.classRules.isEmpty else { return own }
        let built = [own] + model.classRules.map { outputObject(snapshot.model($0.useID)) }
        return .object([("title", .string(model.name)), ("anyOf", .array(built))])
    }

    private mutating func outputObject(_ model: CompiledModel) -> JSONValue {
        var root = KeyNode(key: [])
        let reshaped = !unexpressedSteps("transformToJSON", of: model).isEmpty
        for (index, property) in model.properties.enumerated() {
            let path = property.keys[0].components[...]
            let schema = outputValue(property.value)
            root.visit(path) { $0.values.append(schema) }
            let written =
                model.required.contains(index) || property.value.hasImplicitZero || property.hasDeclaredDefault
            // transformToJSON may omit or add keys: nothing is claimed to be present then.
            if written && !reshaped { root.require(path) }
        }
        var members: Keywords = [("title", .string(model.name)), ("type", .string("object"))]
        members += root.objectKeywords(rejects: false, typed: false)
        if marksUnexpressed { members += unexpressedSteps("transformToJSON", of: model) }
        return .object(members)
    }

    /// The form `/normalize` writes a value of `value`'s type in.
    private mutating func outputValue(_ value: CompiledValue) -> JSONValue {
        let c = value.constraints
        var members: Keywords
        switch value.kind {
        case .bool: members = [("type", .string("boolean"))]
        case .integer(let range):
            members = [
                ("type", .string("integer")),
                (
                    "minimum",
                    .number(c?.minimum.map { String(decoding: $0, as: UTF8.self) } ?? String(range.lowerBound))
                ),
                (
                    "maximum",
                    .number(c?.maximum.map { String(decoding: $0, as: UTF8.self) } ?? String(range.upperBound))
                ),
            ]
        case .float, .double, .decimal: members = [("type", .string("number"))] + Self.outputBounds(c)
        case .number: members = [("type", .array([.string("number"), .string("boolean")]))] + Self.outputBounds(c)
        case .string, .url:
            members = [("type", .string("string"))]
            if let length = c?.minLength { members.append(("minLength", .number(String(length)))) }
            if let length = c?.maxLength { members.append(("maxLength", .number(String(length)))) }
            if let pattern = c?.pattern { members.append(("pattern", .string(pattern.source))) }
        case .data:
            members = [("type", .string("string"))]
            if value.base64 { members.append(("contentEncoding", .string("base64"))) }
        case .date:
            members = [("x-date-output", .string("\(value.dateOutput)"))]
        case .uuid: members = [("type", .string("string")), ("format", .string("uuid"))]
        case .calendarDate: members = [("type", .string("string")), ("format", .string("date"))]
        case .withOptions(let plain):
            // `nullable` writes null as a value; `optional` and `acceptSingle` write nothing new.
            let schema = outputValue(plain)
            return value.nullable ? Self.allowing(.object([("type", .string("null"))]), in: schema) : schema
        case .any: return Self.nonNull
        case .array(let element), .set(let element):
            members = [("type", .string("array"))]
            if let element { members.append(("items", outputValue(element))) }
            if let length = c?.minLength { members.append(("minItems", .number(String(length)))) }
            if let length = c?.maxLength { members.append(("maxItems", .number(String(length)))) }
        case .dictionary(let element):
            members = [("type", .string("object"))]
            if let element { members.append(("additionalProperties", outputValue(element))) }
            if let length = c?.minLength { members.append(("minProperties", .number(String(length)))) }
            if let length = c?.maxLength { members.append(("maxProperties", .number(String(length)))) }
        case .model(let id):
            return reference(to: snapshot.model(id))
        }
        if case .date = value.kind {
        } else if let options = Self.enumOptions(c) {
            members.append(("enum", .array(options)))
        }
        let schema = JSONValue.object(members)
        return marksUnexpressed ? Self.marking(schema, value) : schema
    }

    private static func outputBounds(_ c: CompiledConstraints?) -> Keywords {
        var members: Keywords = []
        if let minimum = c?.minimum, minimum.first != UInt8(ascii: "t"), minimum.first != UInt8(ascii: "f") {
            members.append(("minimum", .number(String(decoding: minimum, as: UTF8.self))))
        }
        if let maximum = c?.maximum, maximum.first != UInt8(ascii: "t"), maximum.first != UInt8(ascii: "f") {
            members.append(("maximum", .number(String(decoding: maximum, as: UTF8.self))))
        }
        return members
    }
}
