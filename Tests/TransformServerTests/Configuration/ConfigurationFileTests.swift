// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

@Suite struct ConfigurationFileTests {
    static func parse(_ text: String) throws(ConfigurationError) -> [ConfigurationFile.Entry] {
        try ConfigurationFile(parsing: Array(text.utf8), path: "server.json").entries
    }

    static func failure(_ bytes: [UInt8]) -> ConfigurationError? {
        do {
            _ = try ConfigurationFile(parsing: bytes, path: "server.json")
            return nil
        } catch {
            return error
        }
    }

    @Test func readsScalarsInFileOrderKeepingNumberText() throws {
        let entries = try Self.parse(#" { "b": "x", "a": -0.5e+3, "t": true, "f": false, "n": null, "z": 0 } "#)
        #expect(
            entries == [
                .init(key: "b", value: .string("x")), .init(key: "a", value: .number("-0.5e+3")),
                .init(key: "t", value: .boolean(true)), .init(key: "f", value: .boolean(false)),
                .init(key: "n", value: .null), .init(key: "z", value: .number("0")),
            ])
    }

    @Test func anEmptyObjectHasNoEntries() throws {
        #expect(try Self.parse("{}\n").isEmpty)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let entries = try Self.parse(#"{"k": "a\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00é"}"#)
        #expect(entries.first?.value == .string("a\"\\/\u{8}\u{C}\n\r\té😀é"))
    }

    @Test func keepsNestedContainersOnlyAsTheirKind() throws {
        let entries = try Self.parse(#"{"a": [1, {"x": [true]}], "o": {"k": "v"}, "e": []}"#)
        #expect(entries.map(\.value) == [.array, .object, .array])
    }

    @Test func skipsALeadingByteOrderMark() throws {
        let entries = try ConfigurationFile(parsing: [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8), path: "s").entries
        #expect(entries == [.init(key: "a", value: .number("1"))])
    }

    struct Malformed: CustomTestStringConvertible, Sendable {
        var bytes: [UInt8]
        var line: Int
        var column: Int
        var reason: String
        var testDescription: String { reason }

        init(_ text: String, line: Int = 1, column: Int, _ reason: String) {
            self.init(bytes: Array(text.utf8), line: line, column: column, reason)
        }

        init(bytes: [UInt8], line: Int = 1, column: Int, _ reason: String) {
            self.bytes = bytes
            self.line = line
            self.column = column
            self.reason = reason
        }
    }

    static let malformed: [Malformed] = [
        Malformed("", column: 1, "the file must hold one JSON object, found the end of the file"),
        Malformed("[]", column: 1, "the file must hold one JSON object"),
        Malformed(#"{"a": 1} x"#, column: 10, "unexpected bytes after the object"),
        Malformed(#"{"a": 1}{}"#, column: 9, "unexpected bytes after the object"),
        Malformed(#"{"a": 1,}"#, column: 9, "expected a key in double quotes"),
        Malformed(#"{a: 1}"#, column: 2, "expected a key in double quotes"),
        Malformed("{\"a\": 1,\n \"a\": 2}", line: 2, column: 2, #"the key "a" appears more than once"#),
        Malformed(#"{"a" 1}"#, column: 6, "expected ':' after the key"),
        Malformed(#"{"a": 1 "b": 2}"#, column: 9, "expected ',' or '}'"),
        Malformed(#"{"a": }"#, column: 7, "expected a value"),
        Malformed(#"{"a": 01}"#, column: 8, "a number must not start with 0"),
        Malformed(#"{"a": 1.}"#, column: 9, "expected a digit"),
        Malformed(#"{"a": -}"#, column: 8, "expected a digit"),
        Malformed(#"{"a": +1}"#, column: 7, "expected a value"),
        Malformed(#"{"a": tru}"#, column: 10, "expected true"),
        Malformed(#"{"a": NaN}"#, column: 7, "expected a value"),
        Malformed(#"{"a": "x}"#, column: 10, "the string has no closing quote, found the end of the file"),
        Malformed("{\"a\": \"x\ty\"}", column: 9, "a control character must be escaped inside a string"),
        Malformed(#"{"a": "\x"}"#, column: 9, #"unknown escape '\x'"#),
        Malformed(#"{"a": "\u12"}"#, column: 12, "expected four hex digits"),
        Malformed(#"{"a": "\uD800"}"#, column: 14, "a high surrogate must be followed by a low one"),
        Malformed(#"{"a": "\uDC00"}"#, column: 14, "a lone low surrogate"),
        Malformed(
            bytes: Array(#"{"a": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), column: 7,
            "the string is not valid UTF-8"),
        Malformed(#"{"a": [1 2]}"#, column: 10, "expected ',' or ']'"),
        Malformed("{\"a\": " + String(repeating: "[", count: 40), column: 38, "nested more than 32 deep"),
    ]

    @Test(arguments: malformed) func rejectsMalformedJSONWithItsPosition(_ bad: Malformed) {
        #expect(
            Self.failure(bad.bytes)
                == .malformedFile(path: "server.json", line: bad.line, column: bad.column, reason: bad.reason))
    }

    @Test func quotesTextForMessagesWithControlCharactersEscaped() {
        #expect(ConfigurationFile.quoted("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
    }
}
