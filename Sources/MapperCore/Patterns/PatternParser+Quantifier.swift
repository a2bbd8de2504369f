// SPDX-License-Identifier: Apache-2.0

// Quantifiers: `* + ?` become one postfix operation each; counted forms are expanded by copying the
// repeated term (the run at the end of `ops`):
//
//     x{3}    → x x · x ·            x{2,}  → x x + ·            x{0} → (empty)
//     x{1,3}  → x x ? · x ? ·        x{0,}  → x *
//
// Lazy forms (`*?`, `{2,3}?`, …) accept the same strings, so the trailing `?` is read and dropped.

extension PatternParser {
    /// Reads a quantifier after the term that starts at `ops[start]`, if there is one, and applies it.
    mutating func parseQuantifier(applyingTo start: Int) throws(PatternError) {
        guard position < scalars.count else { return }
        let offset = position
        let minimum: Int
        let maximum: Int?
        switch scalars[position] {
        case "*": (minimum, maximum) = (0, nil)
        case "+": (minimum, maximum) = (1, nil)
        case "?": (minimum, maximum) = (0, 1)
        case "{":
            guard let braces = scanBraces(at: offset) else { throw loneBrace(at: offset) }
            (minimum, maximum) = (braces.minimum, braces.maximum)
            if minimum > Self.repeatLimit || (maximum ?? 0) > Self.repeatLimit {
                throw fail("Repetition counts above 1,000 are not supported.", at: offset)
            }
            if let maximum, minimum > maximum {
                throw fail("The quantifier's minimum \(minimum) is larger than its maximum \(maximum).", at: offset)
            }
            position = braces.end - 1
        default:
            return
        }
        position += 1
        if position < scalars.count, scalars[position] == "?" { position += 1 }
        try repeatTerm(from: start, minimum: minimum, maximum: maximum, at: offset)
    }

    /// Parses `{n}`, `{n,}` or `{n,m}` at `index` without consuming it; nil when the text there is not one of
    /// those forms (a lone `{`, which the `u` flag forbids). Counts saturate so huge numbers cannot overflow.
    func scanBraces(at index: Int) -> (minimum: Int, maximum: Int?, end: Int)? {
        var cursor = index + 1
        guard let minimum = scanDigits(&cursor) else { return nil }
        var maximum: Int? = minimum
        if cursor < scalars.count, scalars[cursor] == "," {
            cursor += 1
            maximum = scanDigits(&cursor)
        }
        guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
        return (minimum, maximum, cursor + 1)
    }

    private func scanDigits(_ cursor: inout Int) -> Int? {
        var value: Int?
        while cursor < scalars.count, let digit = decimalValue(scalars[cursor]) {
            value = min((value ?? 0) * 10 + digit, 1_000_000)
            cursor += 1
        }
        return value
    }

    private func decimalValue(_ scalar: Unicode.Scalar) -> Int? {
        ("0"..."9").contains(scalar) ? Int(scalar.value - 0x30) : nil
    }

    func loneBrace(at offset: Int) -> PatternError {
        fail("A '{' that does not start a quantifier {n}, {n,} or {n,m} must be escaped as '\\{'.", at: offset)
    }

    /// Rewrites the term `ops[start...]` as `minimum` to `maximum` (nil: unbounded) consecutive copies.
    private mutating func repeatTerm(from start: Int, minimum: Int, maximum: Int?, at offset: Int)
        throws(PatternError)
    {
        switch (minimum, maximum) {
        case (0, nil): return try emit(.star, at: offset)
        case (1, nil): return try emit(.plus, at: offset)
        case (0, 1): return try emit(.optional, at: offset)
        case (1, 1): return
        default: break
        }
        let term = takeOps(from: start)
        var copies = 0
        func appendCopy(_ parser: inout PatternParser, suffix: Op?) throws(PatternError) {
            for op in term { try parser.emit(op, at: offset) }
            if let suffix { try parser.emit(suffix, at: offset) }
            if copies > 0 { try parser.emit(.concat, at: offset) }
            copies += 1
        }
        if let maximum {
            for _ in 0..<minimum { try appendCopy(&self, suffix: nil) }
            for _ in minimum..<maximum { try appendCopy(&self, suffix: .optional) }
        } else {
            for _ in 1..<minimum { try appendCopy(&self, suffix: nil) }
            try appendCopy(&self, suffix: .plus)
        }
        if copies == 0 { try emit(.empty, at: offset) }
    }
}
