// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

@Suite struct GzipTests {
    /// `printf 'hello\n' | gzip -n`: a member written by gzip(1), not by this code.
    static let helloMember: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xe7, 0x02, 0x00,
        0x20, 0x30, 0x3a, 0x36, 0x06, 0x00, 0x00, 0x00,
    ]
    static let hello = Array("hello\n".utf8)

    // MARK: - One-shot

    @Test func inflatesAMemberWrittenByGzip() {
        #expect(inflate(Self.helloMember) == .success(Self.hello))
    }

    @Test func inflatesAMemberWithAFileNameInItsHeader() {
        // FLG.FNAME (RFC 1952 §2.3.1): a zero-terminated name between the fixed header and the data.
        var member = Self.helloMember
        member[3] = 0x08
        member.insert(contentsOf: Array("a.txt".utf8) + [0], at: 10)
        #expect(inflate(member) == .success(Self.hello))
    }

    @Test func deflateWritesAGzipHeaderAndATrailerWithCRCAndLength() {
        let member = deflate(Self.hello)
        #expect(Array(member.prefix(3)) == [0x1f, 0x8b, 0x08])  // ID1, ID2, CM = deflate
        #expect(Array(member.suffix(8)) == [0x20, 0x30, 0x3a, 0x36, 0x06, 0x00, 0x00, 0x00])  // CRC-32, ISIZE
    }

    @Test(arguments: [Int32(-1), 0, 1, 6, 9])
    func roundTripsAtEveryLevel(level: Int32) {
        let input = Self.text(bytes: 100_000, seed: UInt64(level + 2))
        #expect(inflate(deflate(input, level: level), limit: input.count) == .success(input))
    }

    @Test(arguments: [0, 1, 2, 1023, 65_536, 200_001])
    func roundTripsBodiesOfEverySize(size: Int) {
        let input = Self.text(bytes: size, seed: UInt64(size))
        #expect(inflate(deflate(input), limit: size) == .success(input))
    }

    @Test func inflatesConcatenatedMembersToTheJoinedOutput() {
        let body = deflate(Array("abc".utf8)) + deflate([]) + deflate(Array("def".utf8)) + Self.helloMember
        #expect(inflate(body) == .success(Array("abcdef".utf8) + Self.hello))
    }

    // MARK: - Corrupt input

    @Test func rejectsABadMagicNumber() {
        var member = Self.helloMember
        member[1] = 0x8c
        #expect(inflate(member).isCorrupt)
    }

    @Test func rejectsAZlibWrappedBody() {
        // RFC 1950 (zlib) framing of the same data: valid deflate, but not gzip.
        let zlibStream: [UInt8] = [120, 156, 203, 72, 205, 201, 201, 231, 2, 0, 8, 75, 2, 31]
        #expect(inflate(zlibStream).isCorrupt)
    }

    @Test func rejectsABadCRC() {
        var member = Self.helloMember
        member[member.count - 8] ^= 0x01
        #expect(inflate(member).isCorrupt)
    }

    @Test func rejectsABadLength() {
        var member = Self.helloMember
        member[member.count - 4] = 0x07
        #expect(inflate(member).isCorrupt)
    }

    @Test func rejectsADamagedBlock() {
        var member = deflate(Self.text(bytes: 5_000, seed: 7))
        member[member.count / 2] ^= 0xff
        #expect(inflate(member).isCorrupt)
    }

    @Test func rejectsEveryTruncation() {
        let member = Self.helloMember + Self.helloMember
        for length in 0..<member.count where length != Self.helloMember.count {
            let result = inflate(Array(member.prefix(length)))
            #expect(result.isCorrupt, "prefix of \(length) bytes")
        }
    }

    @Test(arguments: [[0x00], [0x1f], [0x00, 0x00, 0x00, 0x00], Array("{}".utf8)] as [[UInt8]])
    func rejectsTrailingGarbageAfterAMember(garbage: [UInt8]) {
        #expect(inflate(Self.helloMember + garbage).isCorrupt)
    }

    @Test func rejectsAnEmptyBody() {
        #expect(inflate([]).isCorrupt)
    }

    @Test func reportsWhatWasWrongAndWhere() {
        var member = Self.helloMember
        member[member.count - 8] ^= 0x01
        guard case .failure(.corrupt(let detail)) = inflate(member) else {
            Issue.record("expected a corrupt body")
            return
        }
        #expect(detail == "incorrect data check, at or before compressed byte 22")
    }

    // MARK: - Limits

    @Test func acceptsABodyThatInflatesToExactlyTheLimit() {
        #expect(inflate(Self.helloMember, limit: 6) == .success(Self.hello))
    }

    @Test func rejectsABodyThatInflatesOneByteOverTheLimit() {
        #expect(inflate(Self.helloMember, limit: 5) == .failure(.tooLarge(limit: 5)))
    }

    @Test func countsTheLimitAcrossMembers() {
        let body = Self.helloMember + Self.helloMember
        #expect(inflate(body, limit: 11) == .failure(.tooLarge(limit: 11)))
        #expect(inflate(body, limit: 12) == .success(Self.hello + Self.hello))
    }

    @Test func stopsAZipBombAtTheLimit() {
        let bomb = Self.zeroBomb
        #expect(bomb.count < 20_000)
        #expect(inflate(bomb, limit: 1 << 20) == .failure(.tooLarge(limit: 1 << 20)))
        var inflater = GzipInflater(limit: 1 << 20)
        var produced = 0
        var result = bomb.withUnsafeBytes { inflater.feed($0) }
        while case .success(let piece) = result, inflater.hasPendingOutput {
            produced += piece.count
            result = inflater.feed(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        #expect(result == .failure(.tooLarge(limit: 1 << 20)))
        #expect(inflater.inflatedByteCount == (1 << 20) + 1)  // not one byte more was inflated
        #expect(produced <= 1 << 20)
    }

    // MARK: - Streaming inflate

    @Test func handsOutABombInBoundedPiecesWhenThereIsNoLimit() {
        var inflater = GzipInflater(limit: nil, maxOutputPerFeed: 64 * 1024)
        var total = 0
        var calls = 0
        var result = Self.zeroBomb.withUnsafeBytes { inflater.feed($0) }
        while case .success(let piece) = result {
            #expect(piece.count <= 64 * 1024)
            total += piece.count
            calls += 1
            guard inflater.hasPendingOutput else { break }
            result = inflater.feed(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        #expect(total == Self.bombSize)
        #expect(calls >= Self.bombSize / (64 * 1024))
        #expect(inflater.finish().error == nil)
    }

    @Test func feedingOneByteAtATimeEqualsOneShot() {
        let input = Self.text(bytes: 20_000, seed: 11)
        let body = deflate(input) + deflate(Array("tail".utf8))
        #expect(Self.inflateInChunks(body, sizes: { 1 }) == .success(input + Array("tail".utf8)))
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func feedingRandomChunksEqualsOneShot(seed: UInt64) {
        let input = Self.text(bytes: 150_000, seed: seed)
        let body = deflate(Array(input.prefix(50_000))) + deflate(Array(input.dropFirst(50_000)))
        var random = SplitMix64(seed: seed)
        #expect(Self.inflateInChunks(body, sizes: { Int(random.next() % 3_000) }) == .success(input))
    }

    @Test func streamingFinishRejectsATruncatedStream() {
        var inflater = GzipInflater(limit: nil)
        let result = Self.helloMember.dropLast().withUnsafeBytes { inflater.feed($0) }
        #expect(result == .success(Self.hello))
        #expect(inflater.finish().isCorrupt)
    }

    @Test func streamingFinishRejectsAStreamWithNoMember() {
        var inflater = GzipInflater(limit: nil)
        #expect(inflater.finish().isCorrupt)
    }

    @Test func answersTheFirstErrorAgainAfterIt() {
        var inflater = GzipInflater(limit: nil)
        let first = [UInt8]([0x1f, 0x8c, 0x08]).withUnsafeBytes { inflater.feed($0) }
        guard case .failure(let error) = first, case .corrupt = error else {
            Issue.record("expected a corrupt stream, got \(first)")
            return
        }
        #expect(Self.helloMember.withUnsafeBytes { inflater.feed($0) } == .failure(error))
        #expect(inflater.finish().error == error)
    }

    // MARK: - Streaming deflate

    @Test func flushedOutputDecodesBeforeTheStreamEnds() {
        var deflater = GzipDeflater()
        var inflater = GzipInflater(limit: nil)
        var everything: [UInt8] = []
        for line in ["{\"a\":1}\n", "{\"b\":2}\n", "", "{\"c\":3}\n"] {
            let compressed = Array(line.utf8).withUnsafeBytes { deflater.feed($0, flush: true) }
            everything += compressed
            let inflated = compressed.withUnsafeBytes { inflater.feed($0) }
            #expect(inflated == .success(Array(line.utf8)), "line \(line)")
        }
        let trailer = deflater.finish()
        everything += trailer
        #expect(trailer.withUnsafeBytes { inflater.feed($0) } == .success([]))
        #expect(inflater.finish().error == nil)
        #expect(inflate(everything) == .success(Array("{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n".utf8)))
    }

    @Test func unflushedChunksRoundTripAfterFinish() {
        let input = Self.text(bytes: 300_000, seed: 3)
        var deflater = GzipDeflater(level: 1)
        var body: [UInt8] = []
        var random = SplitMix64(seed: 9)
        var offset = 0
        while offset < input.count {
            let end = min(input.count, offset + Int(random.next() % 40_000))
            input[offset..<end].withUnsafeBytes { deflater.feed($0, flush: false, into: &body) }
            offset = end
        }
        deflater.finish(into: &body)
        #expect(deflater.isFinished)
        #expect(deflater.finish().isEmpty)
        #expect(inflate(body, limit: input.count) == .success(input))
    }

    // MARK: - Fixtures

    static let bombSize = 10 * 1024 * 1024
    /// 10 MiB of zeros, about 10 KB compressed.
    static let zeroBomb = [UInt8](repeating: 0, count: bombSize).withUnsafeBytes { Gzip.deflate($0, level: 9) }

    /// Deterministic, moderately compressible text.
    static func text(bytes count: Int, seed: UInt64) -> [UInt8] {
        let words = ["alpha ", "beta ", "gamma ", "{\"id\":", "42,", "\"name\":", "\"Harry\"}\n", "é", "\t"]
        var random = SplitMix64(seed: seed)
        var output: [UInt8] = []
        output.reserveCapacity(count + 16)
        while output.count < count { output += words[Int(random.next() % UInt64(words.count))].utf8 }
        return Array(output.prefix(count))
    }

    static func inflateInChunks(_ body: [UInt8], sizes: () -> Int) -> Result<[UInt8], GzipError> {
        var inflater = GzipInflater(limit: nil, maxOutputPerFeed: 4096)
        var output: [UInt8] = []
        var offset = 0
        while offset < body.count || inflater.hasPendingOutput {
            let end = min(body.count, offset + sizes())
            let result = body[offset..<end].withUnsafeBytes { inflater.feed($0) }
            guard case .success(let piece) = result else { return result }
            #expect(piece.count <= 4096)
            output += piece
            offset = end
        }
        return inflater.finish().map { output }
    }
}

private func inflate(_ body: [UInt8], limit: Int = 1 << 20) -> Result<[UInt8], GzipError> {
    body.withUnsafeBytes { Gzip.inflate($0, limit: limit) }
}

private func deflate(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
    bytes.withUnsafeBytes { Gzip.deflate($0, level: level) }
}

extension Result where Failure == GzipError {
    fileprivate var isCorrupt: Bool {
        if case .failure(.corrupt) = self { true } else { false }
    }

    fileprivate var error: GzipError? {
        if case .failure(let error) = self { error } else { nil }
    }
}

/// A tiny deterministic generator (Steele, Lea, Flood: SplitMix64), so chunkings repeat from run to run.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
