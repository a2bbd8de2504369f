// SPDX-License-Identifier: Apache-2.0

// One value's schema: the coercion matrix of docs/coercion-rules.md read without coercion (every `coerced` step is an
// error in strict mode), plus the property's constraints.
//
//     type          accepted with no entry                        schema
//     bool          true, false, the numbers 0 and 1     {"type":["boolean","integer"],"minimum":0,"maximum":1}
//     int8…uint64   integral numbers in range (1.0 too)  {"type":"integer","minimum":-128,"maximum":127}
//     float, double numbers that stay finite             {"type":"number","minimum":-3.4028235e+38,"maximum":…}
//     number        numbers, true, false                 {"type":["number","boolean"]}
//     decimal       numbers                              {"type":"number"}
//     string        strings                              {"type":"string"}
//     date          the built-in and declared formats;   {"type":"string","pattern":"^(?:…)$"}
//                   numbers with an epoch format
//     url           URI-references, JSON whitespace      {"type":"string","format":"uri-reference","pattern":…}
//     data          strings; base64: strict alphabet     {"type":"string","contentEncoding":"base64","pattern":…}
//     any           anything but null                    {"not":{"type":"null"}}
//     array, set    arrays whose elements all convert    {"type":"array","items":…}
//     dictionary    objects whose values all convert     {"type":"object","additionalProperties":…}
//     a model       objects valid as that model          {"$ref":"#/$defs/Model"}
//
// Inputs that silently give no value are added where a property is not required (`nullable`): `null` for every
// non-numeric type, also a null spelling ("nil", "<null>", …) for `number` and a blank string for `url`. Numeric
// types have none: `null` is a `null_to_default` warning. Container elements are never nullable (a `null` element
// is `element_dropped`), except in untyped arrays, which keep every element as it is.

extension JSONSchemaExport {
    /// The YYModel null spellings; `number` reads them as no value without a warning.
    static let nullSpellings = [
        "NIL", "Nil", "nil", "NULL", "Null", "null", "(NULL)", "(Null)", "(null)",
        "<NULL>", "<Null>", "<null>",
    ]
    /// The 8-4-4-4-12 text form of a `uuid`, any case.
    static let uuidPattern =
        "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
    /// JSON whitespace, which `url` trims.
    static let jsonWhitespace = "[ \\t\\n\\r]"
    /// The characters RFC 3986 allows in a URI-reference (its structure is left to `format`).
    static let uriCharacter = "[A-Za-z0-9._~:/?#\\[\\]@!$&'()*+,;=%-]"
    /// Strict base64: padding optional, and the last symbol of a short group carries no leftover bits.
    static let base64Pattern =
        "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw](?:==)?|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=?)?$"

    /// The schema of one value of `value`'s type converted with no entry; `nullable` also accepts the inputs that
    /// give no value silently.
    mutating func valueSchema(_ value: CompiledValue, nullable: Bool) -> JSONValue {
        if case .withOptions(let plain) = value.kind {
            // `nullable`: null is a value, so `null` joins the type (`acceptSingle` and `optional` accept nothing
            // more without an entry).
            let schema = valueSchema(plain, nullable: nullable)
            return value.nullable ? Self.allowing(.object([("type", .string("null"))]), in: schema) : schema
        }
        let schema = plainValueSchema(value, nullable: nullable)
        return marksUnexpressed ? Self.marking(schema, value) : schema
    }

    private mutating func plainValueSchema(_ value: CompiledValue, nullable: Bool) -> JSONValue {
        if case .url = value.kind, value.constraints == nil {
            return Self.urlSchema(nil, allowsBlank: nullable, nullable: nullable)
        }
        let schema = valueWithoutNone(value)
        guard nullable, let none = Self.noValue(value) else { return schema }
        return Self.allowing(none, in: schema)
    }

    /// The inputs that give `value`'s type no value without a warning; nil for numeric types.
    static func noValue(_ value: CompiledValue) -> JSONValue? {
        switch value.kind {
        case .bool, .integer, .float, .double:
            return nil
        case .withOptions(let plain):
            return value.nullable ? nil : noValue(plain)
        case .number:
            return .object([("enum", .array([.null] + nullSpellings.map { .string($0) }))])
        case .url:
            return .object([
                ("type", .array([.string("string"), .string("null")])),
                ("pattern", .string("^" + jsonWhitespace + "*$")),
            ])
        default:
            return .object([("type", .string("null"))])
        }
    }

    /// `schema` widened by `none`: `null` joins a `type` or `enum` keyword where there is one, else an `anyOf`.
    static func allowing(_ none: JSONValue, in schema: JSONValue) -> JSONValue {
        if schema == nonNull { return always }
        guard none == .object([("type", .string("null"))]), case .object(var members) = schema,
            members.contains(where: { $0.key == "type" || $0.key == "enum" })
        else { return anyOf([schema, none]) }
        for index in members.indices {
            switch (members[index].key, members[index].value) {
            case ("type", .string(let type)): members[index].value = .array([.string(type), .string("null")])
            case ("type", .array(let types)): members[index].value = .array(types + [.string("null")])
            case ("enum", .array(let options)): members[index].value = .array(options + [.null])
            default: break
            }
        }
        return .object(members)
    }

    static let nonNull = JSONValue.object([("not", .object([("type", .string("null"))]))])

    private mutating func valueWithoutNone(_ value: CompiledValue) -> JSONValue {
        let c = value.constraints
        var members: Keywords
        switch value.kind {
        case .bool:
            if let options = Self.enumOptions(c) {
                return .object([("enum", .array(options.flatMap { [$0, .number($0 == .bool(true) ? "1" : "0")] }))])
            }
            return .object([
                ("type", .array([.string("boolean"), .string("integer")])),
                ("minimum", .number("0")), ("maximum", .number("1")),
            ])
        case .integer(let range):
            members = [
                ("type", .string("integer")),
                ("minimum", Self.bound(c?.minimum) ?? .number(String(range.lowerBound))),
                ("maximum", Self.bound(c?.maximum) ?? .number(String(range.upperBound))),
            ]
        case .float, .double:
            var largest: [UInt8] = []
            if case .float = value.kind {
                FloatFormatting.write(Float.greatestFiniteMagnitude, into: &largest)
            } else {
                FloatFormatting.write(Double.greatestFiniteMagnitude, into: &largest)
            }
            let text = String(decoding: largest, as: UTF8.self)
            members = [
                ("type", .string("number")),
                ("minimum", Self.bound(c?.minimum) ?? .number("-" + text)),
                ("maximum", Self.bound(c?.maximum) ?? .number(text)),
            ]
        case .number, .decimal:
            let isNumber: Bool = if case .number = value.kind { true } else { false }
            members = [("type", isNumber ? .array([.string("number"), .string("boolean")]) : .string("number"))]
            if let minimum = Self.bound(c?.minimum) { members.append(("minimum", minimum)) }
            if let maximum = Self.bound(c?.maximum) { members.append(("maximum", maximum)) }
        case .string:
            members = [("type", .string("string"))] + Self.lengths(c, "minLength", "maxLength")
            if let pattern = c?.pattern { members.append(("pattern", .string(pattern.source))) }
        case .url:
            return Self.urlSchema(c, allowsBlank: false, nullable: false)
        case .data:
            members = [("type", .string("string"))]
            if value.base64 {
                members += [("contentEncoding", .string("base64")), ("pattern", .string(Self.base64Pattern))]
            }
        case .date:
            return Self.dateSchema(value)
        case .any:
            return Self.nonNull
        case .uuid:
            members = [
                ("type", .string("string")), ("format", .string("uuid")), ("pattern", .string(Self.uuidPattern)),
            ]
        case .calendarDate:
            members = [
                ("type", .string("string")), ("format", .string("date")),
                ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")),
            ]
        case .array(let element), .set(let element):
            members = [("type", .string("array"))]
            if let element { members.append(("items", valueSchema(element, nullable: false))) }
            if case .set = value.kind, let maxLength = c?.maxLength {
                // A set drops duplicates silently, so only the distinct elements count.
                members += Self.lengths(c, "minItems", nil)
                members.append(("$comment", .string("maxLength \(maxLength) counts distinct elements; not expressed")))
            } else {
                members += Self.lengths(c, "minItems", "maxItems")
            }
        case .dictionary(let element):
            members = [("type", .string("object"))]
            if let element { members.append(("additionalProperties", valueSchema(element, nullable: false))) }
            members += Self.lengths(c, "minProperties", "maxProperties")
        case .model(let id):
            return reference(to: snapshot.model(id))
        case .withOptions(let plain):
            return valueWithoutNone(plain)
        }
        if let options = Self.enumOptions(c) { members.append(("enum", .array(options))) }
        return .object(members)
    }

    /// `url`: the RFC 3986 character set between optional JSON whitespace (which the converter trims).
    private static func urlSchema(_ c: CompiledConstraints?, allowsBlank: Bool, nullable: Bool) -> JSONValue {
        let body = uriCharacter + (allowsBlank ? "*" : "+")
        var members: Keywords = [
            ("type", nullable ? .array([.string("string"), .string("null")]) : .string("string")),
            ("format", .string("uri-reference")),
            ("pattern", .string("^" + jsonWhitespace + "*" + body + jsonWhitespace + "*$")),
        ]
        members += lengths(c, "minLength", "maxLength")
        if let pattern = c?.pattern {
            // `pattern` is taken by the character set; the declared one joins through `allOf`.
            members.append(("allOf", .array([.object([("pattern", .string(pattern.source))])])))
        }
        if let options = enumOptions(c) { members.append(("enum", .array(options))) }
        return .object(members)
    }

    /// A numeric bound from its canonical bytes (a `number` bound of `true`/`false` is not a number: left out).
    private static func bound(_ canonical: [UInt8]?) -> JSONValue? {
        guard let canonical, let lead = canonical.first, lead == UInt8(ascii: "-") || lead.isASCIIDigit else {
            return nil
        }
        return .number(String(decoding: canonical, as: UTF8.self))
    }

    private static func lengths(_ c: CompiledConstraints?, _ minimum: String, _ maximum: String?) -> Keywords {
        var members: Keywords = []
        if let length = c?.minLength { members.append((minimum, .number(String(length)))) }
        if let maximum, let length = c?.maxLength { members.append((maximum, .number(String(length)))) }
        return members
    }

    /// The `enum` operands as converted at registration (canonical model-form bytes).
    static func enumOptions(_ c: CompiledConstraints?) -> [JSONValue]? {
        c?.enumValues.map { $0.compactMap { try? JSONValue.parse($0) } }
    }
}
