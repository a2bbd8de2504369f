// SPDX-License-Identifier: Apache-2.0

// The object schema of one model: the tree of input keys it reads, each property's value schema placed on it, and
// the rules that no single key carries, in one `allOf`:
//
//     Book: name {key "n", required}, desc {key "ext.desc"}, bookID {key ["id", "ID", "book_id"]}
//
//     {"title":"Book","type":"object",
//      "properties":{"n":{"type":"string"},"ext":{"properties":{"desc":{"type":["string","null"]}}},
//                    "id":{},"ID":{},"book_id":{}},
//      "required":["n"],
//      "allOf":[{"if":{"required":["id"]},"then":{"properties":{"id":…}},"else":{"if":…}}]}
//
// The key tree is the model's `readTrie` (every key it reads: properties, blacklisted ones included, predicates,
// `willTransform` steps), so under `unknownKeys: reject` an object gets `"additionalProperties": false` wherever
// the converter reports stray keys: the model's object and the objects its key paths walk through, never a value a
// reader takes whole. Properties come first, in declaration order, then the other keys bytewise.

extension JSONSchemaExport {
    /// One key of the input object tree a model reads.
    struct KeyNode {
        var key: [UInt8]
        var children: [KeyNode] = []
        /// True where the converter reports stray keys under `reject`: an object a key path walks through.
        var restricted = false
        /// Compatibility documents only: a key read but checked elsewhere (a fallback key, a predicate key) gets a
        /// marker instead of `{}`, so that adding it is a key added, not a key that accepts everything.
        var marksReads = false
        /// Value schemas of the properties that read this key alone.
        var values: [JSONValue] = []
        /// Child keys that must be present.
        var required: [[UInt8]] = []

        /// Runs `body` on the node at `path`, creating the nodes on the way.
        mutating func visit(_ path: ArraySlice<[UInt8]>, _ body: (inout KeyNode) -> Void) {
            guard let head = path.first else { return body(&self) }
            var index = children.firstIndex { $0.key == head }
            if index == nil {
                children.append(KeyNode(key: head, marksReads: marksReads))
                index = children.count - 1
            }
            children[index!].visit(path.dropFirst(), body)
        }

        /// Marks every key along `path` as required in its parent.
        mutating func require(_ path: ArraySlice<[UInt8]>) {
            guard let head = path.first else { return }
            if !required.contains(head) { required.append(head) }
            visit([head][...]) { $0.require(path.dropFirst()) }
        }

        /// Adds the trie's keys (bytewise order), marking the objects that key paths walk through.
        mutating func merge(_ trie: KeyTrie) {
            for key in trie.children.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                let child = trie.children[key]!
                visit([key][...]) { node in
                    node.restricted = !child.isTerminal
                    node.merge(child)
                }
            }
        }

        /// The schema of this key's value.
        func schema(rejects: Bool) -> JSONValue {
            var parts = values
            if marksReads && parts.isEmpty && children.isEmpty { return .object([("x-read", .bool(true))]) }
            if !children.isEmpty { parts.append(.object(objectKeywords(rejects: rejects, typed: !required.isEmpty))) }
            return JSONSchemaExport.allOf(parts)
        }

        /// `properties`, `required` and `additionalProperties` of the object at this key.
        func objectKeywords(rejects: Bool, typed: Bool) -> Keywords {
            var members: Keywords = []
            // `required` alone holds for non-objects; a required key below makes this an object.
            if typed { members.append(("type", .string("object"))) }
            if !children.isEmpty {
                let properties = children.map { (JSONSchemaExport.name($0.key), $0.schema(rejects: rejects)) }
                members.append(("properties", .object(properties)))
            }
            if !required.isEmpty {
                members.append(("required", .array(required.map { .string(JSONSchemaExport.name($0)) })))
            }
            if rejects && restricted { members.append(("additionalProperties", .bool(false))) }
            return members
        }
    }

    /// The object of `model`, built as `declared` (itself, or the model whose `classForDictionary` picked it): read
    /// after `declared`'s `willTransform`, with the keys `declared` reads also known (docs/semantics.md, "Building a
    /// model: the order").
    mutating func objectSchema(_ model: CompiledModel, declared: CompiledModel) -> JSONValue {
        let steps = declared.willTransform
        let traced = model.properties.map { Self.sources(of: $0, under: steps) }
        var root = KeyNode(key: [])
        root.restricted = true
        root.marksReads = marksUnexpressed
        for sources in traced { for path in sources.paths { root.visit(path[...]) { _ in } } }
        root.merge(model.readTrie)
        if declared !== model {
            for key in declared.readTrie.children.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                root.visit([key][...]) { _ in }
            }
        }

        var rules: [JSONValue] = []
        for (index, property) in model.properties.enumerated() {
            let isRequired = model.required.contains(index) && !property.value.optional
            let schema = annotated(valueSchema(property.value, nullable: !isRequired), property, of: model)
            let sources = traced[index]
            // A key that `defaults` injects is always there (a `null` default gives no value).
            let mustBePresent = isRequired && (sources.injected == nil || sources.injected == .null)
            if sources.paths.count == 1 {
                root.visit(sources.paths[0][...]) { $0.values.append(schema) }
                if mustBePresent { root.require(sources.paths[0][...]) }
            } else {
                // Fallback keys (or a rename): the first present one is converted; the others are read, not checked.
                rules.append(
                    Self.firstPresent(
                        sources.paths[...], then: { _ in schema },
                        otherwise: mustBePresent ? Self.never : Self.always))
            }
        }
        for group in model.requireAny {
            rules.append(Self.anyOf(group.indexes.map { Self.holdsValue(model.properties[$0], traced[$0]) }))
        }
        for (from, to) in steps?.rename ?? [] {
            // Renaming onto a key that is there replaces it with a `duplicate_key` warning.
            if !from.isPath && !to.isPath {
                let keys = [from, to].map { JSONValue.string(Self.name($0.components[0])) }
                let both = JSONValue.object([("required", .array(keys))])
                rules.append(.object([("not", both)]))
            } else {
                rules.append(
                    Self.not(
                        Self.allOf([
                            Self.present(from.components[...]),
                            Self.present(to.components[...]),
                        ])))
            }
        }

        var members: Keywords = [("title", .string(model.name))]
        if let description = document(of: model)?["description"], case .string = description {
            members.append(("description", description))
        }
        members.append(("type", .string("object")))
        members += root.objectKeywords(rejects: model.rejectsUnknownKeys, typed: false)
        if marksUnexpressed { members += unexpressedSteps("willTransform", of: declared) }
        rules.removeAll { $0 == Self.always }
        if !rules.isEmpty { members.append(("allOf", .array(rules))) }
        return .object(members)
    }

    /// The property holds a value (`requireAny`): its first present source gives one; with none present, a
    /// declared or injected default does.
    static func holdsValue(_ property: CompiledProperty, _ sources: KeySources) -> JSONValue {
        let injectsValue = sources.injected != nil && sources.injected != .null
        let hasValue = noValue(property.value).map { not($0) } ?? always
        return firstPresent(
            sources.paths[...], then: { _ in hasValue },
            otherwise: injectsValue || property.hasDeclaredDefault ? always : never)
    }

    /// The property's schema with its `description` and `default` from the document that declares it, and
    /// `readOnly` for a computed property (its value never comes from input).
    private mutating func annotated(
        _ schema: JSONValue, _ property: CompiledProperty,
        of model: CompiledModel
    ) -> JSONValue {
        var current: CompiledModel? = model
        while let owner = current {
            if let declaration = owner.schema.properties.first(where: { $0.name == property.name }) {
                var extra: Keywords = []
                if let text = document(of: owner)?["properties"]?[property.name]?["description"], case .string = text {
                    extra.append(("description", text))
                }
                if let value = declaration.defaultValue { extra.append(("default", value)) }
                if declaration.computed != nil { extra.append(("readOnly", .bool(true))) }
                return Self.adding(extra, to: schema)
            }
            current = owner.parentID.map { snapshot.model($0) }
        }
        return schema
    }
}
