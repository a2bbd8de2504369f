// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// Builds the object at `ref` as `declared` (SEMANTICS.md, "Order"): `willTransform` on the input object,
    /// `classForDictionary` on the result, then the chosen model's properties, unknown keys and `validate`.
    /// Always writes an object (possibly incomplete when the model fails).
    mutating func convertObject(_ ref: ValueRef, as declared: CompiledModel) {
        let depth = path.depth
        defer { path.truncate(to: depth) }
        var object = ref
        if !fromModel, let steps = declared.willTransform {
            guard let transformed = applyWillTransform(steps, to: ref) else {
                let start = out.count
                out.append(contentsOf: "{}".utf8)
                if writesWire { wrapUnwrapped(declared, from: start) }
                return
            }
            object = transformed
        }
        var model = declared
        if let chosen = chooseModel(declared, for: object) { model = chosen }
        if model !== declared, depth == 0 { rootBuilt = model }
        let start = out.count
        builtAt[start] = model.id
        convertProperties(of: model, object, requestedAs: declared)
        if writesWire { wrapUnwrapped(declared, from: start) }
    }

    /// The model's properties, then stray keys (stage 3) and `validate` (stage 4).
    private mutating func convertProperties(of model: CompiledModel, _ object: ValueRef, requestedAs declared: CompiledModel) {
        let document = documents[object.document]
        let keys = fromModel ? model.modelKeys : model.wireKeys
        let frame = slots.count
        slots.append(contentsOf: repeatElement(-1, count: keys.count))
        defer { slots.removeSubrange(frame...) }

        // Stage 0: one pass over the input members fills a slot per known key (the last duplicate wins).
        var unread: [Int] = []
        var duplicated: [Int] = []
        var index = object.index + 1
        let memberCount = document.tokens[object.index].count
        for _ in 0..<memberCount {
            let keyToken = document.tokens[index]
            if let id = keyID(keyToken, in: document.bytes, keys) {
                if slots[frame + id] >= 0 { duplicated.append(id) }
                slots[frame + id] = index
            } else {
                unread.append(index)
            }
            index = document.tokens[index + 1].next
        }

        let objectStart = out.count
        let flat = !writesWire || model.wireIsFlat
        var spans: [(property: Int, start: Int, end: Int)] = []
        var holds = [Bool](repeating: false, count: model.properties.count)
        out.append(.openBrace)
        var first = true
        for (i, property) in model.properties.enumerated() {
            if property.hasDeclaredDefault, property.defaultValue == nil {
                snapshot.defaultResolver?.needed(property, of: model)
            }
            let depth = path.depth
            defer { path.truncate(to: depth) }
            let found = locate(property, frame: frame, in: object)
            if let found, !fromModel, duplicated.contains(property.keyIDs[found.alternative]) {
                let key = property.keys[found.alternative].components[0]
                let pointer = path.render(documents)
                diagnostics.warn(pointer, Issue(code: .duplicateKey, message:
                    "duplicate key \"\(String(decoding: key, as: UTF8.self))\": the last value wins"))
            } else if found == nil {
                path.push(.literal(fromModel ? Array(property.name.utf8) : property.keys[0].components[0]))
                if !fromModel { for component in property.keys[0].components.dropFirst() { path.push(.literal(component)) } }
            }
            let propertyStart = out.count
            if flat {
                if !first { out.append(.comma) }
                out.append(contentsOf: writesWire ? property.wireFragment : property.nameFragment)
            }
            let valueStart = out.count
            let outcome: TypeCoercion.Outcome
            if let found {
                let result = convert(found.value, as: property.value)
                if let issue = result.issue { warn(issue) }
                outcome = result.outcome
                if outcome != .value { out.removeSubrange(valueStart...) }
                if outcome == .value {
                    holds[i] = true
                } else if let fallback = property.defaultValue, outcome == .implicitDefault || result.issue != nil {
                    out.append(contentsOf: writesWire ? fallback.wireForm : fallback.modelForm)
                    holds[i] = true
                } else if outcome == .implicitDefault {
                    TypeCoercion.writeZero(property.value, into: &out)
                }
            } else if let fallback = property.defaultValue {
                out.append(contentsOf: writesWire ? fallback.wireForm : fallback.modelForm)
                holds[i] = true
            } else if property.value.isNumeric {
                TypeCoercion.writeZero(property.value, into: &out)
            }
            if out.count == valueStart {
                out.removeSubrange(propertyStart...)
            } else if flat {
                first = false
            } else {
                spans.append((i, valueStart, out.count))
            }
        }
        out.append(.closeBrace)

        reportStrayKeys(of: model, requestedAs: declared, object: object, unread: unread, duplicated: duplicated,
                        frame: frame)
        checkRules(of: model, holds: holds)
        if !flat { assembleWireObject(model, spans: spans, from: objectStart) }
    }

    /// The slot id of an input key, decoding escapes only when the key has any.
    private func keyID(_ token: JSONToken, in bytes: UnsafeRawBufferPointer, _ keys: KeyIndex) -> Int? {
        guard token.hasEscapes else { return keys.id(of: UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end])) }
        var decoded: [UInt8] = []
        JSONStrings.decode(token, in: bytes, into: &decoded)
        return keys.id(of: decoded)
    }

    /// Finds the first present alternative of the property's key (a `null` counts as present), pushing its path.
    private mutating func locate(_ property: CompiledProperty, frame: Int, in object: ValueRef)
        -> (value: ValueRef, alternative: Int)?
    {
        if fromModel {
            let keyToken = slots[frame + property.modelKeyID]
            guard keyToken >= 0 else { return nil }
            pushMember(document: object.document, keyToken: keyToken)
            return (ValueRef(document: object.document, index: keyToken + 1), 0)
        }
        let depth = path.depth
        for (alternative, key) in property.keys.enumerated() {
            let keyToken = slots[frame + property.keyIDs[alternative]]
            guard keyToken >= 0 else { continue }
            pushMember(document: object.document, keyToken: keyToken)
            var value = ValueRef(document: object.document, index: keyToken + 1)
            var found = true
            for component in key.components.dropFirst() {
                guard let member = lastMember(named: component, in: value) else { found = false; break }
                pushMember(document: value.document, keyToken: member)
                value = ValueRef(document: value.document, index: member + 1)
            }
            if found { return (value, alternative) }
            path.truncate(to: depth)
        }
        return nil
    }

    /// Pushes the path segment of the member whose key token is `keyToken` (its original position if it moved).
    mutating func pushMember(document: Int, keyToken: Int) {
        if let origin = documents[document].origins[keyToken + 1] { path.push(.reset(origin)) } else {
            path.push(.key(document: document, token: keyToken))
        }
    }

    /// The key token of the last member named `key` in the object at `ref`, or nil (also when it is no object).
    func lastMember(named key: [UInt8], in ref: ValueRef) -> Int? {
        let document = documents[ref.document]
        let token = document.tokens[ref.index]
        guard token.kind == .object else { return nil }
        var index = ref.index + 1
        var found: Int?
        key.withUnsafeBytes { key in
            for _ in 0..<token.count {
                if JSONStrings.equals(document.tokens[index], in: document.bytes, key) { found = index }
                index = document.tokens[index + 1].next
            }
        }
        return found
    }
}
