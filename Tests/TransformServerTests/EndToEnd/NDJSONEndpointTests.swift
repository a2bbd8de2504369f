// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// NDJSON over HTTP: converted while the body arrives, chunked with a trailer, bounded in memory.
@Suite struct NDJSONEndpointTests {
    static let ndjson = ["Content-Type": "application/x-ndjson"]

    @Test func strictModeEndsTheStreamAtTheFirstFailingLineAndCloses() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let body = "{\"uid\":1}\n{\"uid\":\"2\"}\n{\"uid\":3}\n"
        let response = try client.request("POST", "/convert/User/array?mode=strict", body: body, headers: Self.ndjson)
        #expect(response.status == 200)
        let lines = response.text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0] == #"{"uid":1}"#)
        #expect(lines[1].hasPrefix(#"{"error":{"status":422,"code":"validation_failed","message":"1 error","line":2,"#))
        #expect(response.trailer("X-Transform-Warnings") == "1")
        #expect(client.isClosedByPeer())
    }

    /// A stream that ends early leaves the rest of its body unread: the server shuts its write side and discards
    /// input for 2 s (a lingering close), then closes — at that deadline, not at the 60 s body timeout.
    @Test func aStreamEndedEarlyLingersTwoSecondsThenCloses() throws {
        let server = try ServerProcess(settings: ["bodyTimeoutMs": "60000"])
        let client = try server.client()
        let lines = "{\"uid\":\"2\"}\n"
        try client.send(
            "POST /convert/User/array?mode=strict HTTP/1.1\r\nHost: a\r\n"
                + "Content-Type: application/x-ndjson\r\nContent-Length: 1000\r\n\r\n\(lines)")
        let response = try client.read()
        let answered = Date()
        #expect(response.status == 200)
        #expect(response.text.hasPrefix(#"{"error":{"status":422"#))
        let stillOpen = try server.waitForActiveConnections(atLeast: 1)
        let left = try server.waitForActiveConnections(atMost: 0, seconds: 8)
        let lingered = Date().timeIntervalSince(answered)
        withExtendedLifetime(client) {}  // the client's socket stayed open all along: only the server ended it
        #expect(stillOpen == 1, "lingering: still open")
        #expect(left == 0, "closed once the linger is over")
        #expect(lingered >= 1.5, "lingered \(lingered) s: the linger is 2 s from the end of the stream")
    }

    @Test func gzipInAndOutFlushedPerChunk() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let body = try HTTPBehaviourTests.gzip(Data("{\"uid\":\"1\"}\n{\"uid\":2}\n".utf8))
        try client.send(
            Array(
                ("POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                    + "Content-Encoding: gzip\r\nAccept-Encoding: gzip\r\nContent-Length: \(body.count)\r\n\r\n").utf8)
                + body)
        let response = try client.read()
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(
            String(decoding: try HTTPBehaviourTests.gunzip(response.body), as: UTF8.self)
                == "{\"uid\":1}\n{\"uid\":2}\n")
        #expect(response.trailer("X-Transform-Warnings") == "1")
    }

    @Test func http10StreamsAreDelimitedByClosing() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let body = "{\"uid\":1}\n"
        try client.send(
            "POST /convert/User/array HTTP/1.0\r\nContent-Type: application/x-ndjson\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        let response = try client.read()
        #expect(response.header("Transfer-Encoding") == nil)
        #expect(response.header("Content-Length") == nil)
        #expect(response.text == "{\"uid\":1}\n")
    }

    @Test func aHugeAnnouncedStreamGetsContinueNot413() throws {
        let server = try ServerProcess(settings: ["maxBodyBytes": "1000"])
        let client = try server.client()
        try client.send(
            "POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: 100000000000\r\nExpect: 100-continue\r\n\r\n")
        #expect(try client.read().status == 100)
    }

    @Test func validateStreamsAReportLinePerLine() throws {
        let server = try ServerProcess()
        let response = try server.client().request(
            "POST", "/validate/User/array", body: "{\"uid\":1}\n{}\n", headers: Self.ndjson)
        let lines = response.text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0] == #"{"line":1,"valid":true,"model":"User","result":{"uid":1},"errors":[],"warnings":[]}"#)
        #expect(lines[1].hasPrefix(#"{"line":2,"valid":false,"#))
    }

    /// docs/api.md: an invalid line never ends a `/validate` stream, in strict mode either — every line gets its
    /// report or error record, and the connection stays open for the next request.
    @Test func strictValidateStreamsReportEveryLineAfterAnInvalidOne() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let body = "{\"uid\":1}\n{\"uid\":\"2\"}\nnot json\n{}\n{\"uid\":5}\n"
        let response = try client.request("POST", "/validate/User/array?mode=strict", body: body, headers: Self.ndjson)
        #expect(response.status == 200)
        let lines = response.text.split(separator: "\n")
        #expect(lines.count == 5)
        guard lines.count == 5 else { return }
        #expect(lines[0].hasPrefix(#"{"line":1,"valid":true,"#))
        #expect(lines[1].hasPrefix(#"{"line":2,"valid":false,"#))
        #expect(lines[2].hasPrefix(#"{"error":{"status":400,"code":"invalid_json","#))
        #expect(lines[3].hasPrefix(#"{"line":4,"valid":false,"#))
        #expect(lines[4] == #"{"line":5,"valid":true,"model":"User","result":{"uid":5},"errors":[],"warnings":[]}"#)
        #expect(try client.request("GET", "/health").status == 200)
    }

    /// 30 MB streamed in chunked pieces while the answer is read: every line comes back and the server's peak
    /// resident memory stays far below the stream's size.
    @Test func aLargeStreamFlowsThroughInBoundedMemory() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let line = #"{"uid":"12345","name":"Harry Potter and the Philosopher's Stone"}"# + "\n"
        let lines = 30_000_000 / line.utf8.count
        let piece = Array(String(repeating: line, count: 1000).utf8)
        try client.send(
            "POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        let fd = client.fd
        let count = lines / 1000
        let writer = Thread {
            let framed = Array(String(piece.count, radix: 16).utf8) + Array("\r\n".utf8) + piece + Array("\r\n".utf8)
            for _ in 0..<count { RawClient.sendAll(fd, framed) }
            RawClient.sendAll(fd, Array("0\r\n\r\n".utf8))
        }
        writer.start()
        let pid = server.process.processIdentifier
        let peak = PeakSampler()
        let sampler = Thread {
            while !Thread.current.isCancelled {
                peak.record(NDJSONStreamingTests.highWaterMarkKiB(of: pid) ?? 0)
                usleep(50_000)
            }
        }
        sampler.start()
        let response = try client.read()
        sampler.cancel()
        let expected = #"{"uid":12345,"name":"Harry Potter and the Philosopher's Stone"}"# + "\n"
        #expect(response.body.count == (lines / 1000) * 1000 * expected.utf8.count)
        #expect(response.trailer("X-Transform-Warnings") == String((lines / 1000) * 1000))
        peak.record(NDJSONStreamingTests.highWaterMarkKiB(of: pid) ?? 0)
        #expect(peak.value > 0)
        #expect(peak.value < 64 * 1024, "server peak resident \(peak.value) KiB for a 30 MB stream")
    }

    /// A stream whose client has gone is converted no further: its request ends as 499 (nginx's "client closed
    /// request"), logged and counted, and the connection closes — whether the client reset the connection or closed
    /// it with answers unread. (Its body never ends: without the 499 the request left no trace at all.)
    @Test(arguments: RawClient.Vanishing.allCases)
    func aStreamWhoseClientHasGoneEndsAs499(_ how: RawClient.Vanishing) throws {
        let server = try ServerProcess()
        let lines = String(repeating: #"{"uid":"1","name":"n"}"# + "\n", count: 50_000)
        let client = try server.client()
        client.limitSends(seconds: 20)
        try client.send(
            "POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: \(lines.utf8.count * 4)\r\n\r\n")
        _ = client.trySend(Array(lines.utf8))
        #expect(client.isReadable(withinMilliseconds: 10_000), "the stream has started answering")
        client.vanish(how)
        #expect(try server.waitForActiveConnections(atMost: 0, seconds: 20) == 0)
        let metrics = try server.client().request("GET", "/metrics").text
        let counted = metrics.split(separator: "\n").filter { $0.contains("/convert/{model}/array") }
        let abandoned = #"transform_http_requests_total{method="POST",route="/convert/{model}/array",status="499"} 1"#
        #expect(counted.contains { $0.hasPrefix(abandoned) }, "\(counted)")
    }
}

/// The highest memory sample seen by a sampling thread.
final class PeakSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var highest = 0

    func record(_ sample: Int) { lock.withLock { highest = max(highest, sample) } }
    var value: Int { lock.withLock { highest } }
}
