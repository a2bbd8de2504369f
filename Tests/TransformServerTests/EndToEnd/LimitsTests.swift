// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every limit of docs/api.md ("Limits") against the real binary over real sockets, with small configured values so
/// each boundary is a few bytes or a few hundred milliseconds away. Each limit is checked on both sides where it has
/// two.
@Suite struct LimitsTests {
    // MARK: - Head limits

    @Test func requestTargetAtTheLimitIsServedAndOneByteMoreIs414AndCloses() throws {
        let server = try ServerProcess(settings: ["maxRequestTargetBytes": "64"])
        let atLimit = try server.client()
        try atLimit.send("GET /\(String(repeating: "a", count: 63)) HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try atLimit.read().status == 404, "a 64-byte target is within the limit")
        #expect(try atLimit.request("GET", "/health").status == 200, "and the connection stays open")

        let over = try server.client()
        try over.send("GET /\(String(repeating: "a", count: 64)) HTTP/1.1\r\nHost: a\r\n\r\n")
        try Self.expectFramingError(over, status: 414, code: "uri_too_long")
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test func requestTargetOverTheLimitIs414BeforeTheLineEnds() throws {
        let server = try ServerProcess(settings: ["maxRequestTargetBytes": "64", "headerTimeoutMs": "5000"])
        let client = try RawClient(port: server.port, timeoutSeconds: 3)
        try client.send("GET /" + String(repeating: "a", count: 200))
        try Self.expectFramingError(client, status: 414, code: "uri_too_long")
    }

    @Test func headerSectionAtTheLimitIsServedAndOneByteMoreIs431AndCloses() throws {
        let server = try ServerProcess(settings: ["maxHeaderBytes": "256"])
        // Counted: every field line with its CRLF. "Host: a\r\n" is 9 bytes, "X: " + value + "\r\n" is 5 + value.
        func head(sectionBytes: Int) -> String {
            "GET /health HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "v", count: sectionBytes - 14))\r\n\r\n"
        }
        let atLimit = try server.client()
        try atLimit.send(head(sectionBytes: 256))
        #expect(try atLimit.read().status == 200)

        let over = try server.client()
        try over.send(head(sectionBytes: 257))
        try Self.expectFramingError(over, status: 431, code: "headers_too_large")
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test func headerLineOverTheLimitIs431BeforeTheLineEnds() throws {
        let server = try ServerProcess(settings: ["maxHeaderBytes": "256", "headerTimeoutMs": "5000"])
        let client = try RawClient(port: server.port, timeoutSeconds: 3)
        try client.send("GET /health HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 400))
        try Self.expectFramingError(client, status: 431, code: "headers_too_large")
    }

    @Test func fieldsAtTheLimitAreServedAndOneMoreIs431AndCloses() throws {
        let server = try ServerProcess(settings: ["maxHeaderFields": "5"])
        func head(fields: Int) -> String {
            "GET /health HTTP/1.1\r\nHost: a\r\n" + (1..<fields).map { "X-\($0): y\r\n" }.joined() + "\r\n"
        }
        let atLimit = try server.client()
        try atLimit.send(head(fields: 5))
        #expect(try atLimit.read().status == 200)

        let over = try server.client()
        try over.send(head(fields: 6))
        try Self.expectFramingError(over, status: 431, code: "headers_too_large")
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test func trailerSectionIsHeldToTheHeaderLimits() throws {
        let server = try ServerProcess(settings: ["maxHeaderFields": "5", "maxHeaderBytes": "256"])
        let start =
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n{\"uid\":1}\r\n0\r\n"
        let five = try server.client()
        try five.send(start + (1...5).map { "T-\($0): v\r\n" }.joined() + "\r\n")
        #expect(try five.read().text == #"{"uid":1}"#)

        let six = try server.client()
        try six.send(start + (1...6).map { "T-\($0): v\r\n" }.joined() + "\r\n")
        try Self.expectFramingError(six, status: 431, code: "headers_too_large")

        let long = try server.client()
        try long.send(start + "T: \(String(repeating: "v", count: 300))\r\n\r\n")
        try Self.expectFramingError(long, status: 431, code: "headers_too_large")
    }

    // MARK: - Versions and codings

    @Test func wellFormedVersionsOtherThan10And11Are505AndClose() throws {
        let server = try ServerProcess()
        for version in ["HTTP/2.0", "HTTP/0.9", "HTTP/1.2", "HTTP/3.0", "HTTP/9.9"] {
            let client = try server.client()
            try client.send("GET /health \(version)\r\nHost: a\r\n\r\n")
            try Self.expectFramingError(client, status: 505, code: "http_version_not_supported", version)
        }
        let preface = try server.client()
        try preface.send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")  // the HTTP/2 connection preface
        try Self.expectFramingError(preface, status: 505, code: "http_version_not_supported", "h2 preface")
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test func malformedVersionsAre400AndClose() throws {
        let server = try ServerProcess()
        let versions = [
            "http/1.1", "HTTP/1", "HTTP/1.10", "HTTP/11", "HTTP/1,1", "HTTPS/1.1", "HTTP/a.b", "HTTP/1.1x",
            "HTTP/ 1.1", "HTTP/1.1 ", "HTTP", "HTTP/", "HTTP/1.", "HTTP/.1", "HTTP/-1.1", "HTTP/\u{00B9}.1", "",
        ]
        for version in versions {
            let client = try server.client()
            try client.send("GET /health \(version)\r\nHost: a\r\n\r\n")
            try Self.expectFramingError(client, status: 400, code: "bad_request", version.debugDescription)
        }
        let simple = try server.client()
        try simple.send("GET /health\r\n\r\n")  // an HTTP/0.9 simple request has no version at all
        try Self.expectFramingError(simple, status: 400, code: "bad_request", "no version")
    }

    @Test func transferCodingsOtherThanChunkedAre501AndClose() throws {
        let server = try ServerProcess()
        for coding in ["gzip", "gzip, chunked", "identity", "deflate", "compress", "x-custom"] {
            let client = try server.client()
            try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \(coding)\r\n\r\n")
            try Self.expectFramingError(client, status: 501, code: "not_implemented", coding)
        }
        #expect(try server.freshHealthStatus() == 200)
    }

    // MARK: - Body limits and timeouts

    @Test(arguments: ["Content-Length: 100\r\n\r\n{\"uid\":", "Transfer-Encoding: chunked\r\n\r\n64\r\n{\"uid\":"])
    func stalledBodyIs408AndCloses(framing: String) throws {
        let server = try ServerProcess(settings: ["bodyTimeoutMs": "300"])
        let client = try server.client()
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\n" + framing)
        try Self.expectFramingError(client, status: 408, code: "request_timeout")
        #expect(try server.freshHealthStatus() == 200)
    }

    /// docs/api.md, "Limits": "body inactivity" — a body that keeps coming is read however long it takes in total.
    @Test func bodyTimeoutCountsInactivityNotTotalTime() throws {
        let server = try ServerProcess(settings: ["bodyTimeoutMs": "600"])
        let client = try server.client()
        let body = #"{"uid":12345678}"#
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
        for byte in body.utf8 {
            usleep(60_000)  // 16 × 60 ms is well past 600 ms in total, yet no gap comes near it
            try client.send([byte])
        }
        let response = try client.read()
        #expect(response.status == 200)
        #expect(response.text == body)
    }

    @Test func chunkedBodyOverTheLimitIs413AndCloses() throws {
        let server = try ServerProcess(settings: ["maxBodyBytes": "1000"])
        let client = try server.client()
        let chunk = "[" + String(repeating: " ", count: 599) + "\r\n"
        try client.send(
            "POST /convert/User/array HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "258\r\n\(chunk)258\r\n\(chunk)")
        try Self.expectFramingError(client, status: 413, code: "body_too_large")
        #expect(try server.freshHealthStatus() == 200)
    }

    /// A chunk-size line that alone announces more than the limit already decides the 413 (docs/api.md, "Limits":
    /// "answered without waiting for the body").
    @Test func chunkAnnouncingMoreThanTheLimitIs413WithoutWaitingForIt() throws {
        let server = try ServerProcess(settings: ["maxBodyBytes": "1000", "bodyTimeoutMs": "3000"])
        let client = try RawClient(port: server.port, timeoutSeconds: 1)
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10000\r\n{")
        try Self.expectFramingError(client, status: 413, code: "body_too_large")
    }

    @Test func writeTimeoutClosesAClientThatNeverReadsAndOthersAreServed() throws {
        let server = try ServerProcess(settings: ["writeTimeoutMs": "300", "keepAliveTimeoutMs": "60000"])
        // Three requests of ~6 KB whose answers are ~6 MB each: far more than any socket buffers hold.
        let name = String(repeating: "n", count: 6_000_000)
        let compressed = try HTTPBehaviourTests.gzip(Data(#"{"uid":1,"name":"\#(name)"}"#.utf8))
        let head =
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\n"
            + "Content-Length: \(compressed.count)\r\n\r\n"
        let request = Array(head.utf8) + compressed
        let client = try RawClient(port: server.port, timeoutSeconds: 5)
        client.limitSends(seconds: 5)
        #expect(client.trySend(request + request + request) == nil)
        #expect(
            try server.waitForActiveConnections(atMost: 0, seconds: 10) == 0,
            "the server gives up on the stuck connection")
        #expect(try server.freshHealthStatus() == 200)
        let (received, first, ending) = client.discardToEnd(limit: 64 << 20)
        #expect(String(decoding: first, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"), "the first answer had begun")
        #expect(ending.endedByPeer, "\(ending)")
        #expect(received < 3 * 6_000_000, "the answers were cut off, not delivered")
    }

    // MARK: - JSON and NDJSON limits

    @Test func nestingAtTheLimitConvertsAndOneLevelDeeperIs400() throws {
        let server = try ServerProcess(settings: ["maxNestingDepth": "8"])
        let client = try server.client()
        // The top-level object is depth 1; each `[` adds one.
        func body(depth: Int) -> String {
            #"{"uid":1,"x":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
                + "}"
        }
        let atLimit = try client.request("POST", "/convert/User", body: body(depth: 8))
        #expect(atLimit.status == 200)
        let deeper = try client.request("POST", "/convert/User", body: body(depth: 9))
        #expect(deeper.status == 400)
        #expect(deeper.text.contains(#""code":"nesting_too_deep""#))
        #expect(deeper.text.contains(#""offset":20"#), "the ninth bracket is the first byte not accepted")
        #expect(try client.request("GET", "/health").status == 200, "not a framing error: the connection stays open")
    }

    @Test func ndjsonLineOverTheLimitIsA413RecordAndTheStreamGoesOn() throws {
        let server = try ServerProcess(settings: ["maxNdjsonLineBytes": "64"])
        let client = try server.client()
        let exact = #"{"uid":2,"name":""# + String(repeating: "n", count: 45) + #""}"#  // 64 bytes
        let long = #"{"uid":3,"name":""# + String(repeating: "n", count: 46) + #""}"#  // 65 bytes
        let body = "{\"uid\":1}\n\(exact)\n\(long)\n{\"uid\":4}\n"
        let response = try client.request(
            "POST", "/convert/User/array", body: body,
            headers: ["Content-Type": "application/x-ndjson"])
        #expect(response.status == 200)
        let lines = response.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        #expect(lines.first == #"{"uid":1}"#)
        #expect(lines.dropFirst().first.map(String.init) == exact)
        let record = lines.dropFirst(2).first ?? ""
        #expect(record.hasPrefix(#"{"error":{"status":413,"code":"line_too_long","#), "\(record)")
        #expect(record.hasSuffix(#","line":3}}"#), "\(record)")
        #expect(lines.dropFirst(3).first == #"{"uid":4}"#)
        #expect(response.trailer("X-Transform-Warnings") == "1")
    }

    @Test func ndjsonBodiesHaveNoTotalLimit() throws {
        let server = try ServerProcess(settings: ["maxBodyBytes": "1000"])
        let client = try server.client()
        let body = (0..<200).map { "{\"uid\":\($0)}\n" }.joined()
        let response = try client.request(
            "POST", "/convert/User/array", body: body,
            headers: ["Content-Type": "application/x-ndjson"])
        #expect(response.status == 200)
        #expect(response.text == body)
    }

    /// docs/api.md, "Limits": NDJSON is "converted line by line as it arrives, in bounded memory whatever its total
    /// size".
    @Test func ndjsonLinesAreAnsweredBeforeTheBodyEnds() throws {
        let server = try ServerProcess(settings: ["bodyTimeoutMs": "5000"])
        let client = try RawClient(port: server.port, timeoutSeconds: 2)
        try client.send(
            "POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                + "Transfer-Encoding: chunked\r\n\r\na\r\n{\"uid\":1}\n\r\n")
        #expect(client.isReadable(withinMilliseconds: 2000), "the first line's answer comes while the body is open")
        try client.send("a\r\n{\"uid\":2}\n\r\n0\r\n\r\n")
        let response = try client.read()
        #expect(response.status == 200)
        #expect(response.text == "{\"uid\":1}\n{\"uid\":2}\n")
    }

    /// A gzip NDJSON body has no total limit, but each line has one, so inflating it must not hold the whole body:
    /// 32 MiB of spaces (one over-long line) may not raise the server's peak memory by anywhere near 32 MiB.
    @Test func gzipNdjsonBodyIsInflatedInBoundedMemory() throws {
        let server = try ServerProcess(settings: ["maxNdjsonLineBytes": "1024"])
        let bomb = try HTTPBehaviourTests.gzip(Data(repeating: UInt8(ascii: " "), count: 32 << 20))
        let before = try server.peakResidentBytes()
        let client = try server.client()
        var head = "POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
        head += "Content-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n"
        try client.send(Array(head.utf8) + bomb)
        let response = try client.read()
        #expect(response.status == 200)
        #expect(response.text.contains(#""code":"line_too_long""#))
        let growth = try server.peakResidentBytes() - before
        #expect(growth < 16 << 20, "peak memory grew by \(growth >> 20) MiB")
    }

    @Test func gzipBodyInflatingPastTheLimitIs413() throws {
        let server = try ServerProcess(settings: ["maxBodyBytes": "8192"])
        let exact = #"{"uid":1,"name":""# + String(repeating: "n", count: 8192 - 19) + #""}"#
        let atLimit = try HTTPBehaviourTests.gzip(Data(exact.utf8))
        let client = try server.client()
        let fits = try client.request(bytes: atLimit, headers: ["Content-Encoding": "gzip"])
        #expect(fits.status == 200, "inflating to exactly the limit is fine")

        let bomb = try HTTPBehaviourTests.gzip(Data(repeating: UInt8(ascii: " "), count: 4 << 20))  // 4 MiB → ~4 KB
        #expect(bomb.count <= 8192, "the compressed body itself is within the limit")
        let response = try client.request(bytes: bomb, headers: ["Content-Encoding": "gzip"])
        #expect(response.status == 413)
        #expect(response.text.contains(#""code":"body_too_large""#))
        #expect(response.header("Connection") == "close", "docs/api.md: a 413 closes the connection")
        #expect(try server.freshHealthStatus() == 200)
    }

    // MARK: - Helpers

    /// A framing error (docs/api.md, "Limits"): the status, the error code, `Connection: close`, and the server
    /// closing.
    static func expectFramingError(
        _ client: RawClient, status: Int, code: String, _ comment: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let response = try client.read()
        #expect(response.status == status, "\(comment)", sourceLocation: sourceLocation)
        #expect(
            response.text.contains("\"code\":\"\(code)\""), "\(comment): \(response.text)",
            sourceLocation: sourceLocation)
        #expect(response.header("Connection") == "close", "\(comment)", sourceLocation: sourceLocation)
        #expect(client.isClosedByPeer(), "\(comment)", sourceLocation: sourceLocation)
    }
}
