// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// Evaluates `declared`'s own `classForDictionary` rules on the object; the first that holds picks the model.
    func chooseModel(_ declared: CompiledModel, for object: ValueRef) -> CompiledModel? {
        for rule in declared.classRules where holds(fromModel ? rule.modelForm : rule.wire, object) {
            return snapshot.model(rule.useID)
        }
        return nil
    }

    private func holds(_ predicate: Predicate, _ object: ValueRef) -> Bool {
        switch predicate {
        case .has(let key): return value(at: key, in: object) != nil
        case .equals(let key, let expected):
            guard let found = value(at: key, in: object) else { return false }
            return JSONEquality.equal(found, in: documents, expected)
        case .isIn(let key, let options):
            guard let found = value(at: key, in: object) else { return false }
            return options.contains { JSONEquality.equal(found, in: documents, $0) }
        case .all(let predicates): return predicates.allSatisfy { holds($0, object) }
        case .any(let predicates): return predicates.contains { holds($0, object) }
        case .not(let inner): return !holds(inner, object)
        }
    }

    /// The value at a key or key path (the last duplicate wins), or nil when absent.
    func value(at key: MappedKey, in object: ValueRef) -> ValueRef? {
        var current = object
        for component in key.components {
            guard let member = lastMember(named: component, in: current) else { return nil }
            current = ValueRef(document: current.document, index: member + 1)
        }
        return current
    }
}

/// Exact JSON equality for predicates: numbers by value, objects regardless of member order, no coercion.
enum JSONEquality {
    static func equal(_ ref: ValueRef, in documents: DocumentStack, _ expected: JSONValue) -> Bool {
        let document = documents[ref.document]
        let token = document.tokens[ref.index]
        switch (token.kind, expected) {
        case (.null, .null), (.true, .bool(true)), (.false, .bool(false)): return true
        case (.number, .number(let text)):
            var text = text
            return text.withUTF8 {
                NumberText.compare(
                    UnsafeRawBufferPointer(rebasing: document.bytes[token.start..<token.end]),
                    UnsafeRawBufferPointer($0)) == 0
            }
        case (.string, .string(let text)):
            var text = text
            return text.withUTF8 { JSONStrings.equals(token, in: document.bytes, UnsafeRawBufferPointer($0)) }
        case (.array, .array(let items)):
            guard token.count == items.count else { return false }
            var index = ref.index + 1
            for item in items {
                if !equal(ValueRef(document: ref.document, index: index), in: documents, item) { return false }
                index = document.tokens[index].next
            }
            return true
        case (.object, .object(let members)):
            // Compare as maps (the last duplicate wins on both sides).
            var expectedByKey: [String: JSONValue] = [:]
            for member in members { expectedByKey[member.key] = member.value }
            var seen = Set<String>()
            var index = ref.index + 1
            var actual: [String: Int] = [:]
            for _ in 0..<token.count {
                actual[String(decoding: documents.decodedKey(ref.document, index), as: UTF8.self)] = index + 1
                index = document.tokens[index + 1].next
            }
            guard actual.count == expectedByKey.count else { return false }
            for (key, valueIndex) in actual {
                guard let other = expectedByKey[key],
                    equal(ValueRef(document: ref.document, index: valueIndex), in: documents, other)
                else { return false }
                seen.insert(key)
            }
            return seen.count == expectedByKey.count
        default: return false
        }
    }
}
