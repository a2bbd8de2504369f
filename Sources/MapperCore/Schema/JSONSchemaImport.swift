// SPDX-License-Identifier: Apache-2.0

// JSON Schema → model schema documents (docs/lifecycle.md, Import). Our own export carries each model's document
// under the vendor keyword `x-transform` (validators ignore it), which is read first: importing an export restores
// the models byte for byte. Other documents are translated keyword by keyword:
//
//     {"title":"Tag","type":"object","required":["label"],                {"name":"Tag","properties":{
//      "properties":{"label":{"type":"string","maxLength":8},     →         "label":{"type":"string","maxLength":8,"required":true},
//                    "n":{"type":"integer"}}}                                "n":{"type":"int64"}}}
//
// A `oneOf`/`anyOf` of `$ref`s told apart by one `const` property becomes `classForDictionary`. Every keyword that has
// no translation is listed with its JSON Pointer; the models are still written without it.

/// The translation of one JSON Schema document into a bundle of model documents.
public struct JSONSchemaImport: Sendable {
    /// `{"models": [...]}`, canonical compact bytes.
    public var bundle: [UInt8]
    /// The names of the models written, the root's first.
    public var models: [String]
    /// Keywords that were not translated, each with its JSON Pointer and the model being translated there.
    public var unsupported: [(model: String, pointer: String, message: String)]

    /// Why a document cannot be imported at all.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// One sentence.
        public var description: String
    }

    /// Translates `bytes` (a JSON Schema document); `name` names the root model (default: its `title`, else
    /// `Model`).
    public init(_ bytes: [UInt8], name: String? = nil) throws(Failure) {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONValue.parse(bytes)
        } catch {
            throw Failure(description: error.located)
        }
        guard case .object = root else { throw Failure(description: "a JSON Schema document must be an object") }
        var translator = Translator(root: root)
        translator.run(rootName: name)
        guard !translator.documents.isEmpty else { throw Failure(description: "the document defines no object model") }
        bundle = JSONValue.object([("models", .array(translator.documents.map(\.1)))]).bytes
        models = translator.documents.map(\.0)
        unsupported = translator.unsupported
    }
}

private struct Translator {
    let root: JSONValue
    var documents: [(String, JSONValue)] = []
    var unsupported: [(model: String, pointer: String, message: String)] = []
    /// The model being translated, which `note` names.
    var current = ""
    /// Definition pointer → model name, for `$ref`s (assigned before translating, so cycles work).
    var names: [String: String] = [:]
    /// Models that a `oneOf`/`anyOf` picks between: each extends the model that picks it.
    var pickedBy: [String: String] = [:]

    init(root: JSONValue) { self.root = root }

    static let annotations: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "examples", "$defs",
        "definitions", "x-transform", "deprecated", "readOnly", "writeOnly",
    ]

    mutating func run(rootName: String?) {
        var definitions: [(String, String, JSONValue)] = []  // (name, pointer, schema)
        for container in ["$defs", "definitions"] {
            if case .object(let members)? = root[container] {
                for member in members {
                    let pointer = "/\(container)/" + JSONPointer.escape(member.key)
                    names["#" + pointer] = member.key
                    definitions.append((member.key, pointer, member.value))
                }
            }
        }
        // The root: a reference to a definition (our export), or a model of its own.
        var rootModel: String?
        if case .string(let reference)? = root["$ref"], let target = names[reference] {
            rootModel = target
        } else {
            var title: String?
            if case .string(let text)? = root["title"] { title = text }
            let name = rootName ?? title.map(Self.identifier) ?? "Model"
            definitions.insert((name, "", root), at: 0)
            rootModel = name
        }
        for (name, _, schema) in definitions {
            for rule in discriminated(schema) ?? [] where pickedBy[rule.use] == nil && rule.use != name {
                pickedBy[rule.use] = name
            }
        }
        for (name, pointer, schema) in definitions {
            let modelName = pointer.isEmpty ? name : (name == rootModel && rootName != nil ? rootName! : name)
            if let own = schema["x-transform"], case .object(var members) = own {
                if let at = members.firstIndex(where: { $0.key == "name" }) { members[at].value = .string(modelName) }
                documents.append((modelName, .object(members)))
                continue
            }
            current = modelName
            guard let document = model(schema, name: modelName, at: pointer) else { continue }
            documents.append((modelName, document))
        }
        if let rootModel, let first = documents.firstIndex(where: { $0.0 == (rootName ?? rootModel) }), first > 0 {
            documents.insert(documents.remove(at: first), at: 0)
        }
    }

    static func identifier(_ text: String) -> String {
        var result = String(
            text.unicodeScalars.map {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_"
            })
        if result.isEmpty || ("0"..."9").contains(result.first!) { result = "_" + result }
        return result
    }

    mutating func note(_ pointer: String, _ message: String) { unsupported.append((current, pointer, message)) }

    /// A model document from an object schema; nil (noted) when it is not one.
    mutating func model(_ schema: JSONValue, name: String, at pointer: String) -> JSONValue? {
        guard case .object(let members) = schema else {
            note(pointer, "a model must be an object schema")
            return nil
        }
        var document: [(key: String, value: JSONValue)] = [("name", .string(name))]
        if let description = schema["description"], case .string = description {
            document.append(("description", description))
        }
        var properties: [(key: String, value: JSONValue)] = []
        var required: Set<String> = []
        var sources: [(JSONValue, String)] = [(schema, pointer)]
        if let base = pickedBy[name], schema["allOf"] == nil { document.append(("extends", .string(base))) }
        // `allOf` of one `$ref` (the parent) and local properties: `extends`.
        if case .array(let parts)? = schema["allOf"] {
            for (i, part) in parts.enumerated() {
                if case .string(let reference)? = part["$ref"], let parent = names[reference], document.count < 3,
                    !document.contains(where: { $0.key == "extends" })
                {
                    document.append(("extends", .string(parent)))
                } else if case .object = part {
                    sources.append((part, pointer + "/allOf/\(i)"))
                }
            }
        }
        for (source, at) in sources {
            if case .array(let list)? = source["required"] {
                for case .string(let key) in list { required.insert(key) }
            }
            if case .object(let listed)? = source["properties"] {
                for member in listed {
                    let propertyPointer = at + "/properties/" + JSONPointer.escape(member.key)
                    guard var value = property(member.value, at: propertyPointer) else { continue }
                    if required.contains(member.key), case .object(var options) = value {
                        options.append(("required", .bool(true)))
                        value = .object(options)
                    }
                    properties.append(
                        (
                            Self.identifier(member.key) == member.key ? member.key : Self.identifier(member.key),
                            Self.keyed(value, member.key)
                        ))
                }
            }
            if case .object(let others) = source {
                let picks = discriminated(source)
                for member in others
                where !["type", "properties", "required", "additionalProperties", "allOf"]
                    .contains(member.key) && !Self.annotations.contains(member.key)
                    && !(picks != nil && (member.key == "oneOf" || member.key == "anyOf"))
                {
                    note(at + "/" + JSONPointer.escape(member.key), "\(member.key) is not supported on a model")
                }
            }
        }
        // Required names listed after their properties were read.
        properties = properties.map { entry in
            guard required.contains(entry.key), case .object(var options) = entry.value,
                !options.contains(where: { $0.key == "required" })
            else { return entry }
            options.append(("required", .bool(true)))
            return (entry.key, .object(options))
        }
        if schema["additionalProperties"] == .bool(false) { document.append(("unknownKeys", .string("reject"))) }
        _ = members
        document.append(("properties", .object(properties)))
        if let picks = discriminated(schema) {
            document.append(
                (
                    "classForDictionary",
                    .array(
                        picks.map { pick in
                            .object([
                                ("when", .object([("key", .string(pick.key)), ("equals", pick.value)])),
                                ("use", .string(pick.use)),
                            ])
                        })
                ))
        }
        return .object(document)
    }

    /// A `oneOf`/`anyOf` of `$ref`s whose definitions each fix one property (the same key) with a `const` or a
    /// one-value `enum`: the `classForDictionary` rules that pick between them. Nil otherwise.
    func discriminated(_ schema: JSONValue) -> [(key: String, value: JSONValue, use: String)]? {
        guard case .array(let options)? = schema["oneOf"] ?? schema["anyOf"], !options.isEmpty else { return nil }
        var picks: [(key: String, value: JSONValue, use: String)] = []
        for option in options {
            guard case .string(let reference)? = option["$ref"], let target = names[reference],
                let definition = Self.resolve(reference, in: root),
                case .object(let properties)? = definition["properties"]
            else { return nil }
            var found: (String, JSONValue)?
            for property in properties {
                if let constant = property.value["const"] {
                    found = (property.key, constant)
                } else if case .array(let values)? = property.value["enum"], values.count == 1 {
                    found = (property.key, values[0])
                }
                if found != nil { break }
            }
            guard let (key, value) = found, picks.first.map({ $0.key == key }) ?? true else { return nil }
            picks.append((key, value, target))
        }
        return picks
    }

    static func resolve(_ reference: String, in root: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var current: JSONValue? = root
        for token in reference.dropFirst(2).split(separator: "/") {
            // RFC 6901: `~1` is `/`, `~0` is `~` (in that order).
            var name = ""
            var escaped = false
            for character in token {
                if escaped {
                    name.append(character == "1" ? "/" : character == "0" ? "~" : character)
                    escaped = false
                } else if character == "~" {
                    escaped = true
                } else {
                    name.append(character)
                }
            }
            current = current?[name]
        }
        return current
    }

    /// A property name that is not an identifier keeps its wire key through `key`.
    static func keyed(_ value: JSONValue, _ key: String) -> JSONValue {
        guard identifier(key) != key, case .object(let options) = value else { return value }
        return .object(options + [("key", .string(key))])
    }

    /// A property's `{"type": …, …}`; nil (noted) when its type cannot be translated.
    mutating func property(_ schema: JSONValue, at pointer: String) -> JSONValue? {
        guard case .object(let members) = schema else {
            if schema == .bool(true) { return .object([("type", .string("any"))]) }
            note(pointer, "a boolean schema is not supported")
            return nil
        }
        if case .string(let reference)? = schema["$ref"] {
            guard let target = names[reference] else {
                note(pointer + "/$ref", "only references to $defs or definitions are supported")
                return nil
            }
            return .object([("type", .string(target))])
        }
        var types: [String] = []
        switch schema["type"] {
        case .string(let type)?: types = [type]
        case .array(let list)?: for case .string(let type) in list { types.append(type) }
        default: break
        }
        types.removeAll { $0 == "null" }
        if types.isEmpty,
            let constant = schema["const"]
                ?? { if case .array(let options)? = schema["enum"] { options.first } else { nil } }()
        {
            types = [Self.typeName(of: constant)]
        }
        guard types.count <= 1 else {
            note(pointer + "/type", "a union of types other than one type and null is not supported")
            return nil
        }
        var options: [(key: String, value: JSONValue)] = []
        var handled: Set<String> = ["type", "$ref"]
        let format: String? = if case .string(let text)? = schema["format"] { text } else { nil }
        switch types.first {
        case "integer"?:
            let huge = ["minimum", "maximum"].contains { keyword in
                if case .number(let text)? = schema[keyword] {
                    return DecimalText.compare(text, "-9223372036854775808").map { $0 < 0 } == true
                        || DecimalText.compare(text, "9223372036854775807").map { $0 > 0 } == true
                }
                return false
            }
            options.append(("type", .string(huge ? "decimal" : "int64")))
        case "number"?: options.append(("type", .string("double")))
        case "boolean"?: options.append(("type", .string("bool")))
        case "string"?:
            handled.insert("format")
            switch format {
            case "date-time"?, "date"?: options.append(("type", .string("date")))
            case "uri"?, "uri-reference"?: options.append(("type", .string("url")))
            case nil: options.append(("type", .string("string")))
            default:
                options.append(("type", .string("string")))
                note(pointer + "/format", "format \(format!) has no type; read as a string")
            }
        case "array"?:
            let unique = schema["uniqueItems"] == .bool(true)
            handled.formUnion(["items", "uniqueItems"])
            options.append(("type", .string(unique ? "set" : "array")))
            if let items = schema["items"], let element = property(items, at: pointer + "/items") {
                options.append(("of", Self.compact(element)))
            }
        case "object"?:
            handled.insert("additionalProperties")
            if case .object(let rest)? = schema["additionalProperties"], schema["properties"] == nil {
                options.append(("type", .string("dictionary")))
                if let element = property(.object(rest), at: pointer + "/additionalProperties") {
                    options.append(("of", Self.compact(element)))
                }
            } else if schema["properties"] != nil {
                note(pointer, "an inline object with properties is not supported; move it to $defs")
                return nil
            } else {
                options.append(("type", .string("dictionary")))
            }
        case nil: options.append(("type", .string("any")))
        default:
            note(pointer + "/type", "type \(types[0]) is not supported")
            return nil
        }
        for keyword in ["minimum", "maximum", "minLength", "maxLength", "pattern", "default", "description"] {
            handled.insert(keyword)
            if let value = schema[keyword] { options.append((keyword, value)) }
        }
        for keyword in ["minItems", "maxItems"] {
            handled.insert(keyword)
            if let value = schema[keyword] {
                options.append((keyword == "minItems" ? "minLength" : "maxLength", value))
            }
        }
        handled.formUnion(["enum", "const"])
        if case .array(let list)? = schema["enum"] {
            let values = list.filter { $0 != .null }
            options.append(("enum", .array(values)))
        } else if let constant = schema["const"] {
            options.append(("enum", .array([constant])))
        }
        for member in members where !handled.contains(member.key) && !Self.annotations.contains(member.key) {
            note(pointer + "/" + JSONPointer.escape(member.key), "\(member.key) is not supported")
        }
        return .object(options)
    }

    static func typeName(of value: JSONValue) -> String {
        switch value {
        case .string: "string"
        case .number(let text): DecimalText.isIntegral(text) ? "integer" : "number"
        case .bool: "boolean"
        default: "any"
        }
    }

    /// `{"type": "int64"}` → `"int64"` for container elements.
    static func compact(_ value: JSONValue) -> JSONValue {
        if case .object(let options) = value, options.count == 1, options[0].key == "type" { return options[0].value }
        return value
    }
}

extension JSONSchemaImport {
    /// Reads an import request `{"name": "M", "jsonschema": {…}}` (`name` optional) and translates it;
    /// the failure carries an error code and one sentence.
    package static func request(_ body: [UInt8]) -> Result<JSONSchemaImport, Replay.BodyError> {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONValue.parse(body)
        } catch {
            return .failure(
                .init(code: "invalid_json", message: error.located))
        }
        guard case .object(let members) = root, let schema = root["jsonschema"], case .object = schema else {
            return .failure(
                .init(code: "not_an_object", message: "the body must be an object {\"name\": …, \"jsonschema\": {…}}"))
        }
        var name: String?
        for member in members {
            switch (member.key, member.value) {
            case ("jsonschema", _): break
            case ("name", .string(let text)): name = text
            default:
                return .failure(
                    .init(
                        code: "invalid_parameter",
                        message: "the body holds only \"name\" and \"jsonschema\", not \"\(member.key)\""))
            }
        }
        do throws(Failure) {
            return .success(try JSONSchemaImport(schema.bytes, name: name))
        } catch {
            return .failure(.init(code: "invalid_schema", message: error.description))
        }
    }
}
