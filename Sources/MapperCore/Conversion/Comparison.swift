// SPDX-License-Identifier: Apache-2.0

extension RegistrySnapshot {
    /// `POST /compare/{Model}` with `{"a": {…}, "b": {…}}` (SEMANTICS.md, "Equality and identity"): both sides
    /// converted in model form, then `{"equal": bool, "differences": ["/path", …]}`; a 422 report with paths under
    /// `/a` and `/b` when either side is invalid.
    public func compare(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        -> Result<Converted, MappingError>
    {
        guard let model = model(named: name) else { return .failure(.unknownModel(name)) }
        var modelOptions = options
        modelOptions.output = .model
        return withTape(body, options) { tokens in
            guard tokens[0].kind == .object else {
                return .failure(.notAnObject("the body must be an object {\"a\": {…}, \"b\": {…}}"))
            }
            var sides: [String: Int] = [:]
            var index = 1
            for _ in 0..<tokens[0].count {
                let name = String(decoding: JSONStrings.decoded(tokens[index], in: body), as: UTF8.self)
                guard name == "a" || name == "b" else {
                    return .failure(.notAnObject("the body may hold only \"a\" and \"b\", not \"\(name)\""))
                }
                guard tokens[index + 1].kind == .object else {
                    return .failure(.notAnObject("member \"\(name)\" must be an object"))
                }
                sides[name] = index + 1
                index = tokens[index + 1].next
            }
            for side in ["a", "b"] where sides[side] == nil {
                return .failure(.notAnObject("member \"\(side)\" must be an object"))
            }
            let a = run(model, body, tokens, index: sides["a"]!, options: modelOptions, recordingBuilt: true)
            let b = run(model, body, tokens, index: sides["b"]!, options: modelOptions, recordingBuilt: true)
            var all = Diagnostics(strict: options.mode == .strict)
            all.append(a.diagnostics, prefix: "/a")
            all.append(b.diagnostics, prefix: "/b")
            if all.errorCount > 0 {
                let result = Array("{\"a\":".utf8) + a.out + Array(",\"b\":".utf8) + b.out + [.closeBrace]
                return .failure(.validationFailed(ValidationReport(
                    model: model.name, built: nil, result: result, entries: all.entries,
                    maxEntries: options.maxReportEntries)))
            }
            var differences: [String] = []
            if a.out != b.out {
                ModelDifference(snapshot: self, a: a, b: b).collect(root: model, into: &differences)
            }
            var out: [UInt8] = Array("{\"equal\":\(a.out == b.out),\"differences\":[".utf8)
            for (i, path) in differences.enumerated() {
                if i > 0 { out.append(.comma) }
                JSONValue.writeString(path, into: &out)
            }
            out.append(contentsOf: "]}".utf8)
            return .success(Converted(body: out, warnings: all.count, modelHash: nil, report: all))
        }
    }
}

/// Walks two model-form outputs side by side and lists the model-form pointers where they differ: descending into
/// models (by declared property), equal-length arrays and dictionaries with the same keys in the same order;
/// anything else that differs is listed once at its own path.
struct ModelDifference {
    let snapshot: RegistrySnapshot
    let a: Run
    let b: Run
    private var tapeA = JSONTape()
    private var tapeB = JSONTape()

    init(snapshot: RegistrySnapshot, a: Run, b: Run) {
        self.snapshot = snapshot
        self.a = a
        self.b = b
        for (bytes, tape) in [(a.out, \ModelDifference.tapeA), (b.out, \ModelDifference.tapeB)] {
            self[keyPath: tape] = (try? JSONTape.scanning(bytes, maxDepth: Int.max).get()) ?? JSONTape()
        }
    }

    func collect(root: CompiledModel, into differences: inout [String]) {
        a.out.withUnsafeBytes { bytesA in
            b.out.withUnsafeBytes { bytesB in
                walk(0, 0, bytesA, bytesB, type: .model(root.id), path: "", into: &differences)
            }
        }
    }

    private func walk(_ i: Int, _ j: Int, _ bytesA: UnsafeRawBufferPointer, _ bytesB: UnsafeRawBufferPointer,
                      type: CompiledValue.Kind?, path: String, into differences: inout [String]) {
        let ta = tapeA.tokens[i]
        let tb = tapeB.tokens[j]
        func raw(_ t: JSONToken, _ bytes: UnsafeRawBufferPointer) -> Slice<UnsafeRawBufferPointer> {
            bytes[t.rawRange]
        }
        if raw(ta, bytesA).elementsEqual(raw(tb, bytesB)) { return }
        switch (type, ta.kind, tb.kind) {
        case (.model?, .object, .object):
            guard let idA = a.builtAt[ta.start], idA == b.builtAt[tb.start] else { break }
            let model = snapshot.model(idA)
            let membersA = members(i, tapeA, bytesA)
            let membersB = members(j, tapeB, bytesB)
            for property in model.properties {
                let childPath = path + "/" + JSONPointer.escape(property.name)
                switch (membersA[property.name], membersB[property.name]) {
                case (nil, nil): continue
                case let (x?, y?): walk(x, y, bytesA, bytesB, type: property.value.kind, path: childPath, into: &differences)
                default: differences.append(childPath)
                }
            }
            return
        case (_, .array, .array) where ta.count == tb.count:
            let element: CompiledValue.Kind?
            switch type {
            case .array(let e)?, .set(let e)?: element = e?.kind
            default: element = nil
            }
            var x = i + 1
            var y = j + 1
            for n in 0..<ta.count {
                walk(x, y, bytesA, bytesB, type: element, path: path + "/" + String(n), into: &differences)
                x = tapeA.tokens[x].next
                y = tapeB.tokens[y].next
            }
            return
        case (.dictionary(let element)?, .object, .object) where ta.count == tb.count:
            let keysA = orderedKeys(i, tapeA, bytesA)
            let keysB = orderedKeys(j, tapeB, bytesB)
            guard keysA.map(\.key) == keysB.map(\.key) else { break }
            for (x, y) in zip(keysA, keysB) {
                walk(x.value, y.value, bytesA, bytesB, type: element?.kind,
                     path: path + "/" + JSONPointer.escape(x.key), into: &differences)
            }
            return
        default: break
        }
        differences.append(path.isEmpty ? "" : path)
    }

    private func orderedKeys(_ index: Int, _ tape: JSONTape, _ bytes: UnsafeRawBufferPointer) -> [(key: [UInt8], value: Int)] {
        var result: [(key: [UInt8], value: Int)] = []
        var k = index + 1
        for _ in 0..<tape.tokens[index].count {
            result.append((JSONStrings.decoded(tape.tokens[k], in: bytes), k + 1))
            k = tape.tokens[k + 1].next
        }
        return result
    }

    private func members(_ index: Int, _ tape: JSONTape, _ bytes: UnsafeRawBufferPointer) -> [String: Int] {
        var result: [String: Int] = [:]
        for (key, value) in orderedKeys(index, tape, bytes) { result[String(decoding: key, as: UTF8.self)] = value }
        return result
    }
}
