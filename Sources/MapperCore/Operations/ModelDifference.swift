// SPDX-License-Identifier: Apache-2.0

/// Walks the identity forms of two models side by side (`IdentityForm`) and lists the model-form pointers where
/// they differ, for `/compare`: it descends into models built as the same model (by declared property, then other
/// members by key), into equal-length arrays and into dictionaries with the same key set; a set whose elements
/// differ, a container whose length or key set differs, a model built as another model (also recorded with both
/// names) and any other unequal value are listed once at their own path.
struct ModelDifference {
    /// What the walk found: the paths in order, and for each model built as different models, both names.
    struct Found {
        var paths: [String] = []
        var models: [(path: String, a: String, b: String)] = []
    }

    let snapshot: RegistrySnapshot
    let a: [UInt8]
    let b: [UInt8]
    private let tapeA: JSONTape
    private let tapeB: JSONTape

    init(snapshot: RegistrySnapshot, a: [UInt8], b: [UInt8]) {
        self.snapshot = snapshot
        self.a = a
        self.b = b
        tapeA = (try? JSONTape.scanning(a, maxDepth: Int.max).get()) ?? JSONTape()
        tapeB = (try? JSONTape.scanning(b, maxDepth: Int.max).get()) ?? JSONTape()
    }

    func collect(root: CompiledModel, into found: inout Found) {
        guard !tapeA.tokens.isEmpty, !tapeB.tokens.isEmpty else { return }
        a.withUnsafeBytes { bytesA in
            b.withUnsafeBytes { bytesB in
                let sideA = IdentityForm(snapshot: snapshot, builtAt: [:], base: 0, bytes: bytesA, tokens: tapeA.tokens)
                let sideB = IdentityForm(snapshot: snapshot, builtAt: [:], base: 0, bytes: bytesB, tokens: tapeB.tokens)
                walk(0, 0, sideA, sideB, type: .model(root.id), path: "", into: &found)
            }
        }
    }

    private func walk(
        _ i: Int, _ j: Int, _ a: IdentityForm, _ b: IdentityForm, type: CompiledValue.Kind?,
        path: String, into found: inout Found
    ) {
        let ta = a.tokens[i]
        let tb = b.tokens[j]
        if a.bytes[ta.rawRange].elementsEqual(b.bytes[tb.rawRange]) { return }
        switch (type, ta.kind, tb.kind) {
        case (.model?, .object, .object):
            let membersA = a.members(i)
            let membersB = b.members(j)
            // The identity form opens every model object with `"$model":"Name"`.
            let nameA = String(
                decoding: a.bytes[a.tokens[membersA[0].value].start..<a.tokens[membersA[0].value].end], as: UTF8.self)
            let nameB = String(
                decoding: b.bytes[b.tokens[membersB[0].value].start..<b.tokens[membersB[0].value].end], as: UTF8.self)
            guard nameA == nameB, let model = snapshot.model(named: nameA) else {
                found.paths.append(path)
                found.models.append((path, nameA, nameB))
                return
            }
            let valuesA = Dictionary(membersA.dropFirst().map { ($0.key, $0.value) }, uniquingKeysWith: { x, _ in x })
            let valuesB = Dictionary(membersB.dropFirst().map { ($0.key, $0.value) }, uniquingKeysWith: { x, _ in x })
            var declared = Set<[UInt8]>()
            for property in model.properties {
                let key = Array(property.name.utf8)
                declared.insert(key)
                compareMembers(
                    valuesA[key], valuesB[key], a, b, type: property.value.kind,
                    path: path + "/" + JSONPointer.escape(property.name), into: &found)
            }
            // Members that are no property (kept unknown keys), by key.
            let others = Set(valuesA.keys).union(valuesB.keys).subtracting(declared)
            for key in others.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                compareMembers(
                    valuesA[key], valuesB[key], a, b, type: nil,
                    path: path + "/" + JSONPointer.escape(String(decoding: key, as: UTF8.self)), into: &found)
            }
            return
        case (.set?, _, _):
            break  // a set is equal or not as a whole
        case (_, .array, .array) where ta.count == tb.count:
            let element: CompiledValue.Kind?
            if case .array(let e)? = type { element = e?.kind } else { element = nil }
            var x = i + 1
            var y = j + 1
            for n in 0..<ta.count {
                walk(x, y, a, b, type: element, path: path + "/" + String(n), into: &found)
                x = a.tokens[x].next
                y = b.tokens[y].next
            }
            return
        case (.dictionary(let element)?, .object, .object):
            let membersA = a.members(i)
            let membersB = b.members(j)
            // Identity forms sort members by key, so equal key sets are equal key lists.
            guard membersA.map(\.key) == membersB.map(\.key) else { break }
            for (x, y) in zip(membersA, membersB) {
                walk(
                    x.value, y.value, a, b, type: element?.kind,
                    path: path + "/" + JSONPointer.escape(String(decoding: x.key, as: UTF8.self)), into: &found)
            }
            return
        default: break
        }
        found.paths.append(path)
    }

    private func compareMembers(
        _ x: Int?, _ y: Int?, _ a: IdentityForm, _ b: IdentityForm,
        type: CompiledValue.Kind?, path: String, into found: inout Found
    ) {
        switch (x, y) {
        case (nil, nil): return
        case let (x?, y?): walk(x, y, a, b, type: type, path: path, into: &found)
        default: found.paths.append(path)
        }
    }
}
