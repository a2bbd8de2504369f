// SPDX-License-Identifier: Apache-2.0

// Decides, keyword by keyword, whether every instance one JSON Schema (`old`) accepts is accepted by another
// (`new`), over the subset our exports write (docs/lifecycle.md, "How the check works").
//
// Soundness first. The keywords at one level of a schema are a conjunction, so `old ⊆ new` holds when every
// keyword group of `new` is implied by `old`: a bound of `new` by a tighter bound of `old`, a `pattern` by the same
// pattern, a subschema by an included subschema, and a group that only applies to a JSON type `old` never accepts
// holds vacuously. Whatever cannot be shown this way — a changed pattern, a changed rule in `allOf`, an unknown
// keyword that differs — is a difference. "No difference" is therefore a proof; a difference may be a false alarm.
//
//     old {"type":"integer","minimum":0,"maximum":10}    new {"type":"number","maximum":100}     included
//     old {"type":"string","maxLength":10}               new {"type":"string","maxLength":5}     MAX_LENGTH_DECREASED
//     old {"properties":{"a":…}} (open)                   new {"properties":{"a":…,"b":{"type":"string"}}}
//                                                                                                PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL
//
// `$ref`s are followed into each document's `$defs`; a pair of definitions already being compared is assumed
// included (the greatest fixed point, which is what recursive schemas mean). With `writerClosed` (the output view)
// the earlier documents hold only the keys `old` declares, whatever `additionalProperties` says: a tolerant reader
// meets only what the writer wrote.

/// The inclusion check between two exported documents, collecting every difference.
struct SchemaInclusion {
    let oldDocument: JSONValue
    let newDocument: JSONValue
    /// True when `old` is the previous version (backward); false when it is the proposed one (forward). Codes
    /// name the change from previous to proposed either way.
    let backward: Bool
    /// The output view: earlier documents carry only declared keys.
    let writerClosed: Bool
    private(set) var differences: [(path: String, code: String, message: String)] = []
    /// Definition pairs being compared or done (`old|new`).
    private var assumed: Set<String> = []

    init(old: JSONValue, new: JSONValue, backward: Bool, writerClosed: Bool) {
        oldDocument = old
        newDocument = new
        self.backward = backward
        self.writerClosed = writerClosed
    }

    /// A position in both documents: the pointer of the proposed version's schema is preferred in reports.
    struct Place {
        var old: String?
        var new: String?
        func child(_ token: String, old hasOld: Bool = true, new hasNew: Bool = true) -> Place {
            let escaped = JSONPointer.escape(token)
            return Place(
                old: hasOld ? old.map { $0 + "/" + escaped } : nil,
                new: hasNew ? new.map { $0 + "/" + escaped } : nil)
        }
    }

    /// Compares the two documents from their roots.
    mutating func run() {
        check(oldDocument, newDocument, Place(old: "", new: ""))
    }

    /// Records a failure: `increase` names the change when the proposed version is `new` (backward), `decrease`
    /// when it is `old` (forward).
    private mutating func fail(_ place: Place, _ backwardCode: String, _ forwardCode: String, _ message: String) {
        let proposed = backward ? place.new : place.old
        let previous = backward ? place.old : place.new
        differences.append((proposed ?? previous ?? "", backward ? backwardCode : forwardCode, message))
    }

    /// Whether `old ⊆ new` without recording anything.
    private func includes(_ old: JSONValue, _ new: JSONValue) -> Bool {
        var probe = self
        probe.differences = []
        probe.check(old, new, Place(old: "", new: ""))
        return probe.differences.isEmpty
    }

    private func resolve(_ schema: JSONValue, in document: JSONValue) -> (JSONValue, String?) {
        guard case .string(let reference)? = schema["$ref"], reference.hasPrefix("#/$defs/") else {
            return (schema, nil)
        }
        let name = String(reference.dropFirst(8))
        return (document["$defs"]?[name] ?? .bool(false), name)
    }

    // MARK: - One level

    mutating func check(_ oldSchema: JSONValue, _ newSchema: JSONValue, _ place: Place) {
        var place = place
        var (old, oldName) = resolve(oldSchema, in: oldDocument)
        let (new, newName) = resolve(newSchema, in: newDocument)
        if let oldName { place.old = "/$defs/" + JSONPointer.escape(oldName) }
        if let newName { place.new = "/$defs/" + JSONPointer.escape(newName) }
        // Two definitions compared again (a recursive schema) are assumed included. With one side inline the
        // recursion ends anyway: each step goes deeper into the finite inline schema.
        if let oldName, let newName, !assumed.insert(oldName + "|" + newName).inserted { return }
        if old == .bool(true) { old = .object([]) }
        if new == .bool(true) || new == .object([]) { return }
        if old == .bool(false) { return }  // accepts nothing
        guard case .object(let newMembers) = new, case .object = old else {
            fail(place, "TYPE_NARROWED", "TYPE_EXTENDED", "the schema now accepts nothing")
            return
        }
        let types = Self.possibleTypes(old, oldDocument)
        // Annotations; `$comment` is not one of them: our exports note there what they cannot express.
        var handled: Set<String> = [
            "title", "description", "default", "examples", "$schema", "$defs", "x-transform",
            "$ref",
        ]
        checkType(old, new, place, types)
        checkEnum(old, new, place)
        for (keyword, applies, up) in Self.bounds {
            handled.insert(keyword)
            guard case .number(let limit)? = new[keyword], types.contains(where: applies.contains) else { continue }
            let isMinimum = keyword.hasPrefix("min")
            if case .number(let earlier)? = old[keyword], let order = DecimalText.compare(earlier, limit),
                isMinimum ? order >= 0 : order <= 0
            {
                continue
            }
            if old[keyword] == nil {
                fail(
                    place.child(keyword, old: false), "\(up)_ADDED", "\(up)_REMOVED",
                    backward ? "\(keyword) \(limit) was added" : "\(keyword) \(limit) was removed")
            } else {
                let earlier = String(decoding: old[keyword]!.bytes, as: UTF8.self)
                let (from, to) = backward ? (earlier, limit) : (limit, earlier)
                fail(
                    place.child(keyword), isMinimum ? "\(up)_INCREASED" : "\(up)_DECREASED",
                    isMinimum ? "\(up)_DECREASED" : "\(up)_INCREASED", "\(keyword) changed from \(from) to \(to)")
            }
        }
        for keyword in ["pattern", "format", "contentEncoding"] {
            handled.insert(keyword)
            guard let limit = new[keyword], types.contains("string") else { continue }
            if old[keyword] == limit { continue }
            let code = keyword == "pattern" ? "PATTERN" : keyword == "format" ? "FORMAT" : "CONTENT_ENCODING"
            if old[keyword] == nil {
                fail(
                    place.child(keyword, old: false), "\(code)_ADDED", "\(code)_REMOVED",
                    "\(keyword) was \(backward ? "added" : "removed")")
            } else {
                fail(place.child(keyword), "\(code)_CHANGED", "\(code)_CHANGED", "\(keyword) changed")
            }
        }
        handled.insert("x-constraints")
        if old["x-constraints"] != new["x-constraints"] {
            // Constraints the engine compares after conversion: the same, or none at all in `new`.
            let unconstrained = ["maxLength", "minLength", "pattern", "enum", "const", "minimum", "maximum"]
                .allSatisfy { new[$0] == nil }
            if new["x-constraints"] != nil || !unconstrained {
                fail(
                    place,
                    "COMBINED_TYPE_SUBSCHEMAS_CHANGED", "COMBINED_TYPE_SUBSCHEMAS_CHANGED",
                    "constraints that apply after conversion changed")
            }
        }
        handled.formUnion([
            "type", "enum", "const", "items", "properties", "required", "additionalProperties",
            "allOf", "anyOf", "not", "if", "then", "else",
        ])
        if types.contains("array"), let items = new["items"] {
            check(old["items"] ?? .object([]), items, place.child("items", old: old["items"] != nil))
        }
        if types.contains("object") { checkObject(old, new, place) }
        checkCombinators(old, new, place)
        for member in newMembers where !handled.contains(member.key) {
            // A keyword this check does not model must be the same (our exports' `x-` markers included).
            if old[member.key] != member.value {
                // Our `x-` markers are not in the published document: report at the schema that holds them.
                let at = member.key.hasPrefix("x-") ? place : place.child(member.key, old: old[member.key] != nil)
                fail(
                    at, "COMBINED_TYPE_SUBSCHEMAS_CHANGED", "COMBINED_TYPE_SUBSCHEMAS_CHANGED",
                    member.key == "x-read"
                        ? "the key is now read through a rule (a fallback key or a condition)"
                        : member.key.hasPrefix("x-") ? "\(member.key.dropFirst(2)) changed" : "\(member.key) changed")
            }
        }
    }

    /// (keyword, the JSON types it applies to, its Confluent stem)
    static let bounds: [(String, Set<String>, String)] = [
        ("minimum", ["number", "integer"], "MINIMUM"), ("maximum", ["number", "integer"], "MAXIMUM"),
        ("minLength", ["string"], "MIN_LENGTH"), ("maxLength", ["string"], "MAX_LENGTH"),
        ("minItems", ["array"], "MIN_ITEMS"), ("maxItems", ["array"], "MAX_ITEMS"),
        ("minProperties", ["object"], "MIN_PROPERTIES"), ("maxProperties", ["object"], "MAX_PROPERTIES"),
    ]

    // MARK: - Types and values

    static let allTypes: Set<String> = ["null", "boolean", "integer", "number", "string", "array", "object"]

    /// The JSON types an instance `schema` accepts may have (`integer` stands for integral numbers, which
    /// `number` includes).
    static func possibleTypes(_ schema: JSONValue, _ document: JSONValue) -> Set<String> {
        var types = allTypes
        if let listed = typeList(schema) {
            types = listed
            if listed.contains("number") { types.insert("integer") }
        }
        if case .array(let options)? = schema["enum"] { types.formIntersection(Set(options.flatMap(valueTypes))) }
        if let constant = schema["const"] { types.formIntersection(Set(valueTypes(constant))) }
        return types
    }

    static func typeList(_ schema: JSONValue) -> Set<String>? {
        switch schema["type"] {
        case .string(let type)?: [type]
        case .array(let list)?: Set(list.compactMap { if case .string(let t) = $0 { t } else { nil } })
        default: nil
        }
    }

    /// The types a JSON value has (an integral number is both).
    static func valueTypes(_ value: JSONValue) -> [String] {
        switch value {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .number(let text): DecimalText.isIntegral(text) ? ["number", "integer"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }

    private mutating func checkType(_ old: JSONValue, _ new: JSONValue, _ place: Place, _ types: Set<String>) {
        guard let allowed = Self.typeList(new) else { return }
        var accepted = allowed
        if allowed.contains("number") { accepted.insert("integer") }
        let missing = types.subtracting(accepted)
        guard !missing.isEmpty else { return }
        let overlap = !types.intersection(accepted).isEmpty
        fail(
            place.child("type", old: old["type"] != nil), overlap ? "TYPE_NARROWED" : "TYPE_CHANGED",
            overlap ? "TYPE_EXTENDED" : "TYPE_CHANGED",
            "values of type \(missing.sorted().joined(separator: ", ")) are \(backward ? "no longer" : "newly") accepted"
        )
    }

    private mutating func checkEnum(_ old: JSONValue, _ new: JSONValue, _ place: Place) {
        var options: [JSONValue]?
        if case .array(let list)? = new["enum"] { options = list }
        if let constant = new["const"] { options = (options ?? [constant]).filter { $0 == constant } }
        guard let options else { return }
        var earlier: [JSONValue]?
        if case .array(let list)? = old["enum"] { earlier = list }
        if let constant = old["const"] { earlier = [constant] }
        let keyword = new["enum"] != nil ? "enum" : "const"
        guard let earlier else {
            fail(
                place.child(keyword, old: false), "ENUM_ARRAY_NARROWED", "ENUM_ARRAY_EXTENDED",
                "\(keyword) was \(backward ? "added" : "removed")")
            return
        }
        let missing = earlier.filter { !options.contains($0) }
        guard !missing.isEmpty else { return }
        let listed = missing.map { String(decoding: $0.bytes, as: UTF8.self) }.joined(separator: ", ")
        fail(
            place.child(keyword), "ENUM_ARRAY_NARROWED", "ENUM_ARRAY_EXTENDED",
            "\(listed) \(backward ? "no longer" : "newly") allowed")
    }

    // MARK: - Objects

    private mutating func checkObject(_ old: JSONValue, _ new: JSONValue, _ place: Place) {
        let oldProperties = Self.members(old["properties"])
        let newProperties = Self.members(new["properties"])
        let oldOpen = !writerClosed && old["additionalProperties"] != .bool(false)
        let oldRest = writerClosed ? JSONValue.bool(false) : (old["additionalProperties"] ?? .object([]))
        for (key, schema) in newProperties {
            let keyPlace = place.child("properties").child(key, old: oldProperties[key] != nil)
            if let earlier = oldProperties[key] {
                check(earlier, schema, keyPlace)
            } else if oldOpen, !includes(oldRest, schema) {
                fail(
                    keyPlace, "PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL", "PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL",
                    backward
                        ? "\"\(key)\" is read now; earlier documents may hold it with any value"
                        : "\"\(key)\" is no longer read; new documents may hold it with any value")
            } else if oldOpen == false, oldRest != .bool(false) {
                check(oldRest, schema, keyPlace)
            }
        }
        let newRest = new["additionalProperties"]
        if let newRest {
            for (key, schema) in oldProperties where newProperties[key] == nil {
                let keyPlace = place.child("properties", new: false).child(key, new: false)
                if newRest == .bool(false) {
                    fail(
                        keyPlace, "PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL",
                        "PROPERTY_ADDED_TO_CLOSED_CONTENT_MODEL",
                        backward
                            ? "\"\(key)\" is no longer read, and unknown keys are rejected"
                            : "\"\(key)\" is read now, and the earlier version rejects it as an unknown key")
                } else if !includes(schema, newRest) {
                    fail(
                        keyPlace, "ADDITIONAL_PROPERTIES_NARROWED", "ADDITIONAL_PROPERTIES_EXTENDED",
                        "\"\(key)\" is no longer declared, and other keys' values are restricted")
                }
            }
            if oldRest != .bool(false) {
                if oldRest == .object([]), newRest == .bool(false) {
                    fail(
                        place.child("additionalProperties", old: false), "ADDITIONAL_PROPERTIES_REMOVED",
                        "ADDITIONAL_PROPERTIES_ADDED",
                        backward
                            ? "unknown keys are rejected now"
                            : "unknown keys are accepted now, the earlier version rejects them")
                } else {
                    check(
                        oldRest, newRest, place.child("additionalProperties", old: old["additionalProperties"] != nil))
                }
            }
        }
        if case .array(let required)? = new["required"] {
            var earlier: Set<String> = []
            if case .array(let list)? = old["required"] {
                for case .string(let key) in list { earlier.insert(key) }
            }
            for (index, member) in required.enumerated() {
                guard case .string(let key) = member, !earlier.contains(key) else { continue }
                fail(
                    place.child("required").child(String(index), old: false), "REQUIRED_ATTRIBUTE_ADDED",
                    "REQUIRED_ATTRIBUTE_REMOVED",
                    backward ? "\"\(key)\" is required now" : "\"\(key)\" is no longer required")
            }
        }
    }

    static func members(_ value: JSONValue?) -> [String: JSONValue] {
        guard case .object(let members)? = value else { return [:] }
        var result: [String: JSONValue] = [:]
        for member in members { result[member.key] = member.value }
        return result
    }

    // MARK: - Combinators

    private mutating func checkCombinators(_ old: JSONValue, _ new: JSONValue, _ place: Place) {
        if case .array(let rules)? = new["allOf"] {
            var earlier: [JSONValue] = []
            if case .array(let list)? = old["allOf"] { earlier = list }
            let bare = Self.removing(["allOf"], from: old)
            for (index, rule) in rules.enumerated() {
                // A rule holds if one earlier rule, or the earlier schema without its rules, implies it.
                if let at = earlier.firstIndex(where: { includes($0, rule) }) ?? (includes(bare, rule) ? -1 : nil) {
                    // Report the differences inside a rule in its place when it is the same rule moved on.
                    _ = at
                    continue
                }
                if index < earlier.count,
                    Self.removing(["then", "else"], from: earlier[index])
                        == Self.removing(["then", "else"], from: rule)
                {
                    check(earlier[index], rule, place.child("allOf").child(String(index)))
                    continue
                }
                fail(
                    place.child("allOf").child(String(index), old: false), "COMBINED_TYPE_SUBSCHEMAS_CHANGED",
                    "COMBINED_TYPE_SUBSCHEMAS_CHANGED", "a rule of the combined schema changed")
            }
        }
        if case .array(let options)? = new["anyOf"] {
            var earlier: [JSONValue] = [Self.removing(["anyOf"], from: old)]
            if case .array(let list)? = old["anyOf"] { earlier = list }
            for (index, option) in earlier.enumerated() where !options.contains(where: { includes(option, $0) }) {
                fail(
                    place.child("anyOf").child(String(index), new: old["anyOf"] != nil),
                    "SUM_TYPE_NARROWED", "SUM_TYPE_EXTENDED", "an alternative is no longer accepted")
            }
        }
        if let excluded = new["not"] {
            let earlierTypes = Self.possibleTypes(old, oldDocument)
            let provedByType =
                Self.typeList(excluded).map { earlierTypes.isDisjoint(with: $0) } ?? false
                && Self.removing(["type"], from: excluded) == .object([])
            let provedByNot = old["not"].map { includes(excluded, $0) } ?? false
            if !provedByType && !provedByNot {
                fail(
                    place.child("not", old: old["not"] != nil), "NOT_TYPE_NARROWED", "NOT_TYPE_EXTENDED",
                    "the excluded values changed")
            }
        }
        if let condition = new["if"] {
            let same = old["if"].map { includes($0, condition) && includes(condition, $0) } ?? false
            if same {
                check(
                    old["then"] ?? .object([]), new["then"] ?? .object([]), place.child("then", old: old["then"] != nil)
                )
                check(
                    old["else"] ?? .object([]), new["else"] ?? .object([]), place.child("else", old: old["else"] != nil)
                )
            } else {
                fail(
                    place.child("if", old: old["if"] != nil), "COMBINED_TYPE_SUBSCHEMAS_CHANGED",
                    "COMBINED_TYPE_SUBSCHEMAS_CHANGED", "the condition that picks a subschema changed")
            }
        }
    }

    static func removing(_ keys: Set<String>, from schema: JSONValue) -> JSONValue {
        guard case .object(let members) = schema else { return schema }
        return .object(members.filter { !keys.contains($0.key) })
    }
}
