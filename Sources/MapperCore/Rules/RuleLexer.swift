// SPDX-License-Identifier: Apache-2.0

/// Splits an expression into tokens (docs/rules.md, "Syntax"): CEL's numbers (`1`, `0x1F`, `1u`, `1.5e3`),
/// strings in all quote forms with the `r` (raw) and `b` (bytes) prefixes and CEL's escapes, identifiers,
/// operators and `//` comments. Works on UTF-8 bytes; offsets are byte offsets.
struct RuleLexer {
    private let bytes: [UInt8]
    private var position = 0

    init(_ source: String) { bytes = Array(source.utf8) }

    static let reserved: Set<String> = [
        "as", "break", "const", "continue", "else", "for", "function", "if", "import", "let", "loop", "package",
        "namespace", "return", "var", "void", "while",
    ]

    /// All tokens, ending with `.end`.
    mutating func tokens() throws(RuleSyntaxError) -> [RuleToken] {
        var result: [RuleToken] = []
        while true {
            let token = try next()
            result.append(token)
            if token.kind == .end { return result }
        }
    }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        position + ahead < bytes.count ? bytes[position + ahead] : nil
    }

    private mutating func next() throws(RuleSyntaxError) -> RuleToken {
        skipSpaceAndComments()
        let start = position
        guard let c = peek() else { return RuleToken(kind: .end, offset: start) }
        if c.isASCIIDigit || (c == UInt8(ascii: ".") && (peek(1)?.isASCIIDigit ?? false)) {
            return RuleToken(kind: try number(), offset: start)
        }
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
            return RuleToken(kind: try quoted(raw: false, isBytes: false), offset: start)
        }
        if c.isIdentifierStart {
            // A string prefix: r, b, rb, br in any case, right before a quote.
            var raw = false, isBytes = false, length = 0
            while length < 2, let p = peek(length), "rRbB".utf8.contains(p) {
                if p | 0x20 == UInt8(ascii: "r") {
                    if raw { break }; raw = true
                } else {
                    if isBytes { break }; isBytes = true
                }
                length += 1
            }
            if length > 0, let q = peek(length), q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                position += length
                return RuleToken(kind: try quoted(raw: raw, isBytes: isBytes), offset: start)
            }
            while let p = peek(), p.isIdentifierStart || p.isASCIIDigit { position += 1 }
            let name = String(decoding: bytes[start..<position], as: UTF8.self)
            if name == "in" { return RuleToken(kind: .symbol("in"), offset: start) }
            return RuleToken(kind: .identifier(name), offset: start)
        }
        if c == UInt8(ascii: "`") {
            // A quoted field name, `a.`b-c``: letters, digits, `_ . - /` and spaces.
            position += 1
            let nameStart = position
            while let p = peek(), p != UInt8(ascii: "`") {
                guard p.isIdentifierStart || p.isASCIIDigit || " ._-/".utf8.contains(p) else {
                    throw RuleSyntaxError(offset: position, message: "invalid character in a quoted field name")
                }
                position += 1
            }
            guard peek() != nil, position > nameStart else {
                throw RuleSyntaxError(offset: start, message: "unterminated quoted field name")
            }
            position += 1
            return RuleToken(
                kind: .quotedName(String(decoding: bytes[nameStart..<position - 1], as: UTF8.self)), offset: start)
        }
        let two = peek(1).map { String(decoding: [c, $0], as: UTF8.self) } ?? ""
        if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
            position += 2
            return RuleToken(kind: .symbol(two), offset: start)
        }
        if "()[]{}.,:?+-*/%!<>".utf8.contains(c) {
            position += 1
            return RuleToken(kind: .symbol(String(UnicodeScalar(c))), offset: start)
        }
        throw RuleSyntaxError(offset: start, message: "unexpected character '\(Self.shown(bytes, at: start))'")
    }

    private static func shown(_ bytes: [UInt8], at offset: Int) -> String {
        var end = offset + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    private mutating func skipSpaceAndComments() {
        while let c = peek() {
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D {
                position += 1
            } else if c == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while let d = peek(), d != 0x0A { position += 1 }
            } else {
                return
            }
        }
    }

    // MARK: - Numbers

    private mutating func number() throws(RuleSyntaxError) -> RuleToken.Kind {
        let start = position
        if peek() == UInt8(ascii: "0"), let x = peek(1), x | 0x20 == UInt8(ascii: "x") {
            position += 2
            let digitsStart = position
            while let d = peek(), d.isHexDigitASCII { position += 1 }
            let text = String(decoding: bytes[digitsStart..<position], as: UTF8.self)
            guard let value = UInt64(text, radix: 16) else {
                throw RuleSyntaxError(offset: start, message: "invalid hexadecimal literal")
            }
            return try integerSuffix(value, start: start)
        }
        var isDouble = false
        while let d = peek(), d.isASCIIDigit { position += 1 }
        if peek() == UInt8(ascii: "."), let d = peek(1), d.isASCIIDigit {
            isDouble = true
            position += 1
            while let d = peek(), d.isASCIIDigit { position += 1 }
        }
        if let e = peek(), e | 0x20 == UInt8(ascii: "e") {
            var ahead = 1
            if let s = peek(1), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { ahead = 2 }
            if let d = peek(ahead), d.isASCIIDigit {
                isDouble = true
                position += ahead
                while let d = peek(), d.isASCIIDigit { position += 1 }
            } else {
                throw RuleSyntaxError(offset: start, message: "invalid exponent in number")
            }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isDouble {
            guard let value = Double(text) else { throw RuleSyntaxError(offset: start, message: "invalid number") }
            return .double(value)
        }
        guard let value = UInt64(text) else {
            throw RuleSyntaxError(offset: start, message: "integer literal \(text) is out of range")
        }
        return try integerSuffix(value, start: start)
    }

    private mutating func integerSuffix(_ value: UInt64, start: Int) throws(RuleSyntaxError) -> RuleToken.Kind {
        if let u = peek(), u | 0x20 == UInt8(ascii: "u") {
            position += 1
            return .uint(value)
        }
        if let c = peek(), c.isIdentifierStart || c == UInt8(ascii: ".") && !(peek(1)?.isIdentifierStart ?? false) {
            throw RuleSyntaxError(offset: position, message: "invalid number")
        }
        return value <= UInt64(Int64.max) ? .int(Int64(value)) : .bigInt(value)
    }

    // MARK: - Strings

    private mutating func quoted(raw: Bool, isBytes: Bool) throws(RuleSyntaxError) -> RuleToken.Kind {
        let start = position
        let quote = bytes[position]
        let triple = peek(1) == quote && peek(2) == quote
        position += triple ? 3 : 1
        var out: [UInt8] = []
        while true {
            guard let c = peek() else { throw RuleSyntaxError(offset: start, message: "unterminated string") }
            if c == quote {
                if !triple { position += 1; break }
                if peek(1) == quote && peek(2) == quote { position += 3; break }
            }
            if !triple, c == 0x0A || c == 0x0D {
                throw RuleSyntaxError(offset: position, message: "line break inside a string")
            }
            if c == UInt8(ascii: "\\") {
                if raw {
                    out.append(c)
                    position += 1
                    continue
                }
                try escape(into: &out, isBytes: isBytes)
                continue
            }
            out.append(c)
            position += 1
        }
        if isBytes { return .bytes(out) }
        return .string(String(decoding: out, as: UTF8.self))
    }

    private mutating func escape(into out: inout [UInt8], isBytes: Bool) throws(RuleSyntaxError) {
        let at = position
        position += 1
        guard let c = peek() else { throw RuleSyntaxError(offset: at, message: "unterminated string") }
        position += 1
        switch c {
        case UInt8(ascii: "\\"), UInt8(ascii: "?"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
            out.append(c)
        case UInt8(ascii: "a"): out.append(0x07)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "v"): out.append(0x0B)
        case UInt8(ascii: "x"), UInt8(ascii: "X"):
            let value = try hexDigits(2, at: at)
            if isBytes { out.append(UInt8(value)) } else { try appendScalar(value, into: &out, at: at) }
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            if isBytes { throw RuleSyntaxError(offset: at, message: "\\u escapes are not allowed in bytes") }
            let value = try hexDigits(c == UInt8(ascii: "u") ? 4 : 8, at: at)
            try appendScalar(value, into: &out, at: at)
        case UInt8(ascii: "0")...UInt8(ascii: "3"):
            var value = UInt32(c - UInt8(ascii: "0"))
            for _ in 0..<2 {
                guard let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "7") else {
                    throw RuleSyntaxError(offset: at, message: "an octal escape needs three digits")
                }
                value = value * 8 + UInt32(d - UInt8(ascii: "0"))
                position += 1
            }
            if isBytes { out.append(UInt8(value)) } else { try appendScalar(value, into: &out, at: at) }
        default:
            throw RuleSyntaxError(offset: at, message: "invalid escape sequence '\\\(UnicodeScalar(c))'")
        }
    }

    private mutating func hexDigits(_ count: Int, at: Int) throws(RuleSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let d = peek(), let digit = d.hexValue else {
                throw RuleSyntaxError(offset: at, message: "escape needs \(count) hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func appendScalar(_ value: UInt32, into out: inout [UInt8], at: Int) throws(RuleSyntaxError) {
        guard let scalar = UnicodeScalar(value) else {
            throw RuleSyntaxError(offset: at, message: "escape is not a Unicode scalar value")
        }
        out.append(contentsOf: String(Character(scalar)).utf8)
    }
}

extension UInt8 {
    fileprivate var isHexDigitASCII: Bool { hexValue != nil }
    fileprivate var isIdentifierStart: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || self == UInt8(ascii: "_")
    }
    fileprivate var hexValue: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x41...0x46: self - 0x41 + 10
        case 0x61...0x66: self - 0x61 + 10
        default: nil
        }
    }
}
