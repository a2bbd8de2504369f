// SPDX-License-Identifier: Apache-2.0

/// The identity form of a converted model (docs/api.md, "Equality and identity"): the bytes that `X-Model-Hash`
/// digests and `/compare` compares, so that two models are equal exactly when their identity forms are.
///
/// It is made from the model form after the conversion, never on the conversion's own path, so only requests
/// that ask for a hash or a comparison pay for it. The model form `{"n":1.50,"tags":["b","a"],"m":{"y":1,"x":2}}`
/// of a model `M` (`n: number`, `tags: set of string`, `m: dictionary`) becomes
///
///     {"$model":"M","n":1.5,"tags":["a","b"],"m":{"x":2,"y":1}}
///
/// - every object read as a model starts with `"$model"`: the model actually built (`classForDictionary`'s
///   choice, from `builtAt`), then its properties in declaration order, then any member that is no property of
///   that model (kept unknown keys) as `any`, sorted by key bytes;
/// - set elements are sorted by their identity bytes, dictionary and `any`-object members by key bytes;
/// - every number is written from its exact value's shortest digits in the ECMAScript layout (`1.50` → `1.5`,
///   `1e400` → `1e+400`, `100` → `100`), whatever its type; a bool stays a bool.
struct IdentityForm {
    let snapshot: RegistrySnapshot
    /// The model built for each model object, by the offset of its `{` in the converter's output.
    let builtAt: [Int: Int]
    /// The offset of `bytes` in the converter's output (a set element is a span of it).
    let base: Int
    let bytes: UnsafeRawBufferPointer
    let tokens: [JSONToken]

    /// The identity form of the model form `modelForm`, built as `model` unless `builtAt` says otherwise.
    static func of(_ modelForm: [UInt8], as model: CompiledModel, builtAt: [Int: Int], in snapshot: RegistrySnapshot)
        -> [UInt8]
    {
        of(modelForm, as: .model(model.id), builtAt: builtAt, base: 0, in: snapshot)
    }

    /// The identity form of canonical output bytes holding one value of `kind` (nil: `any`), written at offset
    /// `base` of the converter's output.
    static func of(
        _ canonical: [UInt8], as kind: CompiledValue.Kind?, builtAt: [Int: Int], base: Int,
        in snapshot: RegistrySnapshot
    ) -> [UInt8] {
        guard case .success(let tape) = JSONTape.scanning(canonical, maxDepth: Int.max) else { return canonical }
        var out: [UInt8] = []
        out.reserveCapacity(canonical.count + 32)
        canonical.withUnsafeBytes { bytes in
            let form = IdentityForm(snapshot: snapshot, builtAt: builtAt, base: base, bytes: bytes, tokens: tape.tokens)
            form.write(0, as: kind, into: &out)
        }
        return out
    }

    /// Writes the value at token `index`, read as `kind` (nil: `any`).
    func write(_ index: Int, as kind: CompiledValue.Kind?, into out: inout [UInt8]) {
        let token = tokens[index]
        switch (kind, token.kind) {
        case (.model(let declared)?, .object):
            writeModel(index, snapshot.model(builtAt[base + token.start] ?? declared), into: &out)
        case (.set(let element)?, .array):
            var elements: [[UInt8]] = []
            var child = index + 1
            for _ in 0..<token.count {
                var bytes: [UInt8] = []
                write(child, as: element?.kind, into: &bytes)
                elements.append(bytes)
                child = tokens[child].next
            }
            elements.sort { $0.lexicographicallyPrecedes($1) }
            out.append(.openBracket)
            for (i, bytes) in elements.enumerated() {
                if i > 0 { out.append(.comma) }
                out.append(contentsOf: bytes)
            }
            out.append(.closeBracket)
        case (_, .array):
            let element: CompiledValue.Kind?
            if case .array(let e)? = kind { element = e?.kind } else { element = nil }
            out.append(.openBracket)
            var child = index + 1
            for i in 0..<token.count {
                if i > 0 { out.append(.comma) }
                write(child, as: element, into: &out)
                child = tokens[child].next
            }
            out.append(.closeBracket)
        case (_, .object):
            let element: CompiledValue.Kind?
            if case .dictionary(let e)? = kind { element = e?.kind } else { element = nil }
            out.append(.openBrace)
            writeSortedMembers(members(index), as: element, into: &out)
            out.append(.closeBrace)
        case (_, .number):
            Self.writeNumber(UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end]), into: &out)
        default:
            out.append(contentsOf: bytes[token.rawRange])
        }
    }

    /// `{"$model":"Name"`, the properties in declaration order, then other members sorted by key.
    private func writeModel(_ index: Int, _ model: CompiledModel, into out: inout [UInt8]) {
        out.append(contentsOf: "{\"$model\":".utf8)
        JSONStrings.writeQuoted(Array(model.name.utf8), into: &out)
        var others: [(key: [UInt8], value: Int)] = []
        var cursor = 0  // members follow the declaration order, so the next property is usually the match
        for member in members(index) {
            let properties = model.properties
            let found =
                (cursor..<properties.count).first { properties[$0].name.utf8.elementsEqual(member.key) }
                ?? (0..<cursor).first { properties[$0].name.utf8.elementsEqual(member.key) }
            guard let found else {
                others.append(member)
                continue
            }
            cursor = found + 1
            out.append(.comma)
            JSONStrings.writeQuoted(member.key, into: &out)
            out.append(.colon)
            write(member.value, as: properties[found].value.kind, into: &out)
        }
        if !others.isEmpty {
            out.append(.comma)
            writeSortedMembers(others, as: nil, into: &out)
        }
        out.append(.closeBrace)
    }

    /// `"key":value` pairs sorted by key bytes, separated by commas.
    private func writeSortedMembers(
        _ members: [(key: [UInt8], value: Int)], as element: CompiledValue.Kind?,
        into out: inout [UInt8]
    ) {
        for (i, member) in members.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }).enumerated() {
            if i > 0 { out.append(.comma) }
            JSONStrings.writeQuoted(member.key, into: &out)
            out.append(.colon)
            write(member.value, as: element, into: &out)
        }
    }

    /// The object's members as decoded keys and value token indexes, in order.
    func members(_ index: Int) -> [(key: [UInt8], value: Int)] {
        var result: [(key: [UInt8], value: Int)] = []
        var key = index + 1
        for _ in 0..<tokens[index].count {
            result.append((JSONStrings.decoded(tokens[key], in: bytes), key + 1))
            key = tokens[key + 1].next
        }
        return result
    }

    /// A number from its exact value's shortest digits d₁…dₖ (value 0.d₁…dₖ × 10ⁿ) in ECMAScript's layout: plain
    /// for 1e-6 ≤ |x| < 1e21 (`100`, `1.5`, `0.000001`), otherwise `d.ddde±x` (`1e+21`, `1.5e-7`); zero is `0`.
    static func writeNumber(_ text: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        let number = NumberText.Anatomy(text)
        guard !number.isZero else {
            out.append(NumberText.Byte.zero)
            return
        }
        let point = number.pointPosition
        // An exponent beyond 10^30 (saturated) cannot be laid out from its value: such a number keeps its text.
        guard point.magnitude < NumberText.Anatomy.exponentLimit.magnitude / 2 else {
            out.append(contentsOf: text)
            return
        }
        if number.negative { out.append(NumberText.Byte.minus) }
        let count = number.significantCount
        func digits(_ range: Range<Int>) {
            for offset in range { out.append(NumberText.Byte.zero + number.significantDigit(offset)) }
        }
        if Int128(count) <= point && point <= 21 {
            digits(0..<count)
            out.append(contentsOf: repeatElement(NumberText.Byte.zero, count: Int(point) - count))
        } else if 0 < point && point <= 21 {
            digits(0..<Int(point))
            out.append(NumberText.Byte.dot)
            digits(Int(point)..<count)
        } else if -6 < point && point <= 0 {
            out.append(NumberText.Byte.zero)
            out.append(NumberText.Byte.dot)
            out.append(contentsOf: repeatElement(NumberText.Byte.zero, count: Int(-point)))
            digits(0..<count)
        } else {
            digits(0..<1)
            if count > 1 {
                out.append(NumberText.Byte.dot)
                digits(1..<count)
            }
            out.append(NumberText.Byte.lowerE)
            if point - 1 >= 0 { out.append(NumberText.Byte.plus) }
            out.append(contentsOf: String(point - 1).utf8)
        }
    }
}
