// SPDX-License-Identifier: Apache-2.0
//
// Named bytes for the JSON scanner, the string codec and the writers, so code reads `.quote` instead of `0x22`.
// They are computed properties on purpose: each one inlines to an immediate, with no global to initialise.

extension UInt8 {
    // MARK: - Structure (RFC 8259 §2)

    static var openBrace: UInt8 { UInt8(ascii: "{") }
    static var closeBrace: UInt8 { UInt8(ascii: "}") }
    static var openBracket: UInt8 { UInt8(ascii: "[") }
    static var closeBracket: UInt8 { UInt8(ascii: "]") }
    static var comma: UInt8 { UInt8(ascii: ",") }
    static var colon: UInt8 { UInt8(ascii: ":") }

    // MARK: - Whitespace (RFC 8259 §2: space, horizontal tab, line feed, carriage return)

    static var space: UInt8 { UInt8(ascii: " ") }
    static var tab: UInt8 { UInt8(ascii: "\t") }
    static var lineFeed: UInt8 { UInt8(ascii: "\n") }
    static var carriageReturn: UInt8 { UInt8(ascii: "\r") }

    // MARK: - Strings (RFC 8259 §7)

    static var quote: UInt8 { UInt8(ascii: "\"") }
    static var backslash: UInt8 { UInt8(ascii: "\\") }
    static var slash: UInt8 { UInt8(ascii: "/") }
    static var backspace: UInt8 { 0x08 }
    static var formFeed: UInt8 { 0x0C }
    /// The first byte that may appear unescaped in a string (U+0000–U+001F must be escaped).
    static var firstUnescapedByte: UInt8 { 0x20 }
    /// Bytes from here on are part of a multi-byte UTF-8 sequence.
    static var firstNonASCII: UInt8 { 0x80 }

    // MARK: - Numbers (RFC 8259 §6)

    static var minus: UInt8 { UInt8(ascii: "-") }
    static var plus: UInt8 { UInt8(ascii: "+") }
    static var period: UInt8 { UInt8(ascii: ".") }
    static var zero: UInt8 { UInt8(ascii: "0") }
    static var nine: UInt8 { UInt8(ascii: "9") }
    static var lowercaseE: UInt8 { UInt8(ascii: "e") }
    static var uppercaseE: UInt8 { UInt8(ascii: "E") }

    // MARK: - Letters used by literals and escapes

    static var lowercaseA: UInt8 { UInt8(ascii: "a") }
    static var lowercaseB: UInt8 { UInt8(ascii: "b") }
    static var lowercaseF: UInt8 { UInt8(ascii: "f") }
    static var lowercaseN: UInt8 { UInt8(ascii: "n") }
    static var lowercaseR: UInt8 { UInt8(ascii: "r") }
    static var lowercaseT: UInt8 { UInt8(ascii: "t") }
    static var lowercaseU: UInt8 { UInt8(ascii: "u") }
    static var uppercaseA: UInt8 { UInt8(ascii: "A") }
    static var uppercaseF: UInt8 { UInt8(ascii: "F") }

    // MARK: - Classification

    /// True for `0`–`9`.
    var isASCIIDigit: Bool { self &- .zero < 10 }

    /// True for the four JSON whitespace bytes: space, tab, LF, CR.
    var isJSONWhitespace: Bool {
        self == .space || self == .lineFeed || self == .carriageReturn || self == .tab
    }

    /// True for a UTF-8 continuation byte (`10xxxxxx`).
    var isUTF8Continuation: Bool { self & 0xC0 == 0x80 }

    /// The value of a hexadecimal digit (`0-9`, `a-f`, `A-F`), or nil.
    var hexDigitValue: UInt8? {
        if self &- .zero < 10 { return self &- .zero }
        let folded = self | 0x20  // ASCII letters: lowercase
        if folded &- .lowercaseA < 6 { return folded &- .lowercaseA &+ 10 }
        return nil
    }
}
