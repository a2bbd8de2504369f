// SPDX-License-Identifier: Apache-2.0

// SHA-256 as specified by FIPS 180-4 §6.2, streaming. Whole blocks are compressed by the CPU's SHA extensions
// (CSHA256, x86-64 SHA-NI) when it has them, else by the rounds in plain Swift below, several times slower
// (docs/performance.md, "Design decisions taken on measurements").
//
// Used for the schema ETag (docs/api.md, "The schema registry": `"` + first 32 hex digits + `"`) and for
// `X-Model-Hash` (docs/api.md, "Equality and identity": lowercase hex of the whole digest).
//
// Layout: the intermediate hash value `h` (eight words, starting at the FIPS 180-4 §5.3.3 constants), a
// 64-byte `pending` block that holds a partial block between `update` calls, and the total message length in
// bytes. `update` first tops up `pending`; whole blocks are then compressed straight from the caller's
// buffer, so only the tail is copied. Nothing here allocates except the returned digest.
//
//     var hasher = SHA256()
//     hasher.update(Array("ab".utf8))    // pending = "ab", length = 2
//     hasher.update(Array("c".utf8))     // pending = "abc", length = 3
//     hasher.finalize()                  // pads "abc" ‖ 0x80 ‖ 0… ‖ 24 as UInt64 → ba7816bf…f20015ad

import CSHA256

/// A streaming SHA-256 hasher (FIPS 180-4).
struct SHA256: Sendable {
    /// Who runs the block compression.
    enum Engine: Sendable, CaseIterable {
        /// The CPU's SHA instructions (CSHA256).
        case hardware
        /// The rounds in plain Swift.
        case portable

        /// The hardware when this CPU has the instructions, else the portable rounds.
        static let fastest: Engine = csha256_available() != 0 ? .hardware : .portable
    }

    /// Bytes in one message block (FIPS 180-4 §5.2.2: 512 bits).
    static let blockSize = 64
    /// Bytes in one digest (256 bits).
    static let digestSize = 32

    /// The intermediate hash value H(i); starts at the §5.3.3 constants.
    private var h: InlineArray<8, UInt32> = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
        0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// The start of a block not yet compressed; only `pendingCount` leading bytes are meaningful.
    private var pending = InlineArray<64, UInt8>(repeating: 0)
    /// Always `< blockSize`: a full block is compressed at once.
    private var pendingCount = 0
    /// Total bytes passed to `update` since the hasher was created or last finalized.
    private var length: UInt64 = 0
    private let engine: Engine

    /// `engine` must be `.portable` or the one `Engine.fastest` picked.
    init(engine: Engine = .fastest) {
        precondition(engine == .portable || Engine.fastest == .hardware, "this CPU has no SHA instructions")
        self.engine = engine
    }

    /// Feeds more message bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if pendingCount > 0 {
            let take = min(Self.blockSize - pendingCount, bytes.count)
            for index in 0..<take {
                pending[pendingCount + index] = bytes[index]
            }
            pendingCount += take
            offset = take
            guard pendingCount == Self.blockSize else { return }
            compressPending()
            pendingCount = 0
        }
        let blocks = (bytes.count - offset) / Self.blockSize
        if blocks > 0 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + blocks * Self.blockSize]))
            offset += blocks * Self.blockSize
        }
        for index in offset..<bytes.count {
            pending[pendingCount] = bytes[index]
            pendingCount += 1
        }
    }

    /// Feeds more message bytes.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Pads the message (FIPS 180-4 §5.1.1), returns the 32-byte digest and resets the hasher to the empty
    /// message, so it can be reused.
    mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        pending[pendingCount] = 0x80
        pendingCount += 1
        // The 8-byte length must fit after the marker; otherwise it goes into one more block.
        if pendingCount > Self.blockSize - 8 {
            for index in pendingCount..<Self.blockSize { pending[index] = 0 }
            compressPending()
            pendingCount = 0
        }
        for index in pendingCount..<(Self.blockSize - 8) { pending[index] = 0 }
        for index in 0..<8 {
            pending[Self.blockSize - 8 + index] = UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64(index)))
        }
        compressPending()

        var digest = [UInt8](repeating: 0, count: Self.digestSize)
        for word in 0..<8 {
            for byte in 0..<4 {
                digest[4 * word + byte] = UInt8(truncatingIfNeeded: h[word] >> (24 - 8 * UInt32(byte)))
            }
        }
        self = SHA256(engine: engine)
        return digest
    }

    /// The digest of `bytes` in one call.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// The digest of `bytes` in one call.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The lowercase hex spelling (64 characters) of the SHA-256 digest **of the message** `bytes`.
    static func hexDigest(_ bytes: [UInt8]) -> String {
        hex(hash(bytes))
    }

    /// The lowercase hex spelling of a digest.
    static func hex(_ digest: [UInt8]) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 2 * digestSize) { out in
            digits.withUTF8Buffer { hex in
                for (index, byte) in digest.enumerated() {
                    out[2 * index] = hex[Int(byte >> 4)]
                    out[2 * index + 1] = hex[Int(byte & 0x0f)]
                }
            }
            return 2 * digestSize
        }
    }

    // MARK: - Compression (FIPS 180-4 §6.2.2)

    private mutating func compressPending() {
        let block = pending
        withUnsafeBytes(of: block) { compress($0) }
    }

    /// Compresses whole 64-byte blocks into `h`.
    private mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        switch engine {
        case .hardware:
            withUnsafeMutableBytes(of: &h) { state in
                csha256_compress(
                    state.baseAddress!.assumingMemoryBound(to: UInt32.self),
                    blocks.baseAddress!.assumingMemoryBound(to: UInt8.self), blocks.count / Self.blockSize)
            }
        case .portable:
            for start in stride(from: 0, to: blocks.count, by: Self.blockSize) {
                compressBlock(UnsafeRawBufferPointer(rebasing: blocks[start..<start + Self.blockSize]))
            }
        }
    }

    /// Runs the 64 rounds over one 64-byte block and adds the result into `h`.
    private mutating func compressBlock(_ block: UnsafeRawBufferPointer) {
        // The message schedule W0…W63 (§6.2.2 step 1), words read big-endian.
        var w = InlineArray<64, UInt32>(repeating: 0)
        for t in 0..<16 {
            w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
        }
        for t in 16..<64 {
            let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }

        let roundConstants = csha256_round_constants()!  // K0…K63: one table, in CSHA256, for both engines
        var a = h[0]
        var b = h[1]
        var c = h[2]
        var d = h[3]
        var e = h[4]
        var f = h[5]
        var g = h[6]
        var hh = h[7]
        for t in 0..<64 {
            let sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choose = (e & f) ^ (~e & g)
            let t1 = hh &+ sigma1 &+ choose &+ roundConstants[t] &+ w[t]
            let sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = sigma0 &+ majority
            hh = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }
        h[0] &+= a
        h[1] &+= b
        h[2] &+= c
        h[3] &+= d
        h[4] &+= e
        h[5] &+= f
        h[6] &+= g
        h[7] &+= hh
    }

    private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x >> n) | (x << (32 - n))
    }
}
