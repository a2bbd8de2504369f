// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// Stage 3 of a model's report: `unknown_key` (under `unknownKeys: reject`) and `duplicate_key` entries for keys
    /// that no property reads, sorted bytewise by key.
    /// `unusual.strayDuplicates` are repeated keys no property used (found through the key slots or merged by a
    /// rebuild); the key tokens no property read are the frame of the `unread` stack at `unreadFrame`.
    mutating func reportStrayKeys(
        of model: CompiledModel, requestedAs declared: CompiledModel, object: ValueRef,
        unreadFrame: Int, unusual: UnusualObjectState?, frame: Int
    ) {
        let rejects = model.rejectsUnknownKeys
        let document = documents[object.document]
        let unreadKeys = unreadFrame..<unread.top
        let hasDuplicates = unusual.map { !$0.strayDuplicates.isEmpty } ?? false
        guard rejects || hasDuplicates || Self.mayRepeat(unreadKeys, of: unread, in: document) else { return }
        var entries: [(key: [UInt8], code: DiagnosticCode, path: String, message: String)] = []
        for (key, pointer) in unusual?.strayDuplicates ?? [] {
            entries.append((key, .duplicateKey, pointer, Issue.duplicateKey(key).message))
        }
        var seen: [[UInt8]: Int] = [:]
        for position in unreadKeys {
            let keyToken = unread[position]
            let key = documents.decodedKey(object.document, keyToken)
            let pointer = memberPointer(object.document, keyToken)
            seen[key, default: 0] += 1
            if seen[key] == 2 {
                entries.append((key, .duplicateKey, pointer, Issue.duplicateKey(key).message))
            }
            if rejects, seen[key] == 1, !reads(key, model: model, declared: declared) {
                entries.append((key, .unknownKey, pointer, "unknown key \"\(String(decoding: key, as: UTF8.self))\""))
            }
        }
        if rejects && !fromModel {
            // Stray keys inside objects that a key path walks through.
            for (key, node) in model.readTrie.children where !node.isTerminal {
                guard let id = model.wireKeys.id(of: key), slots[frame + id] >= 0 else { continue }
                pushMember(document: object.document, keyToken: slots[frame + id])
                collectStray(
                    node, in: ValueRef(document: object.document, index: slots[frame + id] + 1), into: &entries)
                path.pop()
            }
        }
        // Sorted bytewise by key; for one key, unknown_key before duplicate_key.
        entries.sort { a, b in
            a.key != b.key ? a.key.lexicographicallyPrecedes(b.key) : (a.code == .unknownKey && b.code != .unknownKey)
        }
        for entry in entries {
            diagnostics.record(
                entry.path, entry.code, entry.message, isError: entry.code == .unknownKey || diagnostics.strict)
        }
    }

    private mutating func collectStray(
        _ node: KeyTrie, in ref: ValueRef,
        into entries: inout [(key: [UInt8], code: DiagnosticCode, path: String, message: String)]
    ) {
        let document = documents[ref.document]
        let token = document.tokens[ref.index]
        guard token.kind == .object else { return }
        var index = ref.index + 1
        for _ in 0..<token.count {
            let key = JSONStrings.decoded(document.tokens[index], in: document.bytes)
            let pointer = memberPointer(ref.document, index)
            if let child = node.children[key] {
                if !child.isTerminal {
                    pushMember(document: ref.document, keyToken: index)
                    collectStray(child, in: ValueRef(document: ref.document, index: index + 1), into: &entries)
                    path.pop()
                }
            } else {
                entries.append((key, .unknownKey, pointer, "unknown key \"\(String(decoding: key, as: UTF8.self))\""))
            }
            index = document.tokens[index + 1].next
        }
    }

    /// Whether two of the keys may be equal: exact for a few keys without escapes (their raw bytes are then
    /// their decoded bytes, so two keys are equal when their lengths and bytes are), otherwise `true`, leaving the
    /// answer to the full pass. Keys of different lengths, the usual case, are settled in one pass over their
    /// lengths; only a repeated length leads to comparing bytes, pair by pair.
    private static func mayRepeat(
        _ positions: Range<Int>, of keyTokens: FrameStack<Int>,
        in document: DocumentStack.Document
    ) -> Bool {
        guard positions.count > 1 else { return false }
        guard positions.count <= 32, let bytes = document.bytes.baseAddress else { return true }
        let tokens = document.tokens
        var lengths: UInt64 = 0  // bit `min(n, 63)` set when a key is `n` bytes long
        var lengthRepeats = false
        for i in positions {
            let key = tokens[keyTokens[i]]
            if key.hasEscapes { return true }
            let bit: UInt64 = 1 << UInt64(min(key.end - key.start, 63))
            if lengths & bit != 0 {
                lengthRepeats = true
                break
            }
            lengths |= bit
        }
        guard lengthRepeats else { return false }
        for i in positions {
            let a = tokens[keyTokens[i]]
            if a.hasEscapes { return true }
            let length = a.end - a.start
            for j in positions.lowerBound..<i {
                let b = tokens[keyTokens[j]]
                if b.end - b.start == length, memcmpEqual(bytes + a.start, bytes + b.start, length) { return true }
            }
        }
        return false
    }

    /// Whether some property, predicate or step of the model reads `key` (property names, in model-form input).
    func reads(_ key: [UInt8], model: CompiledModel, declared: CompiledModel) -> Bool {
        if fromModel { return model.modelReadKeys.contains(key) || declared.modelReadKeys.contains(key) }
        return model.readTrie.children[key] != nil || declared.readTrie.children[key] != nil
    }

    /// The pointer of the member whose key token is `keyToken`, below the current path.
    mutating func memberPointer(_ document: Int, _ keyToken: Int) -> String {
        pushMember(document: document, keyToken: keyToken)
        defer { path.pop() }
        return path.render(documents)
    }

    /// Stage 4: `required` and `requireAny`. The object's flags are the frame of the `holds` stack at `base`;
    /// `unusual.failedAt` holds the input pointer of each required property that was present but holds no value.
    mutating func checkRules(of model: CompiledModel, holdsFrame base: Int, unusual: UnusualObjectState?) {
        for index in model.required where !holds[base + index] {
            let property = model.properties[index]
            if let pointer = unusual?.failedAt[index] {
                diagnostics.record(pointer, .missingRequired, "\(property.name) is required", isError: true)
                continue
            }
            let key = fromModel ? [Array(property.name.utf8)] : property.keys[0].components
            let depth = path.depth
            for component in key { path.push(.literal(component)) }
            fail(.missingRequired, "\(property.name) is required")
            path.truncate(to: depth)
        }
        for group in model.requireAny where !group.indexes.contains(where: { holds[base + $0] }) {
            fail(.ruleFailed, "at least one of \(group.names.joined(separator: ", ")) must hold a value")
        }
    }

    // MARK: - Constraints

    /// Checks a converted value against its constraints; the value's canonical bytes start at `written`.
    mutating func checkConstraints(
        _ c: CompiledConstraints, value: CompiledValue, token: JSONToken,
        bytes: UnsafeRawBufferPointer, written: Int, instant: Instant
    ) {
        let canonical = out.written(from: written)
        if case .date = value.kind {
            if let minimum = c.minimumInstant, instant < minimum {
                fail(.constraintFailed, "\(shown(canonical)) is before the minimum \(c.minimumText)")
            }
            if let maximum = c.maximumInstant, instant > maximum {
                fail(.constraintFailed, "\(shown(canonical)) is after the maximum \(c.maximumText)")
            }
        } else if c.minimum != nil || c.maximum != nil, let lead = canonical.first,
            lead == UInt8(ascii: "-") || lead.isASCIIDigit
        {
            canonical.withUnsafeBytes { number in
                if let minimum = c.minimum, minimum.withUnsafeBytes({ NumberText.compare(number, $0) }) < 0 {
                    fail(.constraintFailed, "\(shown(canonical)) is less than the minimum \(c.minimumText)")
                }
                if let maximum = c.maximum, maximum.withUnsafeBytes({ NumberText.compare(number, $0) }) > 0 {
                    fail(.constraintFailed, "\(shown(canonical)) is greater than the maximum \(c.maximumText)")
                }
            }
        }
        if c.minLength != nil || c.maxLength != nil {
            let length = Self.length(of: canonical, kind: value.kind)
            if let minLength = c.minLength, length < minLength {
                fail(.constraintFailed, "length \(length) is less than minLength \(minLength)")
            }
            if let maxLength = c.maxLength, length > maxLength {
                fail(.constraintFailed, "length \(length) is greater than maxLength \(maxLength)")
            }
        }
        if let pattern = c.pattern {
            let text = Self.decodedString(canonical)
            if !text.withUnsafeBytes({ pattern.matches($0) }) {
                fail(.constraintFailed, "\(shown(canonical)) does not match the pattern \(pattern.source)")
            }
        }
        if let options = c.enumValues, !options.contains(canonical) {
            fail(.constraintFailed, "\(shown(canonical)) is not one of the allowed values")
        }
    }

    private func shown(_ canonical: [UInt8]) -> String { ValueDescription.shown(canonical) }

    /// Code points of a string, elements of a container (both read from canonical bytes).
    static func length(of canonical: [UInt8], kind: CompiledValue.Kind) -> Int {
        switch kind {
        case .array, .set, .dictionary:
            guard case .success(let tape) = JSONTape.scanning(canonical, maxDepth: 2048) else { return 0 }
            return tape.tokens[0].count
        default:
            return decodedString(canonical).reduce(0) { $0 + ($1.isUTF8Continuation ? 0 : 1) }
        }
    }

    /// The decoded UTF-8 of a canonical JSON string (its escapes are only the canonical few).
    static func decodedString(_ canonical: [UInt8]) -> [UInt8] {
        var decoded: [UInt8] = []
        guard case .success(let tape) = JSONTape.scanning(canonical, maxDepth: 1), tape.tokens[0].kind == .string
        else { return decoded }
        canonical.withUnsafeBytes { JSONStrings.decode(tape.tokens[0], in: $0, into: &decoded) }
        return decoded
    }
}
