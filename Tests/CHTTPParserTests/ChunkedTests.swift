// SPDX-License-Identifier: Apache-2.0

import CHTTPParser
import Testing

/// The chunked transfer coding (RFC 9112 §7.1): hex sizes only, extensions checked and ignored, data followed by
/// exactly CRLF, trailers checked like header fields and discarded. Offsets count from the body's first byte.
@Suite struct ChunkedTests {
    static let acceptances: [ChunkedCase] = [
        .accepted("one chunk", "5\r\nhello\r\n0\r\n\r\n", data: "hello"),
        .accepted("several chunks", "5\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\n\r\n", data: "hello world"),
        .accepted(
            "hex sizes in either case", "A\r\n0123456789\r\na\r\nabcdefghij\r\n0\r\n\r\n", data: "0123456789abcdefghij"),
        .accepted("leading zeros", "0005\r\nhello\r\n000\r\n\r\n", data: "hello"),
        .accepted("empty body", "0\r\n\r\n", data: ""),
        .accepted("data holding CRLF", "4\r\n\r\n\r\n\r\n0\r\n\r\n", data: "\r\n\r\n"),
        .accepted("extension without a value", "5;foo\r\nhello\r\n0\r\n\r\n", data: "hello"),
        .accepted("extension with a token value", "5;foo=bar\r\nhello\r\n0\r\n\r\n", data: "hello"),
        .accepted("extension with a quoted value", "5;foo=\"a b;c\\\"d\"\r\nhello\r\n0\r\n\r\n", data: "hello"),
        .accepted("extensions with BWS", "5 ; a = 1 ;b\t;c=\"x\"\r\nhello\r\n0\r\n\r\n", data: "hello"),
        .accepted("extension on the last chunk", "0;end\r\n\r\n", data: ""),
        .accepted("trailer fields", "0\r\nX-Checksum: abc\r\nY: \r\n\r\n", data: ""),
        ChunkedCase.accepted("trailers of exactly the byte limit", "0\r\nX: 1234\r\n\r\n", data: "")
            .limited(chp_limits(max_target: 16, max_header_bytes: 9, max_headers: 2)),
        ChunkedCase.accepted("exactly the trailer field limit", "0\r\nA: 1\r\nB: 2\r\n\r\n", data: "")
            .limited(chp_limits(max_target: 16, max_header_bytes: 64, max_headers: 2)),
    ]

    static let rejections: [ChunkedCase] = [
        .rejected("0x prefix", "0x5\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_SIZE, at: 1),
        .rejected("minus sign", "-5\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_SIZE, at: 0),
        .rejected("plus sign", "+5\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_SIZE, at: 0),
        .rejected("space before the size", " 5\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_SIZE, at: 0),
        .rejected("space between the size and CRLF", "5 \r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_SIZE, at: 2),
        .rejected("space inside the size", "5 5\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_SIZE, at: 2),
        .rejected("empty size", "\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_SIZE, at: 0),
        .rejected("non-hex size", "g\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_SIZE, at: 0),
        .rejected("non-hex byte after a digit", "5g\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_SIZE, at: 1),
        .rejected("size over UInt64", "10000000000000000\r\n", CHP_ERR_CHUNK_SIZE_OVERFLOW, at: 16),
        .rejected("size line ended by a bare LF", "5\nhello\r\n0\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 1),
        .rejected("size line ended by a bare CR", "5\rhello\r\n0\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 1),
        .rejected("more data than the size", "5\r\nhelloX\r\n0\r\n\r\n", CHP_ERR_CHUNK_DATA_END, at: 8),
        .rejected("less data than the size", "5\r\nhel\r\n0\r\n\r\n", CHP_ERR_CHUNK_DATA_END, at: 8),
        .rejected("data followed by a bare LF", "5\r\nhello\n0\r\n\r\n", CHP_ERR_CHUNK_DATA_END, at: 8),
        .rejected("data followed by a bare CR", "5\r\nhello\rX0\r\n\r\n", CHP_ERR_CHUNK_DATA_END, at: 9),
        .rejected("empty extension name", "5;\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_EXTENSION, at: 2),
        .rejected("extension with = but no value", "5;a=\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_EXTENSION, at: 4),
        .rejected("two names in one extension", "5;a b\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_EXTENSION, at: 4),
        .rejected("whitespace before the line's CRLF", "5;a=1 \r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_EXTENSION, at: 6),
        .rejected(
            "control byte in a quoted value", "5;a=\"\u{01}\"\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_EXTENSION, at: 5),
        .rejected("text after a quoted value", "5;a=\"x\"y\r\nhello\r\n0\r\n\r\n", CHP_ERR_CHUNK_EXTENSION, at: 7),
        .rejected("bare LF in a quoted value", "5;a=\"x\ny\"\r\nhello\r\n0\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 6),
        .rejected("bare LF after an extension", "5;a\nhello\r\n0\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 3),
        .rejected(
            "chunk-size line over 4096 bytes", "5;" + String(repeating: "a", count: 4100) + "\r\nhello\r\n0\r\n\r\n",
            CHP_ERR_CHUNK_LINE_TOO_LONG, at: 4096),
        .rejected("space before a trailer colon", "0\r\nX : y\r\n\r\n", CHP_ERR_SPACE_BEFORE_COLON, at: 4),
        .rejected("folded trailer", "0\r\nX: y\r\n z\r\n\r\n", CHP_ERR_OBS_FOLD, at: 9),
        .rejected("NUL in a trailer value", "0\r\nX: \u{00}\r\n\r\n", CHP_ERR_FIELD_VALUE, at: 6),
        .rejected("trailer line ended by a bare LF", "0\r\nX: y\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 7),
        .rejected("trailer line ended by a bare CR", "0\r\nX: y\rZ\r\n", CHP_ERR_BARE_LINE_ENDING, at: 7),
        .rejected("trailer line without a colon", "0\r\nXY\r\n\r\n", CHP_ERR_FIELD_NAME, at: 5),
        .rejected("empty trailer name", "0\r\n: y\r\n\r\n", CHP_ERR_FIELD_NAME, at: 3),
        .rejected("body ended by a bare LF", "0\r\n\n", CHP_ERR_BARE_LINE_ENDING, at: 3),
        .rejected("body ended by a bare CR", "0\r\n\rX", CHP_ERR_BARE_LINE_ENDING, at: 3),
        ChunkedCase.rejected(
            "trailers one byte over the limit", "0\r\nX: 12345\r\n\r\n", CHP_ERR_HEADERS_TOO_LARGE, at: 12
        )
        .limited(chp_limits(max_target: 16, max_header_bytes: 9, max_headers: 2)),
        ChunkedCase.rejected(
            "one trailer field too many", "0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", CHP_ERR_TOO_MANY_HEADERS, at: 15
        )
        .limited(chp_limits(max_target: 16, max_header_bytes: 64, max_headers: 2)),
    ]

    @Test(arguments: acceptances)
    func decodesWellFormedBodies(_ body: ChunkedCase) {
        body.verify()
    }

    @Test(arguments: rejections)
    func rejectsMalformedBodiesAtTheFirstBadByte(_ body: ChunkedCase) {
        body.verify()
    }

    @Test func stopsAtTheEndOfTheBodyLeavingThePipelinedRequest() {
        let body = Array("5\r\nhello\r\n0\r\n\r\n".utf8)
        let outcome = ChunkedOutcome.decode(body + Array("GET / HTTP/1.1\r\n".utf8))
        #expect(outcome.done)
        #expect(outcome.consumed == body.count)
        #expect(outcome.data == Array("hello".utf8))
    }

    @Test func handsOutOneDataSpanPerCallAsOffsetsIntoTheBuffer() {
        var limits = chp_limits.standard
        var decoder = chp_chunked_decoder()
        chp_chunked_init(&decoder, &limits)
        let bytes = Array("5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n".utf8)
        var dataOffset = -1
        var dataLength = -1
        let first = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                chp_decode_chunked(&decoder, $0.baseAddress, $0.count, &dataOffset, &dataLength)
            }
        }
        #expect(first == 8)
        #expect(dataOffset == 3)
        #expect(dataLength == 5)
    }

    @Test func consumesNothingOnceDone() {
        var limits = chp_limits.standard
        var decoder = chp_chunked_decoder()
        chp_chunked_init(&decoder, &limits)
        let bytes = Array("0\r\n\r\n0\r\n\r\n".utf8)
        var dataOffset = 0
        var dataLength = 0
        let calls = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                let first = chp_decode_chunked(&decoder, chars.baseAddress, chars.count, &dataOffset, &dataLength)
                let second = chp_decode_chunked(
                    &decoder, chars.baseAddress! + first, chars.count - first, &dataOffset, &dataLength)
                return [first, second]
            }
        }
        #expect(calls == [5, 0])
        #expect(decoder.done == 1)
    }

    @Test func keepsFailingAfterAnError() {
        var limits = chp_limits.standard
        var decoder = chp_chunked_decoder()
        chp_chunked_init(&decoder, &limits)
        let bytes = Array("x\r\n0\r\n\r\n".utf8)
        var dataOffset = 0
        var dataLength = 0
        let results = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                [
                    chp_decode_chunked(&decoder, chars.baseAddress, chars.count, &dataOffset, &dataLength),
                    chp_decode_chunked(&decoder, chars.baseAddress! + 3, chars.count - 3, &dataOffset, &dataLength),
                ]
            }
        }
        #expect(results == [Int(CHP_ERROR), Int(CHP_ERROR)])
        #expect(decoder.error_code == Int32(CHP_ERR_CHUNK_SIZE.rawValue))
    }

    @Test func acceptsTheLargestChunkSizeAndStreamsItsData() {
        let outcome = ChunkedOutcome.decode(Array("ffffffffffffffff\r\nabc".utf8))
        #expect(outcome.error == nil)
        #expect(!outcome.done)
        #expect(outcome.data == Array("abc".utf8))
    }

    @Test func acceptsAnEmptyCallBeforeAnyByte() {
        #expect(ChunkedOutcome.decode([]) == ChunkedOutcome())
    }
}
