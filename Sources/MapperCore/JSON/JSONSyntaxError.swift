// SPDX-License-Identifier: Apache-2.0
//
// Why and where a body is not JSON. The position is a byte offset (docs/errors.md, "HTTP errors": the 0-based offset of
// the first byte that cannot be accepted; the input length when the input ends too early); line and column are derived
// from it only when an error response is rendered, so the scanner's happy path never counts lines.
//
// Offset conventions, where "the first byte that cannot be accepted" needs a decision:
// - invalid UTF-8: the first byte of the bad sequence (its lead byte, or the stray continuation byte);
// - an unknown escape `\x`: the byte after the backslash; a bad `\u` digit: that digit;
// - a lone surrogate escape: the backslash of that `\uXXXX` (for a high surrogate not followed by a low one, the
//   high one's backslash);
// - a leading zero (`01`): the digit after the zero; a missing digit (`-x`, `1.x`, `1ex`): the byte found instead;
// - a bad literal (`trux`): the first byte that differs from `true` / `false` / `null`;
// - nesting too deep: the `[` or `{` that opens the container beyond the limit.
// Whenever the bytes run out — even inside a string, an escape, a UTF-8 sequence, a number or a literal — the
// reason is `unexpectedEnd` at the input length, so every proper prefix of a valid body fails the same way.

/// A JSON syntax error: what is wrong, and the byte offset where it was found.
struct JSONSyntaxError: Error, Equatable, Sendable {
    /// What the scanner needed when it found something else (or nothing).
    enum Expectation: Equatable, Sendable {
        /// The top-level JSON value.
        case value
        /// A member's value, after `:`.
        case valueAfterColon
        /// A value or `]`, just after `[`.
        case valueOrArrayEnd
        /// A value after `,` in an array (so `[1,]` is a trailing comma).
        case valueAfterComma
        /// A `"`-quoted key or `}`, just after `{`.
        case keyOrObjectEnd
        /// A `"`-quoted key after `,` in an object.
        case keyAfterComma
        /// The `:` after a key.
        case colon
        /// `,` or `]` after an array element.
        case commaOrArrayEnd
        /// `,` or `}` after an object member.
        case commaOrObjectEnd
        /// More of a string, up to its closing `"`.
        case stringEnd
        /// The byte after `\` in a string.
        case escapedCharacter
        /// One of the four hex digits of a `\u` escape.
        case hexDigit
        /// The `\uDC00`–`\uDFFF` escape that must follow a high surrogate escape.
        case lowSurrogate
        /// The continuation bytes of a multi-byte UTF-8 sequence.
        case utf8Continuation
        /// A digit of a number.
        case digit
        /// The rest of the literal `true`, `false` or `null`.
        case literal(JSONKind)
        /// The rest of a UTF-8 byte-order mark.
        case byteOrderMark
    }

    /// The rule of the number grammar (RFC 8259 §6) that a number breaks.
    enum NumberProblem: Equatable, Sendable {
        /// `01`, `-00`: a number's integer part has a leading zero.
        case leadingZero
        /// `+1`, `.5`: a number must start with `-` or a digit.
        case invalidStart
        /// `-x`: a `-` must be followed by a digit.
        case missingIntegerDigit
        /// `1.`, `1.e3`: a `.` must be followed by a digit.
        case missingFractionDigit
        /// `1e`, `1e+`: an exponent needs a digit.
        case missingExponentDigit
    }

    /// Why the input is not accepted.
    enum Reason: Equatable, Sendable {
        /// A byte that no rule accepts here.
        case unexpectedByte(UInt8, expected: Expectation)
        /// The input ended while `expected` was still needed.
        case unexpectedEnd(expected: Expectation)
        /// A byte sequence that is not UTF-8 (overlong, surrogate, above U+10FFFF, truncated); carries the first byte
        /// that cannot be accepted (a bad lead byte, or the byte after a valid lead that breaks the sequence).
        case invalidUTF8(UInt8)
        /// `\` followed by a byte that starts no escape.
        case invalidEscape(UInt8)
        /// A `\u` escape with a byte that is not a hex digit.
        case invalidUnicodeEscape(UInt8)
        /// A `\uD800`–`\uDFFF` escape that is not part of a high-then-low pair; carries the code unit.
        case loneSurrogate(UInt16)
        /// An unescaped U+0000–U+001F byte inside a string.
        case controlCharacterInString(UInt8)
        /// A number that breaks the grammar.
        case invalidNumber(NumberProblem)
        /// A literal that is not exactly `true`, `false` or `null`; carries the literal its first byte announced.
        case invalidLiteral(JSONKind)
        /// A byte after the one top-level value (RFC 8259 §2: a JSON text is exactly one value).
        case trailingContent(UInt8)
        /// More nested arrays and objects than the limit (the top-level container is depth 1).
        case nestingTooDeep(limit: Int)
    }

    /// What is wrong.
    var reason: Reason
    /// The 0-based offset of the first byte that cannot be accepted (for an unexpected end: the input length).
    var offset: Int

    init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// True when the input nests deeper than the limit (answered as `nesting_too_deep`, not `invalid_json`).
    var isNestingTooDeep: Bool {
        if case .nestingTooDeep = reason { return true }
        return false
    }

    /// The 1-based line (lines split at LF) and 1-based column (counted in bytes) of `offset` in `bytes`, the input
    /// that was scanned. Costs a pass over the bytes before `offset`, so call it only to report the error.
    func location(in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == .lineFeed {
            line += 1
            lineStart = index + 1
        }
        return (line, end - lineStart + 1)
    }
}

extension JSONSyntaxError: CustomStringConvertible {
    /// The sentence for a JSON document inside a request body or a file: where it fails, then `description`.
    var located: String { "invalid JSON at byte \(offset): \(description)" }

    /// One full sentence for the `message` of an `invalid_json` / `nesting_too_deep` error body.
    var description: String {
        switch reason {
        case .unexpectedByte(let byte, let expected):
            return "Unexpected \(Self.render(byte))\(expected.location); expected \(expected.summary)."
        case .unexpectedEnd(let expected):
            return "The input ends too early\(expected.location); expected \(expected.summary)."
        case .invalidUTF8(let byte):
            return "Byte \(Self.hex(byte)) is not valid UTF-8 here."
        case .invalidEscape(let byte):
            return "Invalid escape in a string: \(Self.render(byte)) cannot follow '\\'; "
                + "the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX."
        case .invalidUnicodeEscape(let byte):
            return "Invalid \\u escape in a string: \(Self.render(byte)) is not a hexadecimal digit."
        case .loneSurrogate(let unit):
            return "Lone surrogate escape \\u\(Self.hex4(unit)) in a string; a high surrogate \\uD800–\\uDBFF "
                + "must be followed by a low surrogate \\uDC00–\\uDFFF."
        case .controlCharacterInString(let byte):
            return "Unescaped control character U+00\(Self.hex2(byte)) in a string; U+0000–U+001F must be escaped."
        case .invalidNumber(let problem):
            return "Invalid number: \(problem.summary)."
        case .invalidLiteral(let kind):
            return "Invalid literal; expected '\(Self.literalText(kind))'."
        case .trailingContent(let byte):
            return "Unexpected \(Self.render(byte)) after the top-level value; a JSON text holds exactly one value."
        case .nestingTooDeep(let limit):
            return "Arrays and objects are nested deeper than the limit of \(limit) levels."
        }
    }

    /// `byte 'x'` for printable ASCII, `byte 0x0B` otherwise.
    static func render(_ byte: UInt8) -> String {
        if byte > .space && byte < 0x7F {
            return "byte '\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte \(hex(byte))"
    }

    static func hex(_ byte: UInt8) -> String { "0x" + hex2(byte) }

    static func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    static func hex4(_ unit: UInt16) -> String { hex2(UInt8(unit >> 8)) + hex2(UInt8(unit & 0xFF)) }

    static func literalText(_ kind: JSONKind) -> String {
        switch kind {
        case .true: "true"
        case .false: "false"
        default: "null"
        }
    }
}

extension JSONSyntaxError.Expectation {
    /// Where the scanner was, as a phrase that follows "Unexpected byte 'x'" (empty at the top level).
    var location: String {
        switch self {
        case .value, .literal, .byteOrderMark: ""
        case .valueOrArrayEnd, .valueAfterComma, .commaOrArrayEnd: " in an array"
        case .keyOrObjectEnd, .keyAfterComma, .colon, .valueAfterColon, .commaOrObjectEnd: " in an object"
        case .stringEnd, .escapedCharacter, .lowSurrogate, .utf8Continuation: " in a string"
        case .hexDigit: " in a \\u escape"
        case .digit: " in a number"
        }
    }

    /// What the scanner needed.
    var summary: String {
        switch self {
        case .value: "a JSON value"
        case .valueOrArrayEnd: "a value or ']'"
        case .valueAfterComma: "a value after ',' (trailing commas are not allowed)"
        case .keyOrObjectEnd: "a '\"'-quoted key or '}'"
        case .keyAfterComma: "a '\"'-quoted key after ',' (trailing commas are not allowed)"
        case .colon: "':' after the key"
        case .valueAfterColon: "a value after ':'"
        case .commaOrArrayEnd: "',' or ']'"
        case .commaOrObjectEnd: "',' or '}'"
        case .stringEnd: "the closing '\"'"
        case .escapedCharacter: "an escape character after '\\'"
        case .hexDigit: "a hexadecimal digit"
        case .lowSurrogate: "a low surrogate escape \\uDC00–\\uDFFF after a high surrogate"
        case .utf8Continuation: "the rest of a multi-byte UTF-8 sequence"
        case .digit: "a digit"
        case .literal(let kind): "'\(JSONSyntaxError.literalText(kind))'"
        case .byteOrderMark: "the rest of the UTF-8 byte-order mark"
        }
    }
}

extension JSONSyntaxError.NumberProblem {
    /// The broken rule, as a clause.
    var summary: String {
        switch self {
        case .leadingZero: "leading zeros are not allowed"
        case .invalidStart: "a number must start with '-' or a digit"
        case .missingIntegerDigit: "'-' must be followed by a digit"
        case .missingFractionDigit: "'.' must be followed by a digit"
        case .missingExponentDigit: "an exponent needs at least one digit"
        }
    }
}
