// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

/// The Swift face of CHTTPParser: heads as values, every C error code as its HTTPParseError, chunked bodies
/// appended to a caller's buffer. The rules themselves are tested against the C API in CHTTPParserTests.
@Suite struct HTTPRequestParserTests {
    /// Target 16 bytes, field lines 64 bytes, 3 fields.
    static let small = HTTPRequestParser.Limits(maxRequestTargetBytes: 16, maxHeaderBytes: 64, maxHeaderFields: 3)

    static func parse(_ text: String, limits: HTTPRequestParser.Limits = small) -> Result<
        HTTPRequestHead?, HTTPParseError
    > {
        var parser = HTTPRequestParser(limits: limits)
        return Array(text.utf8).withUnsafeBytes { parser.parseHead($0) }
    }

    static func decodeChunked(_ text: String, limits: HTTPRequestParser.Limits = small) -> Result<
        [UInt8], HTTPParseError
    > {
        var decoder = HTTPRequestParser.ChunkedDecoder(limits: limits)
        var body: [UInt8] = []
        return Array(text.utf8).withUnsafeBytes { bytes in
            decoder.decode(bytes, into: &body).map { _ in body }
        }
    }

    @Test func parsesMethodTargetAndLowercasedFieldNames() throws {
        let head = try #require(
            try Self.parse("POST /convert/User?x=%41 HTTP/1.1\r\nHost: a\r\nX-Trace:  t 1 \r\n\r\n", limits: .init())
                .get())
        #expect(head.method == .post)
        #expect(head.target == "/convert/User?x=%41")
        #expect(head.versionMinor == 1)
        #expect(head.headers.map(\.name) == ["host", "x-trace"])
        #expect(head.headers.map(\.value) == ["a", "t 1"])
        #expect(head.firstValue(of: "x-trace") == "t 1")  // sent as "X-Trace"
        #expect(head.firstValue(of: "X-TRACE") == "t 1")
        #expect(head.firstValue(of: "absent") == nil)
    }

    @Test func reportsTheHeadLengthWithoutTheBody() throws {
        let head = try #require(try Self.parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}").get())
        #expect(head.headLength == 47)
        #expect(head.contentLength == 2)
        #expect(!head.chunked)
    }

    @Test func reportsChunkedAndExpectContinue() throws {
        let head = try #require(
            try Self.parse("PUT / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nExpect: 100-Continue\r\n\r\n")
                .get())
        #expect(head.chunked)
        #expect(head.contentLength == nil)
        #expect(head.expectContinue)
    }

    @Test func decodesValueBytesThatAreNotUTF8AsReplacementCharacters() throws {
        var bytes = Array("GET / HTTP/1.1\r\nHost: a\r\nX: caf".utf8)
        bytes += [0xE9] + Array("\r\n\r\n".utf8)
        var parser = HTTPRequestParser()
        let head = try #require(try bytes.withUnsafeBytes { parser.parseHead($0) }.get())
        #expect(head.firstValue(of: "x") == "caf\u{FFFD}")
    }

    static let keepAliveCases: [(head: String, keepAlive: Bool)] = [
        ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nHost: a\r\nConnection: Keep-Alive\r\n\r\n", true),
        ("GET / HTTP/1.0\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
        ("GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n", false),
    ]

    @Test(arguments: keepAliveCases)
    func derivesKeepAliveFromVersionAndConnection(_ head: String, keepAlive: Bool) throws {
        let parsed = try #require(try Self.parse(head).get())
        #expect(parsed.keepAlive == keepAlive)
    }

    @Test func returnsNilUntilTheLastByteWhenDripFed() throws {
        let bytes = Array("POST /a HTTP/1.1\r\nHost: example\r\nContent-Length: 10\r\nX: y\r\n\r\n".utf8)
        var parser = HTTPRequestParser(limits: Self.small)
        for count in 0..<bytes.count {
            let result = bytes[..<count].withUnsafeBytes { parser.parseHead($0) }
            #expect(try result.get() == nil, "after \(count) bytes")
        }
        let head = try #require(try bytes.withUnsafeBytes { parser.parseHead($0) }.get())
        #expect(head.headLength == bytes.count)
        #expect(head.contentLength == 10)
    }

    @Test func startsAfreshAfterAHead() throws {
        var parser = HTTPRequestParser()
        let first = Array("GET /one HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let second = Array("GET /two HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        _ = try first.withUnsafeBytes { parser.parseHead($0) }.get()
        #expect(try Array(second.prefix(4)).withUnsafeBytes { parser.parseHead($0) }.get() == nil)
        let head = try #require(try second.withUnsafeBytes { parser.parseHead($0) }.get())
        #expect(head.target == "/two")
    }

    @Test func reportsAnOverlongTargetWhileItIsStillArriving() {
        let bytes = Array(("GET /" + String(repeating: "t", count: 200)).utf8)
        var parser = HTTPRequestParser(limits: Self.small)
        var failedAt: Int?
        for count in 1...bytes.count where failedAt == nil {
            if case .failure(let error) = bytes[..<count].withUnsafeBytes({ parser.parseHead($0) }) {
                #expect(error == .targetTooLong(limit: 16))
                failedAt = count
            }
        }
        // The limit is crossed at 21 bytes; re-parsing only as the buffer doubles finds it by 42.
        #expect((21...42).contains(failedAt ?? 0))
    }

    @Test func reportsAnErrorInsideAnUnfinishedLineByTheTimeTheLineEnds() {
        let bytes = Array("GET / HTTP/1.1\r\nHost: a\u{01}b\r\n".utf8)
        var parser = HTTPRequestParser()
        var result: Result<HTTPRequestHead?, HTTPParseError> = .success(nil)
        for count in 1...bytes.count {
            result = bytes[..<count].withUnsafeBytes { parser.parseHead($0) }
            if case .failure = result { break }
        }
        #expect(throws: HTTPParseError.invalidFieldValue(offset: 23)) { try result.get() }
    }

    static let headErrors: [(request: String, error: HTTPParseError)] = [
        ("GET / HTTP/1.1\nHost: a\n\n", .bareLineEnding(offset: 14)),
        ("G(T / HTTP/1.1\r\n\r\n", .invalidMethod(offset: 1)),
        (String(repeating: "M", count: 33) + " / HTTP/1.1\r\n\r\n", .methodTooLong(limit: 32)),
        ("GET  / HTTP/1.1\r\n\r\n", .malformedRequestLine(offset: 4)),
        ("GET /\u{01} HTTP/1.1\r\n\r\n", .invalidTarget(offset: 5)),
        ("GET /" + String(repeating: "t", count: 16) + " HTTP/1.1\r\n\r\n", .targetTooLong(limit: 16)),
        ("GET / HTTP/1.x\r\n\r\n", .malformedVersion(offset: 13)),
        ("GET / HTTP/2.0\r\n\r\n", .versionNotSupported(offset: 6)),
        ("GET / HTTP/1.1\r\n: a\r\n\r\n", .invalidFieldName(offset: 16)),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", .whitespaceBeforeColon(offset: 20)),
        ("GET / HTTP/1.1\r\n Host: a\r\n\r\n", .obsoleteLineFolding(offset: 16)),
        ("GET / HTTP/1.1\r\nHost: \u{00}\r\n\r\n", .invalidFieldValue(offset: 22)),
        ("GET / HTTP/1.1\r\nHost: " + String(repeating: "h", count: 64) + "\r\n\r\n", .headersTooLarge(limit: 64)),
        ("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", .tooManyHeaderFields(limit: 3)),
        ("GET / HTTP/1.1\r\n\r\n", .missingHost(offset: 16)),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .repeatedHost(offset: 25)),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n", .invalidContentLength(offset: 41)),
        (
            "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            .conflictingContentLength(offset: 44)
        ),
        (
            "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
            .contentLengthWithTransferEncoding(offset: 44)
        ),
        ("GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", .transferEncodingInHTTP10(offset: 16)),
        ("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked;x\r\n\r\n", .malformedTransferEncoding(offset: 51)),
        ("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", .chunkedNotFinal(offset: 53)),
        ("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", .unsupportedTransferCoding(offset: 44)),
    ]

    @Test(arguments: headErrors)
    func mapsEveryHeadErrorCodeToItsCase(_ request: String, error: HTTPParseError) {
        #expect(throws: error) { try Self.parse(request).get() }
    }

    static let bodyErrors: [(body: String, error: HTTPParseError)] = [
        ("x\r\n", .invalidChunkSize(offset: 0)),
        ("10000000000000000\r\n", .chunkSizeOverflow(offset: 16)),
        ("5;\r\nhello\r\n", .invalidChunkExtension(offset: 2)),
        ("5;" + String(repeating: "a", count: 4100), .chunkLineTooLong(offset: 4096, limit: 4096)),
        ("5\r\nhelloX", .invalidChunkDataEnd(offset: 8)),
        ("5\nhello", .bareLineEnding(offset: 1)),
        ("0\r\nX: " + String(repeating: "v", count: 70) + "\r\n\r\n", .headersTooLarge(limit: 64)),
        ("0\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", .tooManyHeaderFields(limit: 3)),
    ]

    @Test(arguments: bodyErrors)
    func mapsEveryChunkedErrorCodeToItsCase(_ body: String, error: HTTPParseError) {
        #expect(throws: error) { try Self.decodeChunked(body).get() }
    }

    @Test func mapsAnUnknownCodeToAPlainBadRequest() {
        let error = HTTPRequestParser.parseError(code: 999, offset: 3, limits: Self.small)
        #expect(error == .unknownParserError(code: 999, offset: 3))
        #expect(error.status == .badRequest)
    }

    @Test func decodesAChunkedBodyIntoTheCallersBuffer() throws {
        #expect(
            try Self.decodeChunked("5\r\nhello\r\n6;x=y\r\n world\r\n0\r\nT: 1\r\n\r\n").get()
                == Array("hello world".utf8))
    }

    @Test func decodesTheSameChunkedBodyFedOneByteAtATime() throws {
        let bytes = Array("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n".utf8)
        var decoder = HTTPRequestParser.ChunkedDecoder()
        var body: [UInt8] = []
        var done = false
        for index in bytes.indices {
            let step = try bytes[index...index].withUnsafeBytes { decoder.decode($0, into: &body) }.get()
            #expect(step.consumed == 1)
            done = step.done
        }
        #expect(done)
        #expect(decoder.isDone)
        #expect(body == Array("hello world".utf8))
    }

    @Test func leavesTheBytesAfterTheBodyUnconsumed() throws {
        let bytes = Array("2\r\nhi\r\n0\r\n\r\nGET / HTTP/1.1\r\n".utf8)
        var decoder = HTTPRequestParser.ChunkedDecoder()
        var body: [UInt8] = []
        let step = try bytes.withUnsafeBytes { decoder.decode($0, into: &body) }.get()
        #expect(step.consumed == 12)
        #expect(step.done)
        #expect(body == Array("hi".utf8))
    }
}

extension HTTPRequestParserTests {
    static func storage(_ text: String) -> UnsafePointer<UInt8>? {
        text.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil
    }

    static func value(_ value: String) throws -> String? {
        let head = try #require(try parse("GET / HTTP/1.1\r\nHost: a\r\nX-V: \(value)\r\n\r\n", limits: .init()).get())
        return head.firstValue(of: "x-v")
    }

    /// A well-known value is the literal itself (no allocation); anything else is read as sent.
    @Test(arguments: HTTPRequestParser.wellKnownValues)
    func wellKnownValuesAreTheirLiterals(_ known: String) throws {
        let read = try #require(try Self.value(known))
        #expect(read == known)
        #expect(Self.storage(read) == Self.storage(known), "the literal's storage, not a copy")
        let upper = try #require(try Self.value(known.uppercased()))
        #expect(upper == known.uppercased(), "compared byte for byte: another spelling is kept as sent")
        #expect(Self.storage(upper) != Self.storage(known))
        #expect(try Self.value(known + "x") == known + "x")
        #expect(try Self.value(String(known.dropLast())) == String(known.dropLast()))
    }
}
