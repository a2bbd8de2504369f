// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct HTTPBehaviourTests {
    @Test func answersPipelinedRequestsInOrder() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let one = #"{"uid":1}"#, two = #"{"uid":2}"#
        try client.send(
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: \(one.count)\r\n\r\n\(one)"
                + "GET /health HTTP/1.1\r\nHost: a\r\n\r\n"
                + "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: \(two.count)\r\n\r\n\(two)")
        #expect(try client.read().text == one)
        #expect(try client.read().status == 200)
        #expect(try client.read().text == two)
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send("GET /health HTTP/1.0\r\n\r\n")
        let response = try client.read()
        #expect(response.status == 200)
        #expect(client.isClosedByPeer())
        let keep = try server.client()
        try keep.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try keep.read().header("Connection") == "keep-alive")
        try keep.send("GET /ready HTTP/1.0\r\n\r\n")
        #expect(try keep.read().status == 200)
    }

    @Test func headAnswersLikeGetWithoutABody() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let get = try client.request("GET", "/schemas/User")
        let head = try client.request("HEAD", "/schemas/User")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == get.header("Content-Length"))
        #expect(head.body.isEmpty)
        #expect(try client.request("GET", "/health").status == 200)
    }

    @Test func expectContinueGetsContinueThenTheAnswer() throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\nExpect: 100-continue\r\n\r\n")
        #expect(try client.read().status == 100)
        try client.send(#"{"uid":1}"#)
        #expect(try client.read().text == #"{"uid":1}"#)
    }

    @Test func expectContinueWithAnEarlyFailureGetsTheFinalStatusAndCloses() throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send("POST /convert/Nobody HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\nExpect: 100-continue\r\n\r\n")
        #expect(try client.read().status == 404)
        #expect(client.isClosedByPeer())
    }

    @Test func announcedBodyOverTheLimitIs413AtOnce() throws {
        let server = try ServerProcess(settings: ["maxBodyBytes": "100"])
        let client = try server.client()
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n")
        let response = try client.read()
        #expect(response.status == 413)
        #expect(response.text.contains(#""code":"body_too_large""#))
        #expect(client.isClosedByPeer())
    }

    @Test func malformedRequestsAre400AndClose() throws {
        let server = try ServerProcess()
        for raw in [
            "GET  /health HTTP/1.1\r\nHost: a\r\n\r\n", "GET /health HTTP/1.1\r\nHost : a\r\n\r\n",
            "GET /health HTTP/1.1\nHost: a\n\n",
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
        ] {
            let client = try server.client()
            try client.send(raw)
            let response = try client.read()
            #expect(response.status == 400, "\(raw.debugDescription)")
            #expect(response.header("Connection") == "close")
            #expect(client.isClosedByPeer())
        }
    }

    @Test func chunkedRequestBodiesAreAccepted() throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send(
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"ui\r\n5\r\nd\":1}\r\n0\r\n\r\n"
        )
        #expect(try client.read().text == #"{"uid":1}"#)
    }

    @Test func missingLengthOnAPostIs411() throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try client.read().status == 411)
    }

    @Test func headerTimeoutAnswers408AndCloses() throws {
        let server = try ServerProcess(settings: ["headerTimeoutMs": "300"])
        let client = try server.client()
        try client.send("GET /health HTTP/1.1\r\n")
        let response = try client.read()
        #expect(response.status == 408)
        #expect(client.isClosedByPeer())
    }

    @Test func idleKeepAliveConnectionsCloseSilently() throws {
        let server = try ServerProcess(settings: ["keepAliveTimeoutMs": "300"])
        let client = try server.client()
        #expect(try client.request("GET", "/health").status == 200)
        #expect(client.isClosedByPeer())
    }

    /// The loop wakes a connection at its next deadline: a request begun on a connection idle under a long
    /// keep-alive timeout must still meet the shorter header timeout, and its body the body timeout.
    @Test func aRequestBegunAfterALongIdleStillMeetsItsShorterTimeouts() throws {
        let server = try ServerProcess(settings: [
            "keepAliveTimeoutMs": "60000", "headerTimeoutMs": "300",
            "bodyTimeoutMs": "300",
        ])
        let head = try RawClient(port: server.port, timeoutSeconds: 5)
        let body = try RawClient(port: server.port, timeoutSeconds: 5)
        for client in [head, body] { #expect(try client.request("GET", "/health").status == 200) }
        try head.send("GET /health HTTP/1.1\r\n")
        try body.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{")
        for client in [head, body] {
            #expect(try client.read().status == 408, "answered at the 300 ms timeout, not the 60 s keep-alive one")
            #expect(client.isClosedByPeer())
        }
    }

    @Test func theLastAllowedRequestClosesTheConnection() throws {
        let server = try ServerProcess(settings: ["maxRequestsPerConnection": "2"])
        let client = try server.client()
        #expect(try client.request("GET", "/health").header("Connection") == nil)
        #expect(try client.request("GET", "/health").header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test func connectionsBeyondTheLimitGet503() throws {
        let server = try ServerProcess(settings: ["maxConnections": "2"])
        let first = try server.client(), second = try server.client()
        #expect(try first.request("GET", "/health").status == 200)
        #expect(try second.request("GET", "/health").status == 200)
        let third = try server.client()
        let response = try third.read()
        #expect(response.status == 503)
        #expect(third.isClosedByPeer())
        #expect(try first.request("GET", "/health").status == 200)
    }

    @Test func gzipBothWays() throws {
        let server = try ServerProcess(settings: ["gzipMinBytes": "10"])
        let client = try server.client()
        let body = Data(#"{"uid":"5","name":"a long enough name"}"#.utf8)
        let compressed = try Self.gzip(body)
        try client.send(
            Array(
                "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\nAccept-Encoding: gzip\r\nContent-Length: \(compressed.count)\r\n\r\n"
                    .utf8) + compressed)
        let response = try client.read()
        #expect(response.status == 200)
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(
            String(decoding: try Self.gunzip(response.body), as: UTF8.self) == #"{"uid":5,"name":"a long enough name"}"#
        )
        let corrupt = try client.request(
            "POST", "/convert/User", body: "not gzip", headers: ["Content-Encoding": "gzip"])
        #expect(corrupt.status == 400)
        #expect(corrupt.text.contains(#""code":"invalid_encoding""#))
    }

    static func gzip(_ data: Data) throws -> [UInt8] { try run(["gzip", "-c"], input: data) }
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] { try run(["gzip", "-dc"], input: Data(bytes)) }

    static func run(_ command: [String], input: Data) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](output)
    }
}
