// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that misbehave on purpose, against the real binary over real sockets. After each, the server must still
/// answer `/health` on a fresh connection, and the bad connection must be gone: closed by the server (seen on the
/// socket) or released by it (its own `transform_connections_active` gauge drops back).
@Suite struct HostileClientTests {
    static let endOfHead = Array("\r\n\r\n".utf8)

    @Test(arguments: RawClient.Vanishing.allCases)
    func vanishingAfterHalfAHeadLeavesNothingBehind(how: RawClient.Vanishing) throws {
        let server = try ServerProcess(settings: ["headerTimeoutMs": "60000"])
        let client = try server.client()
        try client.send("GET /health HTTP/1.1\r\nHo")
        #expect(try server.waitForActiveConnections(atLeast: 1) == 1)
        client.vanish(how)
        #expect(try server.waitForActiveConnections(atMost: 0) == 0, "released at once, not at the header timeout")
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test(arguments: RawClient.Vanishing.allCases)
    func vanishingMidBodyLeavesNothingBehind(how: RawClient.Vanishing) throws {
        let server = try ServerProcess(settings: ["bodyTimeoutMs": "60000"])
        let client = try server.client()
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{\"ui")
        #expect(try server.waitForActiveConnections(atLeast: 1) == 1)
        client.vanish(how)
        #expect(try server.waitForActiveConnections(atMost: 0) == 0, "released at once, not at the body timeout")
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test(arguments: RawClient.Vanishing.allCases)
    func vanishingExpectingContinueLeavesNothingBehind(how: RawClient.Vanishing) throws {
        let server = try ServerProcess(settings: ["bodyTimeoutMs": "60000"])
        let client = try server.client()
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\nExpect: 100-continue\r\n\r\n")
        #expect(try client.read().status == 100)
        client.vanish(how)
        #expect(try server.waitForActiveConnections(atMost: 0) == 0)
        #expect(try server.freshHealthStatus() == 200)
    }

    /// The server writes its answers into a socket the client has already dropped: small answers, many pipelined
    /// answers, and one converted on the worker pool (a body over 64 KiB).
    @Test(arguments: RawClient.Vanishing.allCases)
    func closingRightAfterSendingRequestsLeavesNothingBehind(how: RawClient.Vanishing) throws {
        let server = try ServerProcess()
        let large = #"{"uid":1,"name":""# + String(repeating: "n", count: 200_000) + #""}"#
        let requests = [
            "GET /health HTTP/1.1\r\nHost: a\r\n\r\n",
            String(repeating: "GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n", count: 50),
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: \(large.utf8.count)\r\n\r\n\(large)",
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n{\"uid\":1}GET /health HTTP/1.1\r\nHo",
        ]
        for _ in 0..<5 {
            for request in requests {
                let client = try server.client()
                try client.send(request)
                client.vanish(how)
            }
        }
        #expect(try server.waitForActiveConnections(atMost: 0) == 0)
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test(arguments: RawClient.Vanishing.allCases)
    func vanishingMidResponseLeavesNothingBehind(how: RawClient.Vanishing) throws {
        let server = try ServerProcess(settings: ["writeTimeoutMs": "60000"])
        let large = #"{"uid":1,"name":""# + String(repeating: "n", count: 4_000_000) + #""}"#
        let client = try RawClient(port: server.port, timeoutSeconds: 5)
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: \(large.utf8.count)\r\n\r\n\(large)")
        #expect(client.isReadable(withinMilliseconds: 5000), "the answer has started")
        client.vanish(how)
        #expect(try server.waitForActiveConnections(atMost: 0) == 0, "released at once, not at the write timeout")
        #expect(try server.freshHealthStatus() == 200)
    }

    /// Whatever the first byte, a head made of it and a blank line is malformed: 400, `Connection: close`, closed.
    @Test func everyByteAsTheFirstByteOfAHeadIs400AndCloses() throws {
        let server = try ServerProcess()
        for byte in UInt8.min...UInt8.max {
            let client = try server.client()
            try client.send([byte] + Self.endOfHead)
            let response = try client.read()
            #expect(response.status == 400, "first byte \(byte)")
            #expect(response.text.contains(#""code":"bad_request""#), "first byte \(byte)")
            #expect(response.header("Connection") == "close", "first byte \(byte)")
            #expect(client.isClosedByPeer(), "first byte \(byte)")
        }
        #expect(try server.freshHealthStatus() == 200)
    }

    /// A lone first byte that can never start a request (not a token character, or a bare LF) is rejected at once;
    /// one that can (a token character, or a CR that may precede LF) waits for more and meets the header timeout.
    @Test func everyLoneFirstByteIsRejectedAtOnceOrTimesOut() throws {
        let server = try ServerProcess(settings: ["headerTimeoutMs": "300"])
        let tokenPunctuation = Array("!#$%&'*+-.^_`|~".utf8)
        func canStartARequest(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "\r") || tokenPunctuation.contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }
        // All at once, so the header timeouts run side by side (256 connections, well within the limits).
        var clients: [(UInt8, RawClient)] = []
        for byte in UInt8.min...UInt8.max {
            let client = try RawClient(port: server.port, timeoutSeconds: 5)
            try client.send([byte])
            clients.append((byte, client))
        }
        for (byte, client) in clients {
            let response = try client.read()
            #expect(response.status == (canStartARequest(byte) ? 408 : 400), "lone byte \(byte)")
            #expect(client.isClosedByPeer(), "lone byte \(byte)")
        }
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test func garbageAfterAValidRequestIsAnsweredInTurnThen400() throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send(
            Array("GET /health HTTP/1.1\r\nHost: a\r\n\r\n".utf8) + [0x16, 0x03, 0x01, 0x00, 0xFF, 0x0A, 0x00])
        #expect(try client.read().status == 200)
        let rejected = try client.read()
        #expect(rejected.status == 400)
        #expect(rejected.header("Connection") == "close")
        #expect(client.isClosedByPeer())
        #expect(try server.freshHealthStatus() == 200)
    }

    /// Requests pipelined back to back are answered in order however many arrive in one read (about 100 KB here).
    @Test func aPipelinedFloodIsAnsweredInOrder() throws {
        let server = try ServerProcess()
        let client = try server.client()
        client.limitSends(seconds: 5)
        let count = 2000
        let flood = (0..<count).map { "GET /health HTTP/1.1\r\nHost: a\r\nX-Request-Id: \($0)\r\n\r\n" }.joined()
        #expect(client.trySend(Array(flood.utf8)) == nil)
        for index in 0..<count {
            let response: RawClient.Response
            do {
                response = try client.read()
            } catch {
                usleep(100_000)
                let running = server.process.isRunning
                Issue.record("response \(index) of \(count) never came (\(error)); server running: \(running)")
                return
            }
            guard response.status == 200, response.header("X-Request-Id") == "\(index)" else {
                Issue.record("response \(index): \(response.status) \(response.header("X-Request-Id") ?? "-")")
                return
            }
        }
        #expect(try server.freshHealthStatus() == 200)
    }

    /// docs/api.md, "Limits": an idle connection with no partial request is closed silently after the keep-alive
    /// timeout.
    @Test func twoHundredIdleConnectionsNeitherStopTheServerNorOutstayTheKeepAliveTimeout() throws {
        let server = try ServerProcess(settings: ["keepAliveTimeoutMs": "1500"])
        let idle = try (0..<200).map { _ in try RawClient(port: server.port, timeoutSeconds: 5) }
        #expect(try server.waitForActiveConnections(atLeast: 200) == 200)
        #expect(try server.freshHealthStatus() == 200)
        for (index, client) in idle.enumerated() {
            #expect(client.isClosedByPeer(), "idle connection \(index) is closed without a response")
        }
        #expect(try server.waitForActiveConnections(atMost: 0) == 0)
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test func connectionChurnLeavesNothingBehind() throws {
        let server = try ServerProcess()
        for index in 0..<200 {
            try server.client().vanish(index.isMultiple(of: 2) ? .close : .reset)
        }
        #expect(try server.waitForActiveConnections(atMost: 0) == 0)
        #expect(try server.freshHealthStatus() == 200)
    }

    /// docs/api.md, "Limits": the header timeout runs from the first byte, so dripping bytes does not keep a head
    /// alive.
    @Test func slowlorisIsCutOffByTheHeaderTimeout() throws {
        let server = try ServerProcess(settings: ["headerTimeoutMs": "300"])
        let client = try server.client()
        let head =
            Array("GET /health HTTP/1.1\r\nHost: a\r\nX-Slow: ".utf8)
            + Array(repeating: UInt8(ascii: "z"), count: 200)
        var sent = 0
        // One byte every 50 ms (the wait is a poll, so an answer stops the drip at once); at most 10 s of bytes.
        while sent < head.count, !client.isReadable(withinMilliseconds: 50) {
            guard client.trySend([head[sent]]) == nil else { break }
            sent += 1
        }
        #expect(sent < head.count, "the server answered before the drip ran out")
        let response = try client.read()
        #expect(response.status == 408)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
        #expect(try server.freshHealthStatus() == 200)
    }

    /// A header line that never ends is cut off at the limit rather than buffered: with the default 16 KiB the server
    /// answers 431 and closes long before 4 MiB have been offered.
    @Test func endlessHeaderLineIsCutOffAtTheLimit() throws {
        let server = try ServerProcess(settings: ["headerTimeoutMs": "60000"])
        let client = try RawClient(port: server.port, timeoutSeconds: 5)
        client.limitSends(seconds: 5)
        try client.send("GET /health HTTP/1.1\r\nHost: a\r\nX-Endless: ")
        let piece = [UInt8](repeating: UInt8(ascii: "e"), count: 16 << 10)
        var offered = 0
        while offered < 4 << 20, !client.isReadable(withinMilliseconds: 0) {
            guard client.trySend(piece) == nil else { break }
            offered += piece.count
        }
        #expect(offered < 4 << 20, "the server stopped the line before 4 MiB")
        // Either the 431 is read, or the server's close raced our sends and reset the connection: both end it.
        if let response = try? client.read() {
            #expect(response.status == 431)
        }
        #expect(try server.waitForActiveConnections(atMost: 0) == 0)
        #expect(try server.freshHealthStatus() == 200)
    }

    @Test func deepNestingIs400NotACrash() throws {
        let server = try ServerProcess()
        let client = try server.client()
        for body in [String(repeating: "[", count: 100_000), String(repeating: #"{"a":"#, count: 50_000)] {
            let response = try client.request("POST", "/convert/User/array", body: body)
            #expect(response.status == 400)
            #expect(response.text.contains(#""code":"nesting_too_deep""#))
        }
        #expect(try server.freshHealthStatus() == 200)
    }
}
