// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Faults found by a fault run, each kept here so it stays fixed: the real binary on real sockets.
@Suite struct ReliabilityTests {
    /// `Content-Length` values around and past `Int.max`: each fits the parser's 64 bits, so none is a framing error.
    static let hugeLengths = ["9223372036854775807", "9223372036854775808", "18446744073709551615"]

    /// One unauthenticated request with such a length once trapped ("Not enough bits to represent the passed
    /// value") and took every connection down with the process: on a route refused before its body (404, 401, 415).
    /// It is answered like any body over the limit: 413 at once, before the checks of the head.
    @Test(arguments: hugeLengths)
    func aHugeContentLengthOnARefusedRequestIsAnsweredAndTheServerLives(length: String) throws {
        let server = try ServerProcess(settings: ["bodyTimeoutMs": "1000", "adminToken": "\"secret\""])
        let refused = [
            ("POST /nothing", "application/json", 404),
            ("PUT /schemas/Thing", "application/json", 401),
            ("POST /convert/User", "text/plain", 415),
        ]
        for (request, type, status) in refused {
            let client = try server.client()
            try client.send(
                "\(request) HTTP/1.1\r\nHost: a\r\nContent-Type: \(type)\r\nContent-Length: \(length)\r\n\r\nab")
            let answer = try client.read()
            #expect(answer.status == 413, "\(request) (else \(status)): answered at once, the body unread")
            #expect(answer.text.contains("body_too_large"))
            #expect(answer.header("connection") == "close")
            #expect(try server.freshHealthStatus() == 200, "\(request)")
        }
    }

    /// A chunk size of 2^64 − 1 after a first chunk: compared with the body limit, never added to the bytes read.
    @Test func theLargestChunkSizeAfterAFirstChunkIsA413() throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send(
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "1\r\n{\r\nFFFFFFFFFFFFFFFF\r\n")
        #expect(try client.read().status == 413)
        #expect(try server.freshHealthStatus() == 200)
    }

    /// A request refused before its body, with a body over `maxBodyBytes`, is answered at once instead of after
    /// the whole body is read and dropped (a 415 with a 9 MiB body was read to its end): announced by
    /// `Content-Length`, or found as a chunked body grows. The body limit is a framing check, so the answer is 413;
    /// a refused body within the limit still gets its own refusal, after it is read.
    @Test func aRefusedRequestWithABodyOverTheLimitIsAnsweredAtOnce() throws {
        let server = try ServerProcess(settings: ["maxBodyBytes": "1000", "bodyTimeoutMs": "60000"])
        let announced = try server.client()
        try announced.send(
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\n"
                + "Content-Length: 9437184\r\n\r\nsome of it")
        let first = try announced.read()
        #expect(first.status == 413)
        #expect(first.header("connection") == "close")
        let chunked = try server.client()
        let chunk = String(repeating: "x", count: 600)
        try chunked.send(
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n")
        let second = try chunked.read()
        #expect(second.status == 413)
        #expect(second.header("connection") == "close")
        let within = try server.client()
        try within.send(
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\n")
        #expect(!within.isReadable(withinMilliseconds: 300), "a body within the limit is still read before the answer")
        try within.send("0123456789")
        let third = try within.read()
        #expect(third.status == 415)
        #expect(third.header("connection") == nil, "and the connection stays open")
    }

    /// The same lengths on an NDJSON request: a stream with no total limit, converted as it arrives.
    @Test(arguments: hugeLengths)
    func aHugeContentLengthOnAnNDJSONStreamIsStreamedAndTheServerLives(length: String) throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send(
            "POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: \(length)\r\n\r\n{\"uid\":1}\n")
        var seen: [UInt8] = []
        let deadline = Date().addingTimeInterval(10)
        while !String(decoding: seen, as: UTF8.self).contains("\"uid\":1"), Date() < deadline,
            client.isReadable(withinMilliseconds: 1000)
        {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            seen += chunk[0..<n]
        }
        let text = String(decoding: seen, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 "), "\(text)")
        #expect(text.contains("\"uid\":1"), "the first line is converted as it arrives")
        #expect(try server.freshHealthStatus() == 200)
        let unknown = try server.client()
        try unknown.send(
            "POST /convert/Nope/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: \(length)\r\n\r\n{}\n")
        #expect(try unknown.read().status == 404)
        #expect(try server.freshHealthStatus() == 200)
    }

    /// A pipelined `GET /health`, padded so that many of them outrun the server's 64 KiB read: input is still
    /// unread in the kernel when the server closes.
    static let paddedRequest = "GET /health HTTP/1.1\r\nHost: a\r\nX-Pad: \(String(repeating: "p", count: 100))\r\n\r\n"

    /// Reads answers until the server ends the connection; every answer must be whole, and the end a FIN: a reset
    /// throws away answers the client has received but not yet read.
    static func readAnswersToTheEnd(_ client: RawClient, upTo limit: Int) -> (
        statuses: [Int], lastClose: Bool, error: String?
    ) {
        var statuses: [Int] = []
        var lastClose = false
        while statuses.count < limit {
            switch client.peerEnding() {
            case .closed?: return (statuses, lastClose, nil)
            case let ending?: return (statuses, lastClose, "\(ending) after \(statuses.count) answers")
            case nil: break
            }
            do {
                let answer = try client.read()
                statuses.append(answer.status)
                lastClose = answer.header("connection") == "close"
            } catch {
                return (statuses, lastClose, "\(error) after \(statuses.count) answers")
            }
        }
        return (statuses, lastClose, nil)
    }

    /// At `maxRequestsPerConnection`, the requests pipelined past the last one are unread when the server closes:
    /// its close used to reset the connection and destroy answers already written (8 to 68 of 500 lost).
    @Test func answersBeforeTheRequestLimitSurviveThePipelinedRequestsAfterIt() throws {
        let server = try ServerProcess(settings: ["maxRequestsPerConnection": "5"])
        for _ in 0..<10 {
            let client = try server.client()
            client.limitSends(seconds: 10)
            try client.send(String(repeating: Self.paddedRequest, count: 1_000))
            usleep(200_000)  // the server has answered and closed before the client reads a byte
            let (statuses, lastClose, error) = Self.readAnswersToTheEnd(client, upTo: 10)
            #expect(error == nil)
            #expect(statuses == [200, 200, 200, 200, 200])
            #expect(lastClose)
        }
    }

    /// `SIGTERM` while clients pipeline: the answer in progress is the connection's last, and its close must not
    /// destroy it or the answers before it (10 to 15 truncated per run before).
    ///
    /// Sized for a loaded two-core machine and a debug build: 600 requests per client still outlast the moment
    /// `SIGTERM` arrives, the grace (30 s) is far beyond what the drain needs so no answer is cut by a forced close,
    /// the clients close once they have read everything (the server's lingering closes then end at once), and the
    /// exit is awaited for up to 60 s — bounds, not timings: a healthy run ends as soon as the drain does.
    @Test func pipeliningClientsGetWholeAnswersThroughADrain() throws {
        let log = try ChildProcess.temporaryDirectory().appendingPathComponent("stderr")
        defer { try? FileManager.default.removeItem(at: log.deletingLastPathComponent()) }
        let server = try ServerProcess(settings: ["drainGraceMs": "30000"], errorLog: log)
        let requests = 600
        var clients = try (0..<4).map { _ in try server.client() }
        for (index, client) in clients.enumerated() {
            client.limitSends(seconds: 30)
            do {
                try client.send(String(repeating: Self.paddedRequest, count: requests))
            } catch {
                Issue.record("client \(index) could not send its \(requests) pipelined requests: \(error)")
            }
        }
        server.signal(SIGTERM)
        usleep(300_000)  // the drain has begun while the answers are still being written
        for (index, client) in clients.enumerated() {
            let (statuses, _, error) = Self.readAnswersToTheEnd(client, upTo: requests)
            #expect(error == nil, "client \(index): an answer was cut or the connection reset: \(error ?? "")")
            #expect(!statuses.isEmpty, "client \(index) got no answer at all")
            #expect(
                statuses.allSatisfy { $0 == 200 || $0 == 503 },
                "client \(index): statuses other than 200/503: \(Set(statuses))")
        }
        clients.removeAll()
        let status = server.waitForExit(seconds: 60)
        let events = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(
            status == 0,
            "the server did not exit 0 within 60 s of SIGTERM (status \(status.map(String.init) ?? "none: still running")); its log: \(events)"
        )
    }
}
