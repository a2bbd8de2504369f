// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// `unknownKeys: keep` (pydantic's `extra="allow"`): the input keys of the model's own object that nothing
    /// reads, appended to the object written from `start` on, after its properties, in input order and unconverted
    /// (as `any`). A repeated key keeps its last value at its first position; a key that a property writes in the
    /// output form (its name, or its key's first component in wire form) is not kept, with `output_conflict`.
    ///
    ///     {"id": 1, "x": [1], "y": 2, "x": 3}  as  {id: int32}  →  {"id":1,"x":3,"y":2}
    mutating func writeKeptKeys(
        of model: CompiledModel, requestedAs declared: CompiledModel, object: ValueRef,
        from start: Int
    ) {
        var order: [[UInt8]] = []
        var lastValue: [[UInt8]: Int] = [:]  // key → the key token of its last occurrence
        let tokens = documents[object.document].tokens
        var keyToken = object.index + 1
        for _ in 0..<tokens[object.index].count {
            let key = documents.decodedKey(object.document, keyToken)
            if !reads(key, model: model, declared: declared), lastValue.updateValue(keyToken, forKey: key) == nil {
                order.append(key)
            }
            keyToken = tokens[keyToken + 1].next
        }
        guard !order.isEmpty else { return }
        let written = Set(model.properties.map { writesWire ? $0.keys[0].components[0] : Array($0.name.utf8) })
        var members: [UInt8] = []
        out.truncate(to: out.count - 1)  // the object's `}`
        var isEmpty = out.count == start + 1
        for key in order {
            let keyToken = lastValue[key]!
            if written.contains(key) {
                pushMember(document: object.document, keyToken: keyToken)
                warn(
                    Issue(
                        code: .outputConflict,
                        message: "unknown key \"\(String(decoding: key, as: UTF8.self))\" "
                            + "is not kept: a property writes the same key"))
                path.pop()
                continue
            }
            if !isEmpty { out.append(.comma) }
            isEmpty = false
            members.removeAll(keepingCapacity: true)
            JSONStrings.writeQuoted(key, into: &members)
            members.append(.colon)
            out.append(contentsOf: members)
            writeAny(ValueRef(document: object.document, index: keyToken + 1))
        }
        out.append(.closeBrace)
    }
}
