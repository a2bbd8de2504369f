// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// `array` and `set`: without an element type the array as is (each element written as is, for a set); with
    /// one, each element converted and dropped (`element_dropped`, the cause in the message) when it gives no value
    /// or only the implicit default. A set then removes elements whose identity bytes (`IdentityForm`: the output
    /// bytes for most scalars) equal an earlier element's.
    mutating func convertArray(_ ref: ValueRef, element: CompiledValue?, deduplicate: Bool) -> TypeCoercion.Result {
        guard element != nil || deduplicate else {
            writeAny(ref)
            return .value
        }
        let document = documents[ref.document]
        let count = document.tokens[ref.index].count
        out.append(.openBracket)
        var keptCount = 0
        // A set's kept elements, by their output bytes. An array keeps none (it only counts), and makes and
        // destroys no containers: destroying one, even empty, is a runtime call.
        var kept: KeptElements? = deduplicate ? KeptElements() : nil
        var index = ref.index + 1
        // Borrowed for the loop: `element` outlives the call, and binding it per element would cost an atomic retain
        // and release each time.
        let typed = element.map { Unmanaged.passUnretained($0) }
        for i in 0..<count {
            path.push(.index(i))
            let elementStart = out.count
            if keptCount > 0 { out.append(.comma) }
            let valueStart = out.count
            let item = ValueRef(document: ref.document, index: index)
            let result: TypeCoercion.Result
            if let typed {
                result = typed.borrowed { convert(item, as: $0) }
            } else {
                writeAny(item)
                result = .value
            }
            // The issue read once into a local: then the optimiser sees it is nil on the common path and releases
            // nothing there. Read from `result` in each branch, it cost a runtime call (a release of nil) per
            // element.
            let issue = result.issue
            if result.outcome != .value {
                out.truncate(to: elementStart)
                warn(.elementDropped(cause: issue, noValue: result.outcome == .noValue))
            } else if deduplicate, isDuplicate(valueStart..<out.count, as: element?.kind, of: &kept!) {
                out.truncate(to: elementStart)
                if let issue { warn(issue) }
            } else {
                if let issue { warn(issue) }
                keptCount += 1
                if deduplicate { kept!.ranges.append(valueStart..<out.count) }
            }
            path.pop()
            index = document.tokens[index].next
        }
        out.append(.closeBracket)
        return .value
    }

    /// `set`: `convertArray` removing repeated elements; where they compare by identity bytes, recording which
    /// model each element built, for its identity. Out of line, so that `convert` inlines `convertArray` for
    /// arrays as it did before sets had this step (inlined, it cost every conversion instructions: docs/performance.md).
    @inline(never)
    mutating func convertSet(_ ref: ValueRef, element: CompiledValue?) -> TypeCoercion.Result {
        let recorded = recordsBuilt
        if Self.identityDiffersFromOutput(element?.kind) { recordsBuilt = true }
        defer {
            recordsBuilt = recorded
            // Recorded only for this set: dropped once it is done, so a long batch or stream does not pile them up.
            if !recorded { builtAt.removeAll(keepingCapacity: true) }
        }
        return convertArray(ref, element: element, deduplicate: true)
    }

    /// A set's kept elements: where each was written, and their indexes by a hash of their bytes, each with its
    /// identity bytes when those are compared instead of the output bytes (else empty).
    struct KeptElements {
        var ranges: [Range<Int>] = []
        var byHash: [Int: [(index: Int, identity: [UInt8])]] = [:]
    }

    /// Whether the identity bytes of an element of `kind` can differ from its output bytes: numbers kept as
    /// written, `any`, dictionaries and models (sorted members, `$model`), and containers of those.
    static func identityDiffersFromOutput(_ kind: CompiledValue.Kind?) -> Bool {
        switch kind {
        case nil, .number?, .any?, .dictionary?, .model?: true
        case .array(let element)?, .set(let element)?: identityDiffersFromOutput(element?.kind)
        default: false
        }
    }

    /// Whether `span` of `out`, an element of `kind`, repeats a kept element, comparing identity bytes where those
    /// can differ from the output bytes; remembers it otherwise (the caller keeps its range).
    private func isDuplicate(_ span: Range<Int>, as kind: CompiledValue.Kind?, of kept: inout KeptElements) -> Bool {
        let byIdentity = Self.identityDiffersFromOutput(kind)
        let identity =
            byIdentity
            ? IdentityForm.of(Array(out.bytes(span)), as: kind, builtAt: builtAt, base: span.lowerBound, in: snapshot)
            : []
        return identity.withUnsafeBytes { identityBytes in
            let bytes = byIdentity ? identityBytes : out.bytes(span)
            var hasher = Hasher()
            hasher.combine(bytes.count)
            hasher.combine(bytes: bytes)
            let hash = hasher.finalize()
            if let candidates = kept.byHash[hash],
                candidates.contains(where: {
                    byIdentity
                        ? $0.identity.elementsEqual(bytes) : out.bytes(kept.ranges[$0.index]).elementsEqual(bytes)
                })
            {
                return true
            }
            kept.byHash[hash, default: []].append((kept.ranges.count, identity))
            return false
        }
    }

    /// `dictionary`: keys kept (duplicates resolved), each value converted as an element when typed.
    mutating func convertDictionary(_ ref: ValueRef, element: CompiledValue?) -> TypeCoercion.Result {
        guard let element else {
            writeAny(ref)
            return .value
        }
        out.append(.openBrace)
        var first = true
        for member in resolvedMembers(ref) {
            pushMember(document: ref.document, keyToken: member.key)
            let memberStart = out.count
            if !first { out.append(.comma) }
            let document = documents[ref.document]
            JSONStrings.writeQuoted(document.tokens[member.key], in: document.bytes, into: &out)
            out.append(.colon)
            let result = convert(ValueRef(document: ref.document, index: member.key + 1), as: element)
            let issue = result.issue  // (read once: see convertArray)
            if result.outcome != .value {
                out.truncate(to: memberStart)
                warn(.elementDropped(cause: issue, noValue: result.outcome == .noValue))
            } else {
                if let issue { warn(issue) }
                first = false
            }
            path.pop()
        }
        out.append(.closeBrace)
        return .value
    }

    /// The members of an object with duplicate keys resolved — the last value at the first key's position — as
    /// key token indexes (value = key + 1). Records `duplicate_key` for each repeated key.
    mutating func resolvedMembers(_ ref: ValueRef) -> [(key: Int, order: Int)] {
        let document = documents[ref.document]
        let count = document.tokens[ref.index].count
        var members: [(key: Int, order: Int)] = []
        members.reserveCapacity(count)
        var index = ref.index + 1
        for i in 0..<count {
            members.append((index, i))
            index = document.tokens[index + 1].next
        }
        guard count > 1 else { return members }
        var positions: [[UInt8]: Int] = [:]
        var result: [(key: Int, order: Int)] = []
        var duplicates: [Int] = []
        for member in members {
            let key = documents.decodedKey(ref.document, member.key)
            if let at = positions[key] {
                result[at].key = member.key
                duplicates.append(member.key)
            } else {
                positions[key] = result.count
                result.append(member)
            }
        }
        for keyToken in duplicates {
            diagnostics.warn(
                memberPointer(ref.document, keyToken), .duplicateKey(documents.decodedKey(ref.document, keyToken)))
        }
        return result
    }

    /// The keys that repeat in the object at `ref`, each once, with the pointer of its last occurrence.
    mutating func duplicateKeys(_ ref: ValueRef) -> [(key: [UInt8], pointer: String)] {
        let document = documents[ref.document]
        var last: [[UInt8]: (token: Int, count: Int)] = [:]
        var order: [[UInt8]] = []
        var index = ref.index + 1
        for _ in 0..<document.tokens[ref.index].count {
            let key = documents.decodedKey(ref.document, index)
            if let seen = last[key] {
                last[key] = (index, seen.count + 1)
            } else {
                last[key] = (index, 1)
                order.append(key)
            }
            index = document.tokens[index + 1].next
        }
        return order.compactMap { key in
            guard let entry = last[key], entry.count > 1 else { return nil }
            return (key, memberPointer(ref.document, entry.token))
        }
    }

    /// `any` and untyped containers: the value re-written canonically (compact, strings re-escaped, number text
    /// and key order kept, duplicate keys resolved).
    mutating func writeAny(_ ref: ValueRef) {
        let document = documents[ref.document]
        let token = document.tokens[ref.index]
        switch token.kind {
        case .null, .true, .false, .number: out.append(contentsOf: document.bytes[token.start..<token.end])
        case .string: JSONStrings.writeQuoted(token, in: document.bytes, into: &out)
        case .array:
            out.append(.openBracket)
            var index = ref.index + 1
            for i in 0..<token.count {
                if i > 0 { out.append(.comma) }
                path.push(.index(i))
                writeAny(ValueRef(document: ref.document, index: index))
                path.pop()
                index = document.tokens[index].next
            }
            out.append(.closeBracket)
        case .object:
            out.append(.openBrace)
            for (i, member) in resolvedMembers(ref).enumerated() {
                if i > 0 { out.append(.comma) }
                JSONStrings.writeQuoted(document.tokens[member.key], in: document.bytes, into: &out)
                out.append(.colon)
                pushMember(document: ref.document, keyToken: member.key)
                writeAny(ValueRef(document: ref.document, index: member.key + 1))
                path.pop()
            }
            out.append(.closeBrace)
        }
    }
}
