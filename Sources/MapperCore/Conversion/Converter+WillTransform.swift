// SPDX-License-Identifier: Apache-2.0

/// A small editable copy of one input object, for `willTransform` steps: members keep raw references to the input
/// (no copy of their values) plus the pointer they came from.
struct EditableObject {
    indirect enum Node {
        case raw(ValueRef)
        case constant([UInt8])
        case object(EditableObject)
    }

    struct Member {
        var key: [UInt8]
        var node: Node
        var origin: String
    }

    var members: [Member] = []

    func index(of key: [UInt8]) -> Int? { members.firstIndex { $0.key == key } }
}

extension Converter {
    /// Runs `unwrap`, `rename`, `remove` and `defaults` on the object at `ref`. Returns the object to convert
    /// (the unwrapped input itself when no other step applies, else a rebuilt document), or nil after `rule_failed`.
    mutating func applyWillTransform(_ steps: WillTransform, to ref: ValueRef) -> ValueRef? {
        var object = ref
        if let unwrap = steps.unwrap {
            for (i, component) in unwrap.components.enumerated() {
                guard let member = lastMember(named: component, in: object, reportingDuplicates: true) else {
                    for remaining in unwrap.components[i...] { path.push(.literal(remaining)) }
                    fail(.ruleFailed, "unwrap target \"\(unwrap.source)\" is absent or not an object")
                    return nil
                }
                pushMember(document: object.document, keyToken: member)
                object = ValueRef(document: object.document, index: member + 1)
            }
            guard token(object).kind == .object else {
                fail(.ruleFailed, "unwrap target \"\(unwrap.source)\" is absent or not an object")
                return nil
            }
        }
        guard !steps.rename.isEmpty || !steps.remove.isEmpty || !steps.defaults.isEmpty else { return object }
        let base = path.render(documents)
        let merged = duplicateKeys(object)  // reported by the rebuilt object's conversion (stage 3 or its property)
        var editable = editableObject(object, origin: base)
        for (from, to) in steps.rename {
            guard let moved = take(from.components, from: &editable) else { continue }
            if put(moved, at: to.components, into: &editable, replace: true) {
                diagnostics.warn(
                    to.pointer(under: base),
                    Issue(
                        code: .duplicateKey,
                        message: "rename of \"\(from.source)\" replaced the existing \"\(to.source)\""))
            }
        }
        for key in steps.remove { _ = take(key.components, from: &editable) }
        for (key, value) in steps.defaults {
            let member = EditableObject.Member(key: [], node: .constant(value.bytes), origin: key.pointer(under: base))
            _ = put(member, at: key.components, into: &editable, replace: false)
        }
        return rebuild(editable, mergedDuplicates: merged)
    }

    private func editableObject(_ ref: ValueRef, origin: String) -> EditableObject {
        let document = documents[ref.document]
        var result = EditableObject()
        var index = ref.index + 1
        for _ in 0..<document.tokens[ref.index].count {
            let key = documents.decodedKey(ref.document, index)
            let member = EditableObject.Member(
                key: key, node: .raw(ValueRef(document: ref.document, index: index + 1)),
                origin: documents.origin(ref.document, index + 1) ?? origin + "/" + JSONPointer.escape(key))
            if let at = result.index(of: key) {
                result.members[at].node = member.node; result.members[at].origin = member.origin
            } else {
                result.members.append(member)
            }
            index = document.tokens[index + 1].next
        }
        return result
    }

    /// Removes and returns the member at `path` (walking into raw objects as needed).
    private func take(_ path: [[UInt8]], from object: inout EditableObject) -> EditableObject.Member? {
        guard let at = object.index(of: path[0]) else { return nil }
        if path.count == 1 { return object.members.remove(at: at) }
        guard var child = expand(object.members[at]) else { return nil }
        let taken = take(Array(path.dropFirst()), from: &child)
        object.members[at].node = .object(child)
        return taken
    }

    /// Puts `member` at `path`, creating intermediate objects; returns true when it replaced an existing value.
    /// With `replace: false` an existing value (a `null` counts) is kept.
    private func put(
        _ member: EditableObject.Member, at path: [[UInt8]], into object: inout EditableObject,
        replace: Bool
    ) -> Bool {
        let key = path[0]
        let at = object.index(of: key)
        if path.count == 1 {
            var placed = member
            placed.key = key
            guard let at else { object.members.append(placed); return false }
            guard replace else { return false }
            object.members[at].node = placed.node
            object.members[at].origin = placed.origin
            return true
        }
        var child = at.flatMap { expand(object.members[$0]) } ?? EditableObject()
        let replaced = put(member, at: Array(path.dropFirst()), into: &child, replace: replace)
        if let at {
            object.members[at].node = .object(child)
        } else {
            object.members.append(.init(key: key, node: .object(child), origin: member.origin))
        }
        return replaced
    }

    /// The member's value as an editable object, when it is one.
    private func expand(_ member: EditableObject.Member) -> EditableObject? {
        switch member.node {
        case .object(let object): return object
        case .raw(let ref) where token(ref).kind == .object: return editableObject(ref, origin: member.origin)
        default: return nil
        }
    }

    /// Writes the edited object as JSON, scans it into a new document, and maps its values to their origins.
    private mutating func rebuild(_ object: EditableObject, mergedDuplicates: [(key: [UInt8], pointer: String)])
        -> ValueRef?
    {
        var bytes: [UInt8] = []
        write(object, into: &bytes)
        guard case .success(let tape) = JSONTape.scanning(bytes, maxDepth: Int.max) else { return nil }
        var origins: [Int: String] = [:]
        tape.tokens.withUnsafeBufferPointer { tokens in
            func map(_ object: EditableObject, at index: Int) {
                var member = index + 1
                for entry in object.members {
                    origins[member + 1] = entry.origin
                    if case .object(let child) = entry.node { map(child, at: member + 1) }
                    member = tokens[member + 1].next
                }
            }
            map(object, at: 0)
        }
        let document = documents.add(bytes: bytes, tape: tape, origins: origins, mergedDuplicates: mergedDuplicates)
        return ValueRef(document: document, index: 0)
    }

    private func write(_ object: EditableObject, into bytes: inout [UInt8]) {
        bytes.append(.openBrace)
        for (i, member) in object.members.enumerated() {
            if i > 0 { bytes.append(.comma) }
            JSONStrings.writeQuoted(member.key, into: &bytes)
            bytes.append(.colon)
            switch member.node {
            case .constant(let value): bytes.append(contentsOf: value)
            case .object(let child): write(child, into: &bytes)
            case .raw(let ref):
                let document = documents[ref.document]
                bytes.append(contentsOf: document.bytes[document.tokens[ref.index].rawRange])
            }
        }
        bytes.append(.closeBrace)
    }
}
