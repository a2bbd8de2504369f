// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct Base64Tests {
    /// RFC 4648 §10 test vectors: (decoded, padded encoding).
    static let rfcVectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    /// Every way a text can be invalid, with the reason.
    static let invalidTexts: [String] = [
        "Z",  // length ≡ 1 (mod 4): cannot carry whole bytes
        "Zm9vY",  // the same after whole quanta
        "=",  // padding alone
        "==",
        "====",
        "Zg=",  // padded but not a multiple of 4
        "Zg===",  // three pads
        "Z===",  // three pads in one quantum
        "Zm9v=",  // a pad after a full quantum
        "Zm9v====",  // a whole quantum of padding
        "Zm=v",  // padding not at the end
        "Zg==Zg==",  // padding in the middle
        "Zm8=Zm8",
        "=Zm8",  // leading padding
        // Lengths below are ≢ 1 (mod 4), so only the stray byte can be the reason.
        "Zm 9vYmF",  // a space inside
        " Zm9",  // leading whitespace
        "Zm9 ",  // trailing whitespace
        "Zm9vYm\n",  // trailing newline
        "Zm9v\r\nYm",  // MIME line break
        "Zm9v\tYmF",  // tab
        "Zm-_",  // URL-safe alphabet
        "Zm9v.mFy",  // other punctuation
        "Zm9v\u{0}mFy",  // NUL
        "Zm9vé",  // non-ASCII
        "Zh==",  // leftover bits: "h" has low 4 bits set
        "Zh",  // the same unpadded
        "Zm9=",  // leftover bits: "9" has low 2 bits set
        "Zm9",  // the same unpadded
    ]

    @Test(arguments: rfcVectors)
    func encodesRFC4648Vectors(_ plain: String, _ encoded: String) {
        var out: [UInt8] = []
        Base64.encode(Array(plain.utf8), into: &out)
        #expect(out == Array(encoded.utf8))
    }

    @Test(arguments: rfcVectors)
    func decodesRFC4648VectorsPaddedAndUnpadded(_ plain: String, _ encoded: String) {
        let unpadded = String(encoded.prefix { $0 != "=" })
        #expect(decode(encoded) == Array(plain.utf8))
        #expect(decode(unpadded) == Array(plain.utf8))
    }

    @Test(arguments: invalidTexts)
    func rejectsInvalidText(_ text: String) {
        #expect(decode(text) == nil)
    }

    @Test func acceptsEmptyText() {
        #expect(decode("") == [])
    }

    /// RFC 4648 §3.5: of the 64 possible final symbols of a 2-symbol tail only those with the low 4 bits zero
    /// are canonical; of a 3-symbol tail, those with the low 2 bits zero.
    @Test func rejectsExactlyTheTailsWithNonZeroLeftoverBits() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, symbol) in alphabet.enumerated() {
            let two = decode([UInt8(ascii: "Q"), symbol])
            #expect((two != nil) == (value % 16 == 0), "Q\(Character(UnicodeScalar(symbol)))")
            let three = decode([UInt8(ascii: "Q"), UInt8(ascii: "Q"), symbol, UInt8(ascii: "=")])
            #expect((three != nil) == (value % 4 == 0), "QQ\(Character(UnicodeScalar(symbol)))=")
        }
    }

    @Test(arguments: 0..<70)
    func roundTripsEveryLength(_ length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ length) }
        var encoded: [UInt8] = []
        Base64.encode(bytes, into: &encoded)
        #expect(encoded.count == (length + 2) / 3 * 4)
        #expect(decode(encoded) == bytes)
        let unpadded = Array(encoded.prefix { $0 != UInt8(ascii: "=") })
        #expect(decode(unpadded) == bytes)
    }

    @Test func roundTripsEveryByteValue() {
        let bytes = (0...255).map { UInt8($0) }
        var encoded: [UInt8] = []
        Base64.encode(bytes, into: &encoded)
        #expect(decode(encoded) == bytes)
    }

    @Test func encodeAppendsWithoutClearingAndAcceptsRawBuffers() {
        var out = Array("data:".utf8)
        Array("foob".utf8).withUnsafeBytes { Base64.encode($0, into: &out) }
        #expect(String(decoding: out, as: UTF8.self) == "data:Zm9vYg==")
    }

    private func decode(_ text: String) -> [UInt8]? {
        decode(Array(text.utf8))
    }

    private func decode(_ text: [UInt8]) -> [UInt8]? {
        text.withUnsafeBytes { Base64.decode($0) }
    }
}
