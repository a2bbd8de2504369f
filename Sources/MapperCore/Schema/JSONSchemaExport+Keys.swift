// SPDX-License-Identifier: Apache-2.0

// Where a key that a model reads comes from in the input, and the JSON Schema conditions built on it.
//
// A model reads the object after its `willTransform` steps, so each key it reads is traced back through them:
// `defaults` (run last) may inject it, `remove` hides it, and `rename {"from": "to"}` makes the input's `from`
// (when present) the value at `to`. A traced key is a fallback list of input paths — exactly like a property's
// `key` list: the first present one wins — so one mechanism, `firstPresent`, serves fallback keys and renames:
//
//     rename {"name": "title"}, property key "title"   →  paths [["name"], ["title"]]
//     {"if": {"required": ["name"]}, "then": {"properties": {"name": S}}, "else": {"properties": {"title": S}}}
//
// A rename onto a key already there is a `duplicate_key` warning, so each rename also forbids its two keys together.
// Key paths below a renamed or removed key follow it; a key injected inside an object that a property reads as a
// whole is not traced (docs/jsonschema.md).

extension JSONSchemaExport {
    /// The input paths that may supply one key of the transformed object, in priority order, and the value that
    /// `willTransform.defaults` injects when none is present.
    struct KeySources {
        var paths: [[[UInt8]]]
        var injected: JSONValue?
    }

    /// Traces `key` back through `steps` (reverse order: `defaults`, `remove`, then each `rename` from the last).
    static func sources(of key: MappedKey, under steps: WillTransform?) -> KeySources {
        var paths = [key.components]
        guard let steps else { return KeySources(paths: paths, injected: nil) }
        // `put` never replaces: the first default for a key is the one that lands.
        let injected = steps.defaults.first { $0.key.components == key.components }?.value
        paths.removeAll { path in steps.remove.contains { path.starts(with: $0.components) } }
        for (from, to) in steps.rename.reversed() {
            paths = paths.flatMap { path -> [[[UInt8]]] in
                if path.starts(with: to.components) {
                    return [from.components + path.dropFirst(to.components.count), path]
                }
                if path.starts(with: from.components) { return [] }
                return [path]
            }
        }
        var unique: [[[UInt8]]] = []
        for path in paths where !unique.contains(path) { unique.append(path) }
        return KeySources(paths: unique, injected: injected)
    }

    /// A property's fallback list traced key by key; keys after one that `defaults` injects are never reached.
    static func sources(of property: CompiledProperty, under steps: WillTransform?) -> KeySources {
        var result = KeySources(paths: [], injected: nil)
        for key in property.keys {
            let traced = sources(of: key, under: steps)
            for path in traced.paths where !result.paths.contains(path) { result.paths.append(path) }
            if traced.injected != nil {
                result.injected = traced.injected
                break
            }
        }
        return result
    }

    // MARK: - Paths

    /// Holds when the input has `path` (every intermediate an object) and `value`, if given, holds there.
    static func present(_ path: ArraySlice<[UInt8]>, then value: JSONValue? = nil) -> JSONValue {
        let head = name(path.first!)
        var members: Keywords = [("required", .array([.string(head)]))]
        if path.count > 1 {
            let inner = present(path.dropFirst(), then: value)
            let object = JSONValue.object([("type", .string("object"))] + Self.members(inner))
            members.append(("properties", .object([(head, object)])))
        } else if let value, value != always {
            members.append(("properties", .object([(head, value)])))
        }
        return .object(members)
    }

    /// Holds when `value` holds at `path` wherever the input has it (absent paths impose nothing).
    static func at(_ path: ArraySlice<[UInt8]>, _ value: JSONValue) -> JSONValue {
        if value == always { return always }
        let inner = path.count > 1 ? at(path.dropFirst(), value) : value
        return .object([("properties", .object([(name(path.first!), inner)]))])
    }

    /// The first of `paths` that the input has decides: `then(path)` must hold there; with none present, `otherwise`.
    static func firstPresent(
        _ paths: ArraySlice<[[UInt8]]>, then: ([[UInt8]]) -> JSONValue,
        otherwise: JSONValue
    ) -> JSONValue {
        guard let path = paths.first else { return otherwise }
        let rest = firstPresent(paths.dropFirst(), then: then, otherwise: otherwise)
        let value = then(path)
        if rest == never { return present(path[...], then: value) }
        if rest == always { return at(path[...], value) }
        var members: Keywords = [("if", present(path[...]))]
        if value != always { members.append(("then", at(path[...], value))) }
        members.append(("else", rest))
        return .object(members)
    }

    // MARK: - classForDictionary predicates

    /// A predicate (docs/schema.md, "classForDictionary") as a schema over the input object. JSON Schema's
    /// `const` and `enum` compare as the predicates do: numbers by value, objects regardless of member order.
    func condition(_ predicate: Predicate, under steps: WillTransform?) -> JSONValue {
        switch predicate {
        case .has(let key):
            let traced = Self.sources(of: key, under: steps)
            if traced.injected != nil { return Self.always }
            return Self.anyOf(traced.paths.map { Self.present($0[...]) })
        case .equals(let key, let expected):
            return Self.matching(key, under: steps, .object([("const", expected)])) { Self.sameJSON($0, expected) }
        case .isIn(let key, let options):
            let test = options.isEmpty ? Self.never : .object([("enum", .array(options))])
            return Self.matching(key, under: steps, test) { value in options.contains { Self.sameJSON(value, $0) } }
        case .all(let list): return Self.allOf(list.map { condition($0, under: steps) })
        case .any(let list): return Self.anyOf(list.map { condition($0, under: steps) })
        case .not(let inner): return Self.not(condition(inner, under: steps))
        }
    }

    /// The value at `key` (its first present source) satisfies `test`; an injected default is decided here.
    private static func matching(
        _ key: MappedKey, under steps: WillTransform?, _ test: JSONValue,
        _ injectedMatches: (JSONValue) -> Bool
    ) -> JSONValue {
        let traced = sources(of: key, under: steps)
        let otherwise = traced.injected.map { injectedMatches($0) ? always : never } ?? never
        return firstPresent(traced.paths[...], then: { _ in test }, otherwise: otherwise)
    }

    /// Exact JSON equality as the predicates use it: numbers by value, strings byte for byte, objects as maps.
    static func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.string(x), .string(y)): return x.utf8.elementsEqual(y.utf8)
        case let (.number(x), .number(y)):
            return Array(x.utf8).withUnsafeBytes { x in
                Array(y.utf8).withUnsafeBytes { NumberText.compare(x, $0) == 0 }
            }
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
        case let (.object(x), .object(y)):
            var left: [[UInt8]: JSONValue] = [:]
            var right: [[UInt8]: JSONValue] = [:]
            for member in x { left[Array(member.key.utf8)] = member.value }
            for member in y { right[Array(member.key.utf8)] = member.value }
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { sameJSON(value, $0) } ?? false }
        default: return false
        }
    }
}
