// SPDX-License-Identifier: Apache-2.0

/// Where input keys are matched to properties: a member's key to its slot, a property's key paths (`a.b`) walked
/// down, and its fallback keys tried in order — the first present alternative wins, a `null` counting as present
/// (docs/schema.md, "`key`"). The property loop (`Converter+Object.swift`) calls these.
extension Converter {
    /// The slot id of an input key, decoding escapes only when the key has any. Inlined: it runs once per input
    /// member, and the plain case is one comparison with the key after `previous` in the schema.
    @inline(__always)
    func keyID(_ token: JSONToken, in bytes: UnsafeRawBufferPointer, _ keys: KeyIndex, after previous: Int)
        -> Int?
    {
        guard token.hasEscapes else {
            return keys.id(of: UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end]), after: previous)
        }
        return keys.id(of: JSONStrings.decoded(token, in: bytes))
    }

    /// Finds the first present alternative of the property's key (a `null` counts as present), pushing its path.
    mutating func locate(_ property: CompiledProperty, frame: Int, in object: ValueRef)
        -> (value: ValueRef, alternative: Int)?
    {
        if fromModel || property.plainKeyID >= 0 {
            let keyToken = slots[frame + (fromModel ? property.modelKeyID : property.plainKeyID)]
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
                guard let member = lastMember(named: component, in: value, reportingDuplicates: true) else {
                    found = false
                    break
                }
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
        if let origin = documents.origin(document, keyToken + 1) {
            path.push(.reset(origin))
        } else {
            path.push(.key(document: document, token: keyToken))
        }
    }

    /// The key token of the last member named `key` in the object at `ref`, or nil (also when it is no object).
    func lastMember(named key: [UInt8], in ref: ValueRef) -> Int? { lastMemberCounting(key, in: ref).index }

    /// As `lastMember`, recording `duplicate_key` below the current path when the key repeats.
    mutating func lastMember(named key: [UInt8], in ref: ValueRef, reportingDuplicates: Bool) -> Int? {
        let (index, count) = lastMemberCounting(key, in: ref)
        if let index, count > 1 {
            diagnostics.warn(memberPointer(ref.document, index), .duplicateKey(key))
        }
        return index
    }

    private func lastMemberCounting(_ key: [UInt8], in ref: ValueRef) -> (index: Int?, count: Int) {
        let document = documents[ref.document]
        let token = document.tokens[ref.index]
        guard token.kind == .object else { return (nil, 0) }
        var index = ref.index + 1
        var found: Int?
        var count = 0
        key.withUnsafeBytes { key in
            for _ in 0..<token.count {
                if JSONStrings.equals(document.tokens[index], in: document.bytes, key) {
                    found = index
                    count += 1
                }
                index = document.tokens[index + 1].next
            }
        }
        return (found, count)
    }
}
