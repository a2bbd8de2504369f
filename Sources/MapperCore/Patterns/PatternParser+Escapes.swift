// SPDX-License-Identifier: Apache-2.0

// Escapes and character classes, as ECMA-262 reads them with the `u` flag (§22.2.1, `[+UnicodeMode]`):
// only the listed escapes exist, an identity escape is allowed only before a syntax character or `/`
// (and `-` inside a class), `\uD83D\uDE00` is one code point, and a class escape cannot bound a range.

extension PatternParser {
    /// Parses a class `[…]` or `[^…]` starting at the `[`. `[]` matches nothing and `[^]` any code point.
    mutating func parseClass() throws(PatternError) -> PatternCharacterSet {
        let open = position
        position += 1
        let negated = position < scalars.count && scalars[position] == "^"
        if negated { position += 1 }
        var set = PatternCharacterSet()
        while true {
            guard position < scalars.count else {
                throw fail("The character class opened here is never closed.", at: open)
            }
            if scalars[position] == "]" {
                position += 1
                break
            }
            let lowOffset = position
            let low = try parseClassAtom()
            // `-` forms a range unless it is the class's last character (`[a-]`).
            guard position + 1 < scalars.count, scalars[position] == "-", scalars[position + 1] != "]" else {
                switch low {
                case .codePoint(let value): set.insert(value...value)
                case .set(let members): set.formUnion(members)
                }
                continue
            }
            position += 1
            let highOffset = position
            let high = try parseClassAtom()
            guard case .codePoint(let lower) = low else {
                throw fail("A class escape such as \\d cannot be the start of a range.", at: lowOffset)
            }
            guard case .codePoint(let upper) = high else {
                throw fail("A class escape such as \\d cannot be the end of a range.", at: highOffset)
            }
            guard lower <= upper else {
                throw fail("The range's start is after its end.", at: lowOffset)
            }
            set.insert(lower...upper)
        }
        return negated ? set.inverted() : set
    }

    private mutating func parseClassAtom() throws(PatternError) -> Atom {
        if scalars[position] == "\\" { return try parseEscape(inClass: true) }
        position += 1
        return .codePoint(scalars[position - 1].value)
    }

    /// Parses the escape whose `\` is at `position`, outside or inside a class.
    mutating func parseEscape(inClass: Bool) throws(PatternError) -> Atom {
        let offset = position
        position += 1
        guard position < scalars.count else { throw fail("The pattern ends with a lone '\\'.", at: offset) }
        let letter = scalars[position]
        position += 1
        switch letter {
        case "t": return .codePoint(0x09)
        case "n": return .codePoint(0x0A)
        case "v": return .codePoint(0x0B)
        case "f": return .codePoint(0x0C)
        case "r": return .codePoint(0x0D)
        case "0":
            if position < scalars.count, ("0"..."9").contains(scalars[position]) {
                throw fail("'\\0' must not be followed by a digit; octal escapes are not supported.", at: offset)
            }
            return .codePoint(0)
        case "1"..."9":
            throw fail("Backreferences such as \\1 are not supported.", at: offset)
        case "u":
            return .codePoint(try parseUnicodeEscape(at: offset))
        case "d", "D", "w", "W", "s", "S":
            return .set(PatternCharacterSet.classEscape(letter) ?? PatternCharacterSet())
        case "b", "B":
            throw fail("Word-boundary assertions \\b and \\B are not supported.", at: offset)
        case "p", "P":
            throw fail("Unicode property escapes \\p{…} and \\P{…} are not supported.", at: offset)
        case "k":
            throw fail("Named backreferences \\k<name> are not supported.", at: offset)
        case "c":
            throw fail("Control escapes \\cX are not supported.", at: offset)
        case "x":
            throw fail("Hexadecimal escapes \\xHH are not supported; use \\u00HH.", at: offset)
        case "-" where inClass:
            return .codePoint(letter.value)
        case "^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/":
            return .codePoint(letter.value)
        default:
            throw fail(
                "The escape '\\\(letter)' is not supported; a '\\' may precede only t n r f v 0 u d D w W s S "
                    + "or one of ^ $ \\ . * + ? ( ) [ ] { } | /.",
                at: offset)
        }
    }

    /// Parses what follows `\u`: four hex digits (a high surrogate followed by `\u` and a low one combine) or
    /// `{…}` with one or more hex digits up to 10FFFF. A lone surrogate is kept; it matches no valid UTF-8.
    private mutating func parseUnicodeEscape(at offset: Int) throws(PatternError) -> UInt32 {
        if position < scalars.count, scalars[position] == "{" {
            var cursor = position + 1
            var value: UInt32 = 0
            var digits = 0
            while cursor < scalars.count, let digit = hexValue(scalars[cursor]) {
                if value <= PatternCharacterSet.maxCodePoint { value = value << 4 | digit }
                digits += 1
                cursor += 1
            }
            guard digits > 0, cursor < scalars.count, scalars[cursor] == "}" else {
                throw fail("'\\u{' must be followed by hexadecimal digits and '}'.", at: offset)
            }
            guard value <= PatternCharacterSet.maxCodePoint else {
                throw fail("The code point in '\\u{…}' is above U+10FFFF.", at: offset)
            }
            position = cursor + 1
            return value
        }
        guard let value = fourHexDigits(at: position) else {
            throw fail("'\\u' must be followed by four hexadecimal digits or by '{…}'.", at: offset)
        }
        position += 4
        if (0xD800...0xDBFF).contains(value), scalar(at: position) == "\\", scalar(at: position + 1) == "u",
            let low = fourHexDigits(at: position + 2), (0xDC00...0xDFFF).contains(low)
        {
            position += 6
            return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        return value
    }

    private func fourHexDigits(at index: Int) -> UInt32? {
        guard index + 4 <= scalars.count else { return nil }
        var value: UInt32 = 0
        for cursor in index..<index + 4 {
            guard let digit = hexValue(scalars[cursor]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }
}
