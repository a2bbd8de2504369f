// SPDX-License-Identifier: Apache-2.0

/// Reads model documents (`JSONValue` trees) into `ModelSchema` values, collecting every problem with its pointer
/// instead of stopping at the first. Checks that need the whole set (references, cycles, constraint operands)
/// happen later, in `SchemaSetValidator`.
struct SchemaDecoder {
    private(set) var problems: [SchemaProblem] = []
    let file: String

    init(file: String) { self.file = file }

    mutating func problem(_ pointer: String, _ message: String) {
        problems.append(SchemaProblem(file: file, path: pointer, message: message))
    }

    static let modelKeys: Set<String> = [
        "name", "extends", "properties", "blacklist", "whitelist", "classForDictionary", "willTransform", "validate",
        "unknownKeys", "transformToJSON", "description", "keyCase", "strict", "rules",
    ]
    static let propertyKeys: Set<String> = [
        "type", "key", "of", "default", "required", "minimum", "maximum", "minLength", "maxLength", "pattern", "enum",
        "dateFormat", "encoding", "description", "nullable", "optional", "strict", "acceptSingle", "transform",
        "computed",
    ]

    /// Decodes one model document found at `pointer` of the file. `impliedName` fills in an absent `name`
    /// (the path of `PUT /schemas/{Model}`).
    mutating func decodeModel(_ document: JSONValue, at pointer: String, impliedName: String? = nil) -> ModelSchema? {
        guard case .object(let members) = document else {
            problem(pointer, "a model document must be an object, not \(document.kindName)")
            return nil
        }
        for member in members where !Self.modelKeys.contains(member.key) {
            problem(JSONPointer.appending(pointer, member.key), "unknown model option \"\(member.key)\"")
        }
        var name = impliedName ?? ""
        switch document["name"] {
        case .string(let given)?:
            if let impliedName, given != impliedName {
                problem(pointer + "/name", "the name \"\(given)\" does not match the path's \"\(impliedName)\"")
            }
            name = given
        case nil where impliedName != nil: break
        case nil: problem(pointer, "a model needs a \"name\"")
        case let other?: problem(pointer + "/name", "name must be a string, not \(other.kindName)")
        }
        if document["name"] != nil || impliedName != nil, !Self.isIdentifier(name) {
            problem(pointer + "/name", "\"\(name)\" is not a model name ([A-Za-z_][A-Za-z0-9_]*)")
        } else if BuiltinType(rawValue: name) != nil {
            problem(pointer + "/name", "\"\(name)\" is a reserved type name")
        }
        var model = ModelSchema(name: name, parent: nil, properties: [])
        model.origin = SchemaOrigin(file: file, pointer: pointer)
        if let parent = document["extends"] {
            if case .string(let parentName) = parent {
                model.parent = parentName
            } else if parent != .null {
                problem(pointer + "/extends", "extends must be a model name")
            }
        }
        model.properties = decodeProperties(document["properties"], at: pointer + "/properties")
        model.blacklist = decodeNameList(document, "blacklist", at: pointer)
        model.whitelist = decodeNameList(document, "whitelist", at: pointer)
        model.classRules = decodeClassRules(document["classForDictionary"], at: pointer + "/classForDictionary")
        model.willTransform = decodeInheritable(document, "willTransform", at: pointer) { decoder, value, at in
            decoder.decodeWillTransform(value, at: at)
        }
        model.validate = decodeInheritable(document, "validate", at: pointer) { decoder, value, at in
            decoder.decodeValidate(value, at: at)
        }
        model.transformToJSON = decodeInheritable(document, "transformToJSON", at: pointer) { decoder, value, at in
            decoder.decodeTransformToJSON(value, at: at)
        }
        model.rules = decodeInheritable(document, "rules", at: pointer) { decoder, value, at in
            decoder.decodeRules(value, at: at)
        }
        switch document["unknownKeys"] {
        case nil: break
        case .null?: model.unknownKeys = .off
        case .string(let name)? where UnknownKeys(rawValue: name) != nil:
            model.unknownKeys = .set(UnknownKeys(rawValue: name)!)
        case _?: problem(pointer + "/unknownKeys", "unknownKeys must be \"ignore\", \"reject\" or \"keep\"")
        }
        switch document["strict"] {
        case nil: break
        case .null?: model.strict = .off
        case .bool(let strict)?: model.strict = .set(strict)
        case _?: problem(pointer + "/strict", "strict must be true or false")
        }
        switch document["keyCase"] {
        case nil: break
        case .null?: model.keyCase = .off
        case .string(let name)? where KeyCase(rawValue: name) != nil: model.keyCase = .set(KeyCase(rawValue: name)!)
        case _?:
            problem(
                pointer + "/keyCase",
                "keyCase must be one of "
                    + KeyCase.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        }
        return model
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || first.isASCIILetter else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0.isASCIILetter || $0.isASCIIDigit }
    }

    // MARK: - Model-level rules

    private mutating func decodeInheritable<V>(
        _ document: JSONValue, _ key: String, at pointer: String,
        _ decode: (inout SchemaDecoder, JSONValue, String) -> V?
    ) -> Inheritable<V> {
        switch document[key] {
        case nil: return .inherit
        case .null?: return .off
        case let value?: return decode(&self, value, pointer + "/" + key).map { .set($0) } ?? .inherit
        }
    }

    private mutating func decodeNameList(_ document: JSONValue, _ key: String, at pointer: String)
        -> Inheritable<[String]>
    {
        decodeInheritable(document, key, at: pointer) { decoder, value, at in decoder.decodeStrings(value, at: at) }
    }

    mutating func decodeStrings(_ value: JSONValue, at pointer: String) -> [String]? {
        guard case .array(let items) = value else {
            problem(pointer, "expected an array of strings, not \(value.kindName)")
            return nil
        }
        var names: [String] = []
        for (i, item) in items.enumerated() {
            if case .string(let s) = item {
                names.append(s)
            } else {
                problem(JSONPointer.appending(pointer, i), "expected a string, not \(item.kindName)")
            }
        }
        return names
    }

    mutating func decodeKey(_ value: JSONValue, at pointer: String) -> MappedKey? {
        guard case .string(let s) = value else {
            problem(pointer, "a key must be a string, not \(value.kindName)")
            return nil
        }
        guard !s.isEmpty else {
            problem(pointer, "a key must not be empty")
            return nil
        }
        return MappedKey(s)
    }

    private mutating func decodeClassRules(_ value: JSONValue?, at pointer: String) -> [ClassRule] {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else {
            problem(pointer, "classForDictionary must be an array of rules")
            return []
        }
        var rules: [ClassRule] = []
        for (i, item) in items.enumerated() {
            let at = JSONPointer.appending(pointer, i)
            guard case .object(let members) = item, let when = item["when"], case .string(let use)? = item["use"]
            else {
                problem(at, "a rule must be an object {\"when\": predicate, \"use\": model}")
                continue
            }
            for member in members where member.key != "when" && member.key != "use" {
                problem(JSONPointer.appending(at, member.key), "unknown rule option \"\(member.key)\"")
            }
            if let predicate = decodePredicate(when, at: at + "/when") {
                rules.append(ClassRule(when: predicate, use: use, pointer: at + "/use"))
            }
        }
        return rules
    }

    mutating func decodePredicate(_ value: JSONValue, at pointer: String) -> Predicate? {
        guard case .object(let members) = value else {
            problem(pointer, "a predicate must be an object")
            return nil
        }
        let keys = Set(members.map(\.key))
        func list(_ name: String) -> [Predicate]? {
            guard case .array(let items)? = value[name] else {
                problem(pointer + "/" + name, "\(name) takes an array of predicates")
                return nil
            }
            let decoded = items.enumerated().map {
                decodePredicate($1, at: JSONPointer.appending(pointer + "/" + name, $0))
            }
            return decoded.contains(where: { $0 == nil }) ? nil : decoded.compactMap { $0 }
        }
        switch keys {
        case ["has"]:
            return decodeKey(value["has"]!, at: pointer + "/has").map { .has($0) }
        case ["key", "equals"]:
            return decodeKey(value["key"]!, at: pointer + "/key").map { .equals($0, value["equals"]!) }
        case ["key", "in"]:
            guard case .array(let options)? = value["in"] else {
                problem(pointer + "/in", "in takes an array of values")
                return nil
            }
            return decodeKey(value["key"]!, at: pointer + "/key").map { .isIn($0, options) }
        case ["all"]: return list("all").map { .all($0) }
        case ["any"]: return list("any").map { .any($0) }
        case ["not"]: return decodePredicate(value["not"]!, at: pointer + "/not").map { .not($0) }
        default:
            problem(pointer, "a predicate is one of {has}, {key, equals}, {key, in}, {all}, {any}, {not}")
            return nil
        }
    }

    private mutating func decodeKeyedValues(_ value: JSONValue?, at pointer: String) -> [(
        key: MappedKey, value: JSONValue
    )] {
        guard let value else { return [] }
        guard case .object(let members) = value else {
            problem(pointer, "expected an object mapping keys to values")
            return []
        }
        return members.compactMap { member in
            decodeKey(.string(member.key), at: JSONPointer.appending(pointer, member.key)).map { ($0, member.value) }
        }
    }

    mutating func decodeWillTransform(_ value: JSONValue, at pointer: String) -> WillTransform? {
        guard case .object(let members) = value else {
            problem(pointer, "willTransform must be an object")
            return nil
        }
        var steps = WillTransform()
        for member in members {
            let at = JSONPointer.appending(pointer, member.key)
            switch member.key {
            case "unwrap": steps.unwrap = decodeKey(member.value, at: at)
            case "rename":
                guard case .object(let pairs) = member.value else {
                    problem(at, "rename must be an object {\"from\": \"to\"}")
                    continue
                }
                for pair in pairs {
                    let pairAt = JSONPointer.appending(at, pair.key)
                    if let from = decodeKey(.string(pair.key), at: pairAt), let to = decodeKey(pair.value, at: pairAt) {
                        steps.rename.append((from, to))
                    }
                }
            case "remove":
                steps.remove = (decodeStrings(member.value, at: at) ?? []).enumerated().compactMap {
                    decodeKey(.string($1), at: JSONPointer.appending(at, $0))
                }
            case "defaults": steps.defaults = decodeKeyedValues(member.value, at: at)
            default: problem(at, "unknown willTransform step \"\(member.key)\"")
            }
        }
        return steps
    }

    mutating func decodeValidate(_ value: JSONValue, at pointer: String) -> ValidateRules? {
        guard case .object(let members) = value else {
            problem(pointer, "validate must be an object")
            return nil
        }
        var rules = ValidateRules()
        for member in members {
            let at = JSONPointer.appending(pointer, member.key)
            switch member.key {
            case "required": rules.required = decodeStrings(member.value, at: at) ?? []
            case "requireAny":
                guard case .array(let groups) = member.value else {
                    problem(at, "requireAny must be an array of arrays of property names")
                    continue
                }
                rules.requireAny = groups.enumerated().compactMap {
                    decodeStrings($1, at: JSONPointer.appending(at, $0))
                }
            default: problem(at, "unknown validate rule \"\(member.key)\"")
            }
        }
        return rules
    }

    mutating func decodeTransformToJSON(_ value: JSONValue, at pointer: String) -> TransformToJSON? {
        guard case .object(let members) = value else {
            problem(pointer, "transformToJSON must be an object")
            return nil
        }
        var steps = TransformToJSON()
        for member in members {
            let at = JSONPointer.appending(pointer, member.key)
            switch member.key {
            case "omit": steps.omit = decodeStrings(member.value, at: at) ?? []
            case "set": steps.set = decodeKeyedValues(member.value, at: at)
            default: problem(at, "unknown transformToJSON step \"\(member.key)\"")
            }
        }
        return steps
    }
}
