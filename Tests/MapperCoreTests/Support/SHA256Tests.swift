// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct SHA256Tests {
    /// Both engines where this CPU has the SHA instructions, else the portable one alone.
    static let engines = SHA256.Engine.allCases.filter { $0 == .portable || SHA256.Engine.fastest == .hardware }

    static func digest(_ message: [UInt8], _ engine: SHA256.Engine) -> [UInt8] {
        var hasher = SHA256(engine: engine)
        hasher.update(message)
        return hasher.finalize()
    }
    /// A message and its digest from an independent implementation.
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let message: [UInt8]
        let digest: String
        var testDescription: String { name }
    }

    /// FIPS 180-4 example vectors (NIST CSRC "SHA-256" examples).
    static let nistVectors: [Vector] = [
        Vector(
            name: "abc (one block)", message: Array("abc".utf8),
            digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        Vector(
            name: "empty string", message: [],
            digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        Vector(
            name: "448 bits (length spills into a second block)",
            message: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        Vector(
            name: "896 bits (two blocks)",
            message: Array(
                ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                    + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8),
            digest: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        Vector(
            name: "one million 'a'", message: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
            digest: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    /// Runs of "a" around the padding boundaries (55/56 bytes: whether the length fits in the last block;
    /// 63/64/65: block edges). Digests from coreutils `sha256sum`.
    static let paddingBoundaries: [(Int, String)] = [
        (1, "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"),
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
    ]

    /// 1000 bytes covering every byte value; its digest is from Python's `hashlib`.
    static let patterned = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    static let patternedDigest = "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179"

    @Test(arguments: nistVectors)
    func matchesNISTExampleVectors(_ vector: Vector) {
        #expect(SHA256.hexDigest(vector.message) == vector.digest)
    }

    @Test(arguments: nistVectors, engines)
    func everyEngineMatchesNISTExampleVectors(_ vector: Vector, _ engine: SHA256.Engine) {
        #expect(hex(Self.digest(vector.message, engine)) == vector.digest)
    }

    @Test(arguments: nistVectors)
    func hashesRawBuffersLikeArrays(_ vector: Vector) {
        let fromBuffer = vector.message.withUnsafeBytes { SHA256.hash($0) }
        #expect(fromBuffer == SHA256.hash(vector.message))
        #expect(hex(fromBuffer) == vector.digest)
    }

    @Test(arguments: paddingBoundaries, engines)
    func padsCorrectlyAroundBlockBoundaries(_ boundary: (length: Int, digest: String), _ engine: SHA256.Engine) {
        #expect(
            hex(Self.digest([UInt8](repeating: UInt8(ascii: "a"), count: boundary.length), engine)) == boundary.digest)
    }

    /// The hardware rounds against the portable ones on every length up to five blocks, bytes of every value, fed
    /// whole and in uneven pieces (several blocks in one call, and a partial block topped up).
    @Test(.enabled(if: SHA256.Engine.fastest == .hardware, "this CPU has no SHA instructions"))
    func hardwareAndPortableEnginesAgree() {
        for length in 0...320 {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ length) }
            #expect(Self.digest(message, .hardware) == Self.digest(message, .portable), "length \(length)")
            var pieces = SHA256(engine: .hardware)
            pieces.update(Array(message.prefix(length / 3)))
            pieces.update(Array(message.dropFirst(length / 3)))
            #expect(pieces.finalize() == Self.digest(message, .portable), "length \(length) in two pieces")
        }
    }

    /// Chunk-size cycles: single bytes, sizes that straddle the 64-byte block in every way, one big chunk.
    @Test(arguments: [[1], [3, 7], [55, 9, 64], [63, 1], [64], [65, 127], [0, 5, 0, 200], [1000]], engines)
    func streamingInUnevenChunksEqualsOneShot(_ sizes: [Int], _ engine: SHA256.Engine) {
        var hasher = SHA256(engine: engine)
        var offset = 0
        var turn = 0
        while offset < Self.patterned.count {
            let size = min(sizes[turn % sizes.count], Self.patterned.count - offset)
            hasher.update(Array(Self.patterned[offset..<offset + size]))
            offset += size
            turn += 1
        }
        let digest = hasher.finalize()
        #expect(hex(digest) == Self.patternedDigest)
        #expect(digest == Self.digest(Self.patterned, engine))
    }

    @Test func finalizeReturnsThirtyTwoBytesAndResetsTheHasher() {
        var hasher = SHA256()
        hasher.update(Array("not this".utf8))
        #expect(hasher.finalize().count == 32)
        hasher.update(Array("abc".utf8))
        #expect(hex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hexDigestIsSixtyFourLowercaseHexDigits() {
        let text = SHA256.hexDigest(Self.patterned)
        #expect(text.utf8.count == 64)
        #expect(
            text.utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            })
        #expect(text == Self.patternedDigest)
    }

    /// Test-side hex rendering, written independently of `SHA256.hexDigest`.
    private func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 / 16)], digits[Int($0 % 16)]] })
    }
}
