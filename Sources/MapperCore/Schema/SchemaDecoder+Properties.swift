// SPDX-License-Identifier: Apache-2.0

extension SchemaDecoder {
    mutating func decodeProperties(_ value: JSONValue?, at pointer: String) -> [PropertySchema] {
        guard let value else { return [] }
        guard case .object(let members) = value else {
            problem(pointer, "properties must be an object mapping names to types")
            return []
        }
        var seen = Set<String>()
        var properties: [PropertySchema] = []
        for member in members {
            let at = JSONPointer.appending(pointer, member.key)
            if !seen.insert(member.key).inserted {
                problem(at, "property \"\(member.key)\" is declared twice")
                continue
            }
            if member.key.isEmpty { problem(at, "a property name must not be empty") }
            if let property = decodeProperty(name: member.key, member.value, at: at) { properties.append(property) }
        }
        return properties
    }

    private mutating func decodeProperty(name: String, _ value: JSONValue, at pointer: String) -> PropertySchema? {
        var keys = [MappedKey(name)]
        var defaultValue: JSONValue?
        var required = false
        var expressions: [String: String] = [:]
        if case .object = value {
            for member in ["transform", "computed"] {
                switch value[member] {
                case nil: break
                case .string(let text)? where !text.isEmpty: expressions[member] = text
                case _?: problem(pointer + "/" + member, "\(member) must be a non-empty expression string")
                }
            }
            if expressions.count == 2 {
                problem(pointer + "/computed", "a property cannot have both transform and computed")
            }
            if expressions["computed"] != nil {
                if value["default"] != nil {
                    problem(pointer + "/default", "a computed property cannot have a default")
                }
                if value["required"] != nil { problem(pointer + "/required", "a computed property cannot be required") }
            }
            switch value["key"] {
            case nil: break
            case .array(let items)?:
                if items.isEmpty { problem(pointer + "/key", "a key list must not be empty") }
                keys = items.enumerated().compactMap { decodeKey($1, at: JSONPointer.appending(pointer + "/key", $0)) }
            case let key?: keys = decodeKey(key, at: pointer + "/key").map { [$0] } ?? []
            }
            defaultValue = value["default"]
            switch value["required"] {
            case nil, .bool(false)?: break
            case .bool(true)?: required = true
            case _?: problem(pointer + "/required", "required must be true or false")
            }
            if required, defaultValue != nil {
                problem(pointer + "/default", "a required property cannot also have a default")
            }
        }
        guard let spec = decodeValue(value, at: pointer, allowed: Self.propertyKeys) else { return nil }
        if keys.isEmpty { keys = [MappedKey(name)] }  // every alternative was a problem; keep compiling the rest
        var property = PropertySchema(
            name: name, keys: keys, value: spec, defaultValue: defaultValue, required: required, pointer: pointer,
            transform: expressions["transform"], computed: expressions["computed"])
        property.hasExplicitKey = value["key"] != nil
        if decodeFlag(value, "optional", at: pointer) == true {
            switch spec.type {
            case .builtin(let type)
            where type == .bool || type.integerRange != nil || type == .float || type == .double:
                property.optional = true
            default: problem(pointer + "/optional", "optional applies to numeric and bool properties only")
            }
        }
        property.strict = decodeFlag(value, "strict", at: pointer)
        return property
    }

    /// A type name, or an object with `type` and options (`allowed` lists the options this position takes).
    mutating func decodeValue(_ value: JSONValue, at pointer: String, allowed: Set<String>) -> ValueSchema? {
        switch value {
        case .string(let typeName):
            return decodeTypeName(typeName, of: nil, at: pointer, typePointer: pointer).map {
                ValueSchema(type: $0, pointer: pointer, typePointer: pointer)
            }
        case .object(let members):
            for member in members where !allowed.contains(member.key) {
                problem(JSONPointer.appending(pointer, member.key), "unknown property option \"\(member.key)\"")
            }
            guard case .string(let typeName)? = value["type"] else {
                problem(pointer + "/type", "a property needs a \"type\" string")
                return nil
            }
            guard let type = decodeTypeName(typeName, of: value["of"], at: pointer, typePointer: pointer + "/type")
            else { return nil }
            var spec = ValueSchema(type: type, pointer: pointer, typePointer: pointer + "/type")
            decodeConstraints(value, at: pointer, into: &spec.constraints)
            spec.nullable = decodeFlag(value, "nullable", at: pointer) ?? false
            spec.acceptSingle = decodeFlag(value, "acceptSingle", at: pointer) ?? false
            switch type {
            case _ where !spec.acceptSingle, .container(.array, _), .container(.set, _): break
            default: problem(pointer + "/acceptSingle", "acceptSingle applies to array and set only")
            }
            decodeDateFormat(value["dateFormat"], type: type, at: pointer + "/dateFormat", into: &spec)
            switch value["encoding"] {
            case nil: break
            case .string(let encoding)? where type == .builtin(.data) && (encoding == "utf8" || encoding == "base64"):
                spec.base64 = encoding == "base64"
            case _? where type != .builtin(.data):
                problem(pointer + "/encoding", "encoding applies to data properties only")
            case _?: problem(pointer + "/encoding", "encoding must be \"utf8\" or \"base64\"")
            }
            return spec
        default:
            problem(pointer, "a property is a type name or an object with \"type\", not \(value.kindName)")
            return nil
        }
    }

    private mutating func decodeTypeName(
        _ name: String, of element: JSONValue?, at pointer: String, typePointer: String
    )
        -> TypeReference?
    {
        if let builtin = BuiltinType(rawValue: name) {
            guard builtin.isContainer else {
                if element != nil { problem(pointer + "/of", "of applies to array, set and dictionary only") }
                return .builtin(builtin)
            }
            guard let element else { return .container(builtin, of: nil) }
            let elementAllowed = Self.propertyKeys.subtracting(
                ["key", "default", "required", "optional", "strict", "transform", "computed"])
            return decodeValue(element, at: pointer + "/of", allowed: elementAllowed).map {
                .container(builtin, of: $0)
            }
        }
        guard Self.isIdentifier(name) else {
            problem(typePointer, "unknown type \"\(name)\"")
            return nil
        }
        if element != nil { problem(pointer + "/of", "of applies to array, set and dictionary only") }
        return .model(name)
    }

    private mutating func decodeConstraints(_ value: JSONValue, at pointer: String, into c: inout ConstraintSchema) {
        c.minimum = value["minimum"]
        c.maximum = value["maximum"]
        for (name, slot) in [("minLength", \ConstraintSchema.minLength), ("maxLength", \ConstraintSchema.maxLength)] {
            guard let operand = value[name] else { continue }
            if case .number(let text) = operand, let n = Int(text), n >= 0 {
                c[keyPath: slot] = n
            } else {
                problem(pointer + "/" + name, "\(name) must be a non-negative integer")
            }
        }
        switch value["pattern"] {
        case nil: break
        case .string(let source)?:
            // The syntax is checked here, for every model, so a set with other problems still reports it.
            do throws(PatternError) {
                _ = try Pattern(source)
                c.pattern = source
            } catch {
                problem(pointer + "/pattern", "unsupported pattern: \(error.description)")
            }
        case _?: problem(pointer + "/pattern", "pattern must be a string")
        }
        switch value["enum"] {
        case nil: break
        case .array(let options)? where !options.isEmpty: c.enumValues = options
        case _?: problem(pointer + "/enum", "enum must be a non-empty array")
        }
    }

    private mutating func decodeDateFormat(
        _ value: JSONValue?, type: TypeReference, at pointer: String,
        into spec: inout ValueSchema
    ) {
        guard let value else { return }
        guard type == .builtin(.date) else {
            problem(pointer, "dateFormat applies to date properties only")
            return
        }
        switch value {
        case .string(let format):
            if let f = decodeDateFormatName(format, at: pointer) {
                spec.dateInput = [f]
                spec.dateOutput = f
            }
        case .object(let members):
            for member in members where member.key != "input" && member.key != "output" {
                problem(JSONPointer.appending(pointer, member.key), "dateFormat takes only input and output")
            }
            if let input = value["input"] {
                spec.dateInput = (decodeStrings(input, at: pointer + "/input") ?? []).enumerated().compactMap {
                    decodeDateFormatName($1, at: JSONPointer.appending(pointer + "/input", $0))
                }
            }
            switch value["output"] {
            case nil: break
            case .string(let format)?:
                spec.dateOutput = decodeDateFormatName(format, at: pointer + "/output") ?? .iso8601
            case _?: problem(pointer + "/output", "the output format must be a string")
            }
        default: problem(pointer, "dateFormat must be a format string or {\"input\": […], \"output\": …}")
        }
    }

    private mutating func decodeDateFormatName(_ name: String, at pointer: String) -> DateFormat? {
        switch name {
        case "iso8601": return .iso8601
        case "epoch": return .epoch
        case "epochMillis": return .epochMillis
        default:
            do throws(DatePatternError) {
                return .pattern(try DatePattern(name))
            } catch {
                problem(pointer, "unsupported date pattern \"\(name)\": \(error.description)")
                return nil
            }
        }
    }

    /// A `true`/`false` option of a property object; nil when absent (or not an object), a problem when not a bool.
    private mutating func decodeFlag(_ value: JSONValue, _ name: String, at pointer: String) -> Bool? {
        guard case .object = value, let flag = value[name] else { return nil }
        guard case .bool(let set) = flag else {
            problem(pointer + "/" + name, "\(name) must be true or false")
            return nil
        }
        return set
    }
}
