// SPDX-License-Identifier: Apache-2.0

import CHTTPParser
import Testing

/// The request line: `method SP target SP HTTP/D.D CRLF` (RFC 9112 §3), nothing more and nothing less.
@Suite struct RequestLineTests {
    static let acceptances: [HeadCase] = [
        .accepted("minimal HTTP/1.1 request", Request.make()),
        .accepted("HTTP/1.0 without Host", Request.make(version: "HTTP/1.0", fields: [])),
        .accepted("extension method with asterisk-form", Request.make(method: "M-SEARCH", target: "*")),
        .accepted("method made of every tchar", Request.make(method: "!#$%&'*+-.^_`|~09azAZ")),
        .accepted("longest method", Request.make(method: String(repeating: "M", count: 32))),
        .accepted("absolute-form target", Request.make(target: "http://example.com:8080/a/b?c=d#e")),
        .accepted("authority-form target", Request.make(method: "CONNECT", target: "example.com:443")),
        .accepted(
            "target made of every VCHAR",
            Request.make(target: String((0x21...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }))),
        .accepted("one leading empty line", Array("\r\n".utf8) + Request.make()),
    ]

    static let rejections: [HeadCase] = [
        .rejected("two spaces after the method", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_REQUEST_LINE, at: 4),
        .rejected("two spaces after the target", "GET /  HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_REQUEST_LINE, at: 6),
        .rejected("tab after the method", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_REQUEST_LINE, at: 3),
        .rejected("tab after the target", "GET /\tHTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_TARGET, at: 5),
        .rejected("space before the method", " GET / HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_REQUEST_LINE, at: 0),
        .rejected("space after the version", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", CHP_ERR_REQUEST_LINE, at: 14),
        .rejected("method with a separator", "G(T / HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_METHOD, at: 1),
        .rejected("method with an at sign", "GE@ / HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_METHOD, at: 2),
        .rejected(
            "method longer than 32 bytes", String(repeating: "M", count: 33) + " / HTTP/1.1\r\n\r\n",
            CHP_ERR_METHOD_TOO_LONG, at: 32),
        .rejected("two leading empty lines", "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_METHOD, at: 2),
        .rejected("leading bare LF", "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 0),
        .rejected("leading bare CR", "\rGET / HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 0),
        .rejected("request line ended by a bare LF", "GET / HTTP/1.1\nHost: a\n\n", CHP_ERR_BARE_LINE_ENDING, at: 14),
        .rejected(
            "request line ended by a bare CR", "GET / HTTP/1.1\rHost: a\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 14),
        .rejected("bare LF after the method", "GET\n/ HTTP/1.1\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 3),
        .rejected("bare LF in the target", "GET /a\nb HTTP/1.1\r\n\r\n", CHP_ERR_BARE_LINE_ENDING, at: 6),
        .rejected("control byte in the target", "GET /a\u{01}b HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_TARGET, at: 6),
        .rejected("NUL in the target", "GET /\u{00} HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_TARGET, at: 5),
        .rejected("DEL in the target", "GET /a\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n", CHP_ERR_TARGET, at: 6),
        .rejected(
            "non-ASCII byte in the target", Request.bytes("GET /\u{FFFD} HTTP/1.1\r\nHost: a\r\n\r\n"), CHP_ERR_TARGET,
            at: 5),
        .rejected("missing version (HTTP/0.9 form)", "GET /\r\n\r\n", CHP_ERR_REQUEST_LINE, at: 5),
        .rejected("missing target and version", "GET\r\n\r\n", CHP_ERR_REQUEST_LINE, at: 3),
        .rejected("lowercase protocol name", "GET / http/1.1\r\nHost: a\r\n\r\n", CHP_ERR_VERSION, at: 6),
        .rejected("version without a minor", "GET / HTTP/1\r\nHost: a\r\n\r\n", CHP_ERR_VERSION, at: 12),
        .rejected("two-digit major version", "GET / HTTP/11.1\r\nHost: a\r\n\r\n", CHP_ERR_VERSION, at: 12),
        .rejected("letter as the minor version", "GET / HTTP/1.x\r\nHost: a\r\n\r\n", CHP_ERR_VERSION, at: 13),
        .rejected("two-digit minor version", "GET / HTTP/1.10\r\nHost: a\r\n\r\n", CHP_ERR_VERSION, at: 14),
        .rejected("HTTP/2.00", "GET / HTTP/2.00\r\nHost: a\r\n\r\n", CHP_ERR_VERSION, at: 14),
        .rejected("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", CHP_ERR_VERSION_UNSUPPORTED, at: 6),
        .rejected("HTTP/1.2", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", CHP_ERR_VERSION_UNSUPPORTED, at: 6),
        .rejected("HTTP/0.9", "GET / HTTP/0.9\r\n\r\n", CHP_ERR_VERSION_UNSUPPORTED, at: 6),
        .rejected("HTTP/3.0", "GET / HTTP/3.0\r\n\r\n", CHP_ERR_VERSION_UNSUPPORTED, at: 6),
    ]

    @Test(arguments: acceptances)
    func acceptsWellFormedRequestLines(_ request: HeadCase) {
        request.verify()
    }

    @Test(arguments: rejections)
    func rejectsMalformedRequestLinesAtTheFirstBadByte(_ request: HeadCase) {
        request.verify()
    }

    @Test func reportsMethodTargetAndVersion() throws {
        let head = try #require(
            ParseOutcome.parse(Request.make(method: "POST", target: "/convert/User?mode=strict")).head)
        #expect(head.method == "POST")
        #expect(head.target == "/convert/User?mode=strict")
        #expect(head.versionMinor == 1)
        #expect(head.methodOffset == 0)
        #expect(head.targetOffset == 5)
    }

    @Test func reportsMinorVersionZeroForHTTP10() throws {
        let head = try #require(ParseOutcome.parse(Request.make(version: "HTTP/1.0", fields: [])).head)
        #expect(head.versionMinor == 0)
    }

    @Test func countsAnIgnoredLeadingEmptyLineInTheHeadLength() throws {
        let request = Array("\r\n".utf8) + Request.make()
        let head = try #require(ParseOutcome.parse(request).head)
        #expect(head.methodOffset == 2)
        #expect(head.length == request.count)
    }

    @Test func keepsTheTargetRawWithoutDecoding() throws {
        let head = try #require(ParseOutcome.parse(Request.make(target: "/a%20b/%2F?q=%41")).head)
        #expect(head.target == "/a%20b/%2F?q=%41")
    }

    @Test func leavesBytesAfterTheHeadUnexamined() throws {
        let head = Request.make(method: "POST", fields: ["Host: a", "Content-Length: 5"])
        let outcome = ParseOutcome.parse(head + Array("\u{00}\n\r GET".utf8))
        #expect(outcome.head?.length == head.count)
    }
}
