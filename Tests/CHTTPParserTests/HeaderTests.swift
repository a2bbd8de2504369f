// SPDX-License-Identifier: Apache-2.0

import CHTTPParser
import Testing

/// Field lines (RFC 9112 §5) and the framing fields derived from them (RFC 9112 §6). `Request.make()` puts the
/// first field line at offset 16, after "GET / HTTP/1.1\r\n".
@Suite struct HeaderTests {
    static let acceptances: [HeadCase] = [
        .accepted("field names in any case", Request.make(fields: ["hOsT: a", "X-Custom-Name: b"])),
        .accepted("HTAB and SP inside a value", Request.make(fields: ["Host: a", "X: a\tb c"])),
        .accepted(
            "obs-text in a value", Request.bytes("GET / HTTP/1.1\r\nHost: a\r\nX: caf\u{FFFD}\r\n\r\n", raw: 0xE9)),
        .accepted("empty value", Request.make(fields: ["Host: a", "X:"])),
        .accepted("value of whitespace only", Request.make(fields: ["Host: a", "X: \t "])),
        .accepted("no space after the colon", Request.make(fields: ["Host:a"])),
        .accepted("Content-Length 0", Request.make(method: "POST", fields: ["Host: a", "Content-Length: 0"])),
        .accepted("largest Content-Length", Request.make(fields: ["Host: a", "Content-Length: 18446744073709551615"])),
        .accepted(
            "identical repeated Content-Length",
            Request.make(fields: ["Host: a", "Content-Length: 5", "Content-Length: 5"])),
        .accepted("chunked", Request.make(fields: ["Host: a", "Transfer-Encoding: chunked"])),
        .accepted("chunked in capitals", Request.make(fields: ["Host: a", "Transfer-Encoding: CHUNKED"])),
        .accepted(
            "chunked after an empty list element", Request.make(fields: ["Host: a", "Transfer-Encoding: , chunked"])),
        .accepted("Connection list", Request.make(fields: ["Host: a", "Connection: keep-alive, Upgrade"])),
        .accepted("Expect 100-continue", Request.make(fields: ["Host: a", "Expect: 100-continue"])),
        .accepted(
            "HTTP/1.0 with Content-Length and no Host", Request.make(version: "HTTP/1.0", fields: ["Content-Length: 3"])
        ),
        .accepted("empty Host value", Request.make(fields: ["Host:"])),
    ]

    static let rejections: [HeadCase] = [
        .rejected("space before the colon", Request.make(fields: ["Host : a"]), CHP_ERR_SPACE_BEFORE_COLON, at: 20),
        .rejected("tab before the colon", Request.make(fields: ["Host\t: a"]), CHP_ERR_SPACE_BEFORE_COLON, at: 20),
        .rejected("empty field name", Request.make(fields: [": a", "Host: a"]), CHP_ERR_FIELD_NAME, at: 16),
        .rejected("separator in a field name", Request.make(fields: ["Ho(st: a"]), CHP_ERR_FIELD_NAME, at: 18),
        .rejected(
            "field line without a colon", Request.make(fields: ["NoColon", "Host: a"]), CHP_ERR_FIELD_NAME, at: 23),
        .rejected("obs-fold with SP", Request.make(fields: ["Host: a", "X: b", " c"]), CHP_ERR_OBS_FOLD, at: 31),
        .rejected("obs-fold with HTAB", Request.make(fields: ["X: b", "\tc", "Host: a"]), CHP_ERR_OBS_FOLD, at: 22),
        .rejected(
            "whitespace before the first field line", Request.make(fields: [" Host: a"]), CHP_ERR_OBS_FOLD, at: 16),
        .rejected("NUL in a value", Request.make(fields: ["Host: a", "X: a\u{00}b"]), CHP_ERR_FIELD_VALUE, at: 29),
        .rejected("ESC in a value", Request.make(fields: ["Host: a", "X: a\u{1B}b"]), CHP_ERR_FIELD_VALUE, at: 29),
        .rejected("DEL in a value", Request.make(fields: ["Host: a", "X: a\u{7F}b"]), CHP_ERR_FIELD_VALUE, at: 29),
        .rejected(
            "vertical tab in a value", Request.make(fields: ["Host: a", "X: a\u{0B}b"]), CHP_ERR_FIELD_VALUE, at: 29),
        .rejected(
            "bare CR in a value", Request.make(fields: ["X: a\rb", "Host: a"]), CHP_ERR_BARE_LINE_ENDING, at: 20),
        .rejected(
            "field line ended by a bare LF", "GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 23
        ),
        .rejected("head ended by a bare LF", "GET / HTTP/1.1\r\nHost: a\r\n\n", CHP_ERR_BARE_LINE_ENDING, at: 25),
        .rejected("head ended by a bare CR", "GET / HTTP/1.1\r\nHost: a\r\n\rX", CHP_ERR_BARE_LINE_ENDING, at: 25),
        .rejected("bare LF after a field name", "GET / HTTP/1.1\r\nHost\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 20),
        .rejected("HTTP/1.1 without Host", Request.make(fields: ["X: a"]), CHP_ERR_HOST_MISSING, at: 22),
        .rejected("HTTP/1.1 without any field", Request.make(fields: []), CHP_ERR_HOST_MISSING, at: 16),
        .rejected("two Host fields", Request.make(fields: ["Host: a", "host: b"]), CHP_ERR_HOST_REPEATED, at: 25),
        .rejected(
            "two identical Host fields", Request.make(fields: ["Host: a", "Host: a"]), CHP_ERR_HOST_REPEATED, at: 25),
        .rejected(
            "Content-Length with letters", Request.make(fields: ["Host: a", "Content-Length: abc"]),
            CHP_ERR_CONTENT_LENGTH, at: 41),
        .rejected(
            "Content-Length with a minus sign", Request.make(fields: ["Host: a", "Content-Length: -1"]),
            CHP_ERR_CONTENT_LENGTH, at: 41),
        .rejected(
            "Content-Length with a plus sign", Request.make(fields: ["Host: a", "Content-Length: +1"]),
            CHP_ERR_CONTENT_LENGTH, at: 41),
        .rejected(
            "Content-Length with an inner space", Request.make(fields: ["Host: a", "Content-Length: 1 2"]),
            CHP_ERR_CONTENT_LENGTH, at: 42),
        .rejected(
            "Content-Length as a list", Request.make(fields: ["Host: a", "Content-Length: 5, 5"]),
            CHP_ERR_CONTENT_LENGTH, at: 42),
        .rejected(
            "Content-Length in hex", Request.make(fields: ["Host: a", "Content-Length: 0x10"]), CHP_ERR_CONTENT_LENGTH,
            at: 42),
        .rejected(
            "empty Content-Length", Request.make(fields: ["Host: a", "Content-Length:"]), CHP_ERR_CONTENT_LENGTH, at: 40
        ),
        .rejected(
            "Content-Length over UInt64", Request.make(fields: ["Host: a", "Content-Length: 18446744073709551616"]),
            CHP_ERR_CONTENT_LENGTH, at: 60),
        .rejected(
            "Content-Length repeated with another value",
            Request.make(fields: ["Host: a", "Content-Length: 5", "Content-Length: 6"]),
            CHP_ERR_CONTENT_LENGTH_MISMATCH, at: 44),
        .rejected(
            "Content-Length then Transfer-Encoding",
            Request.make(fields: ["Host: a", "Content-Length: 5", "Transfer-Encoding: chunked"]),
            CHP_ERR_CONTENT_LENGTH_AND_TRANSFER_ENCODING, at: 44),
        .rejected(
            "Transfer-Encoding then Content-Length",
            Request.make(fields: ["Host: a", "Transfer-Encoding: chunked", "Content-Length: 5"]),
            CHP_ERR_CONTENT_LENGTH_AND_TRANSFER_ENCODING, at: 25),
        .rejected(
            "Transfer-Encoding in HTTP/1.0", Request.make(version: "HTTP/1.0", fields: ["Transfer-Encoding: chunked"]),
            CHP_ERR_TRANSFER_ENCODING_HTTP10, at: 16),
        .rejected(
            "chunked before gzip", Request.make(fields: ["Host: a", "Transfer-Encoding: chunked, gzip"]),
            CHP_ERR_CHUNKED_NOT_FINAL, at: 53),
        .rejected(
            "chunked twice", Request.make(fields: ["Host: a", "Transfer-Encoding: chunked, chunked"]),
            CHP_ERR_CHUNKED_NOT_FINAL, at: 53),
        .rejected(
            "chunked, then gzip on a second line",
            Request.make(fields: ["Host: a", "Transfer-Encoding: chunked", "Transfer-Encoding: gzip"]),
            CHP_ERR_CHUNKED_NOT_FINAL, at: 72),
        .rejected(
            "gzip as the transfer coding", Request.make(fields: ["Host: a", "Transfer-Encoding: gzip"]),
            CHP_ERR_UNKNOWN_TRANSFER_CODING, at: 44),
        .rejected(
            "gzip before chunked", Request.make(fields: ["Host: a", "Transfer-Encoding: gzip, chunked"]),
            CHP_ERR_UNKNOWN_TRANSFER_CODING, at: 44),
        .rejected(
            "identity as the transfer coding", Request.make(fields: ["Host: a", "Transfer-Encoding: identity"]),
            CHP_ERR_UNKNOWN_TRANSFER_CODING, at: 44),
        .rejected(
            "transfer coding with a parameter", Request.make(fields: ["Host: a", "Transfer-Encoding: chunked;q=1"]),
            CHP_ERR_TRANSFER_ENCODING, at: 51),
        .rejected(
            "quoted transfer coding", Request.make(fields: ["Host: a", "Transfer-Encoding: \"chunked\""]),
            CHP_ERR_TRANSFER_ENCODING, at: 44),
        .rejected(
            "empty Transfer-Encoding", Request.make(fields: ["Host: a", "Transfer-Encoding:"]),
            CHP_ERR_TRANSFER_ENCODING, at: 25),
        .rejected(
            "Transfer-Encoding of empty elements", Request.make(fields: ["Host: a", "Transfer-Encoding: , ,"]),
            CHP_ERR_TRANSFER_ENCODING, at: 25),
    ]

    @Test(arguments: acceptances)
    func acceptsWellFormedFieldLines(_ request: HeadCase) {
        request.verify()
    }

    @Test(arguments: rejections)
    func rejectsMalformedFieldLinesAtTheFirstBadByte(_ request: HeadCase) {
        request.verify()
    }

    @Test func matchesTheWorkedExampleInTheHeaderComment() throws {
        let bytes = Array("GET /a?b=1 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n".utf8)
        let head = try #require(ParseOutcome.parse(bytes).head)
        #expect(head.length == 54)
        #expect(head.fields.map(\.offsets) == [[21, 4, 27, 1], [30, 6, 38, 12]])
        #expect(head.expectContinue)
        #expect(ParseOutcome.parse(Array(bytes.prefix(40))) == .incomplete)
        #expect(ParseOutcome.parse(Array("GET /a b".utf8)) == .rejected(CHP_ERR_VERSION, offset: 7))
    }

    @Test func trimsLeadingAndTrailingWhitespaceFromValues() throws {
        let head = try #require(ParseOutcome.parse(Request.make(fields: ["Host: a", "X: \t v a\tl \t "])).head)
        #expect(head.fields[1].value == "v a\tl")
        #expect(head.fields[1].offsets == [25, 1, 30, 5])
    }

    @Test func givesAnEmptyValueZeroLengthAtTheLineEnd() throws {
        let head = try #require(ParseOutcome.parse(Request.make(fields: ["Host: a", "X: "])).head)
        #expect(head.fields[1].offsets == [25, 1, 28, 0])
    }

    @Test func keepsFieldsInOrderWithNamesAsSent() throws {
        let head = try #require(
            ParseOutcome.parse(Request.make(fields: ["X-B: 1", "Host: a", "x-a: 2", "X-B: 3"])).head)
        #expect(head.fields.map(\.name) == ["X-B", "Host", "x-a", "X-B"])
        #expect(head.fields.map(\.value) == ["1", "a", "2", "3"])
        #expect(head.hostCount == 1)
    }

    @Test func matchesFramingFieldNamesWithoutRegardToCase() throws {
        let head = try #require(
            ParseOutcome.parse(Request.make(fields: ["HOST: a", "content-LENGTH: 7", "CONNECTION: CLOSE"])).head)
        #expect(head.hostCount == 1)
        #expect(head.contentLength == 7)
        #expect(head.connectionClose)
    }

    @Test func readsContentLengthAsADecimalNumber() throws {
        let head = try #require(ParseOutcome.parse(Request.make(fields: ["Host: a", "Content-Length: 0042"])).head)
        #expect(head.contentLength == 42)
        #expect(!head.chunked)
        #expect(!head.hasTransferEncoding)
    }

    @Test func acceptsRepeatedContentLengthWithTheSameNumber() throws {
        let head = try #require(
            ParseOutcome.parse(Request.make(fields: ["Host: a", "Content-Length: 5", "Content-Length: 005"])).head)
        #expect(head.contentLength == 5)
    }

    @Test func reportsNoContentLengthWhenAbsent() throws {
        let head = try #require(ParseOutcome.parse(Request.make()).head)
        #expect(head.contentLength == nil)
    }

    @Test func reportsChunkedWhenItIsTheOnlyCoding() throws {
        let head = try #require(
            ParseOutcome.parse(Request.make(fields: ["Host: a", "Transfer-Encoding: Chunked"])).head)
        #expect(head.chunked)
        #expect(head.hasTransferEncoding)
        #expect(head.contentLength == nil)
    }

    static let connectionValues: [(value: String, close: Bool, keepAlive: Bool)] = [
        ("close", true, false),
        ("Close", true, false),
        ("keep-alive", false, true),
        ("Keep-Alive, Upgrade", false, true),
        ("upgrade ,  close ", true, false),
        ("keep-alive, close", true, true),
        ("closed", false, false),
        ("", false, false),
    ]

    @Test(arguments: connectionValues)
    func derivesConnectionOptionsAsCaseInsensitiveTokens(_ value: String, close: Bool, keepAlive: Bool) throws {
        let head = try #require(ParseOutcome.parse(Request.make(fields: ["Host: a", "Connection: \(value)"])).head)
        #expect(head.connectionClose == close)
        #expect(head.connectionKeepAlive == keepAlive)
    }

    static let expectValues: [(value: String, expectContinue: Bool)] = [
        ("100-continue", true),
        ("100-Continue", true),
        (" 100-CONTINUE ", true),
        ("100-continue-ish", false),
        ("200-ok", false),
        ("", false),
    ]

    @Test(arguments: expectValues)
    func derivesExpectContinueWithoutRegardToCase(_ value: String, expectContinue: Bool) throws {
        let head = try #require(ParseOutcome.parse(Request.make(fields: ["Host: a", "Expect: \(value)"])).head)
        #expect(head.expectContinue == expectContinue)
    }
}
