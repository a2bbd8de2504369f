import Testing

// SPDX-License-Identifier: Apache-2.0
@testable import MapperCore

struct JSONStringsTests {
    // MARK: - Decoding

    @Test(
        arguments: [
            (#""plain""#, Array("plain".utf8)),
            (#""""#, []),
            (#""a\"b\\c\/d""#, Array(#"a"b\c/d"#.utf8)),
            (#""\b\f\n\r\t""#, [0x08, 0x0C, 0x0A, 0x0D, 0x09]),
            (#""\u0041\u00e9\u20AC""#, Array("Aé€".utf8)),
            (#""\ud834\udd1e = \uD834\uDD1E""#, Array("𝄞 = 𝄞".utf8)),
            (#""x\u0000y""#, [0x78, 0x00, 0x79]),
            (#""\uFFFF\uDBFF\uDFFF""#, [0xEF, 0xBF, 0xBF, 0xF4, 0x8F, 0xBF, 0xBF]),
            (#""é𝄞 raw""#, Array("é𝄞 raw".utf8)),
            (
                #""a long run before the escape\u0021 and a long run after it""#,
                Array("a long run before the escape! and a long run after it".utf8)
            ),
        ] as [(String, [UInt8])])
    func decodesEveryEscape(json: String, expected: [UInt8]) throws {
        let (bytes, token) = try Self.stringToken(json)
        var out: [UInt8] = [0xAA]
        bytes.withUnsafeBytes { JSONStrings.decode(token, in: $0, into: &out) }
        #expect(out == [0xAA] + expected)
    }

    // MARK: - Comparing

    @Test(arguments: [
        (#""uid""#, "uid", true),
        (#""\u0075id""#, "uid", true),
        (#""uid""#, "ui", false),
        (#""uid""#, "uidx", false),
        (#""\u0075id""#, "ui", false),
        (#""\u0075id""#, "uidx", false),
        (#""\u0075id""#, "Uid", false),
        (#""a\nb""#, "a\nb", true),
        (#""\ud834\udd1e""#, "𝄞", true),
        (#""\ud834\udd1e""#, "𝄟", false),
        (#""""#, "", true),
        (#""""#, "a", false),
        (#""\u00e9""#, "é", true),
        (#""\u00e9""#, "e", false),
        (#""customer_shipping_address""#, "customer_shipping_address", true),
        (#""customer_shipping_address""#, "customer_shipping_addresS", false),
        (#""customer_shipping_addres\u0073""#, "customer_shipping_address", true),
        (#""customer_shipping_addres\u0073""#, "customer_shipping_addresS", false),
    ])
    func comparesDecodedKeysBytewise(json: String, key: String, expected: Bool) throws {
        let (bytes, token) = try Self.stringToken(json)
        let keyBytes = Array(key.utf8)
        let equal = bytes.withUnsafeBytes { input in
            keyBytes.withUnsafeBytes { JSONStrings.equals(token, in: input, $0) }
        }
        #expect(equal == expected)
    }

    // MARK: - Writing

    @Test(arguments: [
        ("", #""""#),
        ("abc", #""abc""#),
        (#"a"b\c"#, #""a\"b\\c""#),
        ("/ \u{7F} é 𝄞", "\"/ \u{7F} é 𝄞\""),
        ("tab\tthen a long tail that crosses several words", #""tab\tthen a long tail that crosses several words""#),
        ("\u{0}", #""\u0000""#),
    ])
    func escapesOnlyQuoteBackslashAndControls(input: String, expected: String) {
        #expect(Self.quoted(Array(input.utf8)) == expected)
    }

    @Test func writesEveryControlCharacterCanonically() {
        let controls = (UInt8(0)...0x1F).map { $0 }
        let expected =
            #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f""#
        #expect(Self.quoted(controls) == expected)
    }

    @Test func appendsAfterWhatIsAlreadyWritten() {
        var out = Array("[".utf8)
        Array("a\"".utf8).withUnsafeBytes { JSONStrings.writeQuoted($0, into: &out) }
        Array("b".utf8).withUnsafeBytes { JSONStrings.writeQuoted($0, into: &out) }
        #expect(String(decoding: out, as: UTF8.self) == #"["a\"""b""#)
    }

    @Test(arguments: [
        (#""plain é 𝄞""#, #""plain é 𝄞""#),
        (#""\/""#, #""/""#),
        (#""\u00e9\u20ac""#, #""é€""#),
        (#""\u001F\u001f""#, #""\u001f\u001f""#),
        (#""\u000A\u0009\u0008\u000C\u000D""#, #""\n\t\b\f\r""#),
        (#""\u0022\u005C\u002F""#, #""\"\\/""#),
        (#""\ud834\udd1e""#, #""𝄞""#),
        (#""\u007f""#, "\"\u{7F}\""),
        (#""\u0000""#, #""\u0000""#),
        (#""a\tb\"c""#, #""a\tb\"c""#),
    ])
    func writesAStringTokenCanonically(json: String, expected: String) throws {
        let (bytes, token) = try Self.stringToken(json)
        var out: [UInt8] = []
        bytes.withUnsafeBytes { JSONStrings.writeQuoted(token, in: $0, into: &out) }
        #expect(String(decoding: out, as: UTF8.self) == expected)
    }

    @Test func agreesWithDecodingThenWritingOnRandomStrings() throws {
        var random = NumberFixture.Random(seed: 7)
        let scalars: [Unicode.Scalar] = [
            "a", "Z", " ", "/", "\"", "\\", "\u{0}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}",
            "é", "€", "\u{FFFF}", "𝄞", "\u{10FFFF}",
        ]
        for _ in 0..<2_000 {
            let length = Int(random.next() % 40)
            let original = (0..<length).map { _ in scalars[Int(random.next() % UInt64(scalars.count))] }
            let json = "\"" + original.map { Self.escaped($0, style: random.next() % 3) }.joined() + "\""
            let (bytes, token) = try Self.stringToken(json)
            var decoded: [UInt8] = []
            var canonical: [UInt8] = []
            bytes.withUnsafeBytes { input in
                JSONStrings.decode(token, in: input, into: &decoded)
                JSONStrings.writeQuoted(token, in: input, into: &canonical)
            }
            let expected = Array(String(String.UnicodeScalarView(original)).utf8)
            #expect(decoded == expected, "\(json)")
            #expect(String(decoding: canonical, as: UTF8.self) == Self.quoted(expected), "\(json)")
            // The canonical form scans back to the same bytes.
            let (written, writtenToken) = try Self.stringToken(String(decoding: canonical, as: UTF8.self))
            var again: [UInt8] = []
            written.withUnsafeBytes { JSONStrings.decode(writtenToken, in: $0, into: &again) }
            #expect(again == expected)
        }
    }

    @Test func escapesLikeAByteByByteReferenceOnRandomBytes() {
        var random = NumberFixture.Random(seed: 11)
        let bytes: [UInt8] = [0x00, 0x08, 0x09, 0x0A, 0x1F, 0x20, 0x22, 0x2F, 0x5C, 0x61, 0x7F, 0xC3, 0xA9]
        for _ in 0..<5_000 {
            let input = (0..<Int(random.next() % 40)).map { _ in bytes[Int(random.next() % UInt64(bytes.count))] }
            var reference = "\""
            for byte in input {
                switch byte {
                case 0x22: reference += #"\""#
                case 0x5C: reference += #"\\"#
                case 0x08: reference += #"\b"#
                case 0x09: reference += #"\t"#
                case 0x0A: reference += #"\n"#
                case 0x0C: reference += #"\f"#
                case 0x0D: reference += #"\r"#
                case ..<0x10: reference += #"\u000"# + String(byte, radix: 16)
                case ..<0x20: reference += #"\u00"# + String(byte, radix: 16)
                default: reference.unicodeScalars.append(Unicode.Scalar(byte))
                }
            }
            reference += "\""
            var out: [UInt8] = []
            input.withUnsafeBytes { JSONStrings.writeQuoted($0, into: &out) }
            // Compare bytewise: the reference holds each non-escaped byte as one Latin-1 scalar.
            #expect(out == reference.unicodeScalars.map { UInt8($0.value) }, "\(input)")
        }
    }

    // MARK: - Fixtures

    /// Scans a JSON text that is one string; its bytes and its token.
    static func stringToken(_ json: String) throws -> ([UInt8], JSONToken) {
        let bytes = Array(json.utf8)
        let tape = try JSONTape.scanning(bytes).get()
        try #require(tape.tokens.count == 1 && tape.tokens[0].kind == .string)
        return (bytes, tape.tokens[0])
    }

    static func quoted(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        bytes.withUnsafeBytes { JSONStrings.writeQuoted($0, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `scalar` as JSON string content: style 0 raw where allowed, 1 a named escape where one exists, 2 `\u`.
    static func escaped(_ scalar: Unicode.Scalar, style: UInt64) -> String {
        let named: [Unicode.Scalar: String] = [
            "\"": #"\""#, "\\": #"\\"#, "/": #"\/"#, "\u{8}": #"\b"#, "\u{C}": #"\f"#, "\u{A}": #"\n"#,
            "\u{D}": #"\r"#, "\u{9}": #"\t"#,
        ]
        let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
        if style == 0 && !mustEscape { return String(scalar) }
        if style == 1, let name = named[scalar] { return name }
        let units = Array(String(scalar).utf16)
        return units.map { unit in
            let hex = String(unit, radix: 16, uppercase: unit % 2 == 0)
            return #"\u"# + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
    }
}
