// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a burst of large requests leaves behind: memory given back, a bound on bodies in flight, no work for clients
/// that have gone. The real binary on real sockets.
@Suite struct BurstMemoryTests {
    /// The server's resident memory now (`VmRSS`), in bytes.
    static func residentBytes(_ server: ServerProcess) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        guard let kilobytes = line?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw RawClient.ClientError(description: "no VmRSS")
        }
        return kilobytes * 1024
    }

    /// Rounds of 30 uploads of 6 MB at once, each abandoned one byte short (the fault run's burst): once they are
    /// gone, the memory they took is given back (it stayed at 270 MB against a 20 MB baseline). A second round
    /// matters: glibc serves the first round's buffers with mmap and unmaps them, but raises its mmap threshold
    /// as it does, so later rounds come from the heap, which keeps freed memory.
    @Test func memoryOfABurstOfAbortedUploadsIsGivenBack() throws {
        let server = try ServerProcess(settings: ["bodyTimeoutMs": "60000"])
        #expect(try server.freshHealthStatus() == 200)
        let baseline = try Self.residentBytes(server)
        let length = 6_000_000
        let head = Array("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n".utf8)
        let upload = head + [UInt8](repeating: UInt8(ascii: " "), count: length - 1)
        var peak = 0
        for _ in 0..<3 {
            let clients = try (0..<30).map { _ in try server.client() }
            for client in clients { client.limitSends(seconds: 20) }
            let senders = clients.map { client in
                let fd = client.fd
                return Thread { RawClient.sendAll(fd, upload) }
            }
            for sender in senders { sender.start() }
            let deadline = Date().addingTimeInterval(30)
            while senders.contains(where: { !$0.isFinished }), Date() < deadline {
                peak = max(peak, try Self.residentBytes(server))
                usleep(50_000)
            }
            peak = max(peak, try Self.residentBytes(server))
            for client in clients { client.vanish(.close) }
            #expect(try server.waitForActiveConnections(atMost: 0) == 0)
        }
        usleep(2_500_000)  // the trim runs a second after the last large buffer is let go of
        let after = try Self.residentBytes(server)
        #expect(peak > baseline + 100_000_000, "the burst took memory: peak \(peak), baseline \(baseline)")
        #expect(after < baseline + 40_000_000, "given back: \(after) against a baseline of \(baseline)")
    }

    /// `maxInFlightBodyBytes` bounds the announced bodies held at once: a body that does not fit is refused at once
    /// with 503, and the budget comes back when the request holding it is answered.
    @Test func announcedBodiesInFlightAreBounded() throws {
        let server = try ServerProcess(settings: ["maxInFlightBodyBytes": "1000000", "bodyTimeoutMs": "60000"])
        let body = #"{"uid":1,"name":""# + String(repeating: "n", count: 600_000 - 19) + #""}"#
        #expect(body.utf8.count == 600_000)
        let holding = try server.client()
        try holding.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 600000\r\n\r\n{\"uid\":1")
        #expect(try server.waitForActiveConnections(atLeast: 1) >= 1)
        let refused = try server.client().request("POST", "/convert/User", body: body)
        #expect(refused.status == 503)
        #expect(refused.text.contains("in flight"))
        #expect(
            try server.client().request("POST", "/convert/User", body: #"{"uid":2}"#).status == 200,
            "small bodies take nothing from the budget")
        try holding.send(Array(body.utf8.dropFirst(8)))
        #expect(try holding.read().status == 200)
        #expect(
            try server.client().request("POST", "/convert/User", body: body).status == 200,
            "the budget came back with the answer")
    }

    /// A chunked body announces no length, so it is counted as it arrives: once past 64 KiB it holds every byte it
    /// has sent, a body that outgrows what is left is refused at once with the same 503 (connection closed), and
    /// the budget comes back when the request holding it is answered.
    @Test func chunkedBodiesInFlightAreCountedAsTheyGrow() throws {
        let server = try ServerProcess(settings: ["maxInFlightBodyBytes": "1000000", "bodyTimeoutMs": "60000"])
        let body = Array((#"{"uid":1,"name":""# + String(repeating: "n", count: 600_000 - 19) + #""}"#).utf8)
        let head = "POST /convert/User HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        func chunk(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
        }
        let holding = try server.client()
        try holding.send(Array(head.utf8) + chunk(body[..<500_000]))
        #expect(try server.waitForActiveConnections(atLeast: 1) >= 1)
        // Its first 500,000 bytes are held: a second chunked body fits until it passes the 500,000 left.
        let refused = try server.client()
        refused.limitSends(seconds: 20)
        _ = refused.trySend(Array(head.utf8) + chunk(body[...]) + Array("0\r\n\r\n".utf8))
        let answer = try refused.read()
        #expect(answer.status == 503)
        #expect(answer.text.contains("in flight"), "\(answer.text)")
        #expect(answer.header("Connection") == "close")
        #expect(
            try server.client().request("POST", "/convert/User", body: #"{"uid":2}"#).status == 200,
            "small bodies take nothing from the budget")
        try holding.send(chunk(body[500_000...]) + Array("0\r\n\r\n".utf8))
        #expect(try holding.read().status == 200)
        let again = try server.client()
        try again.send(Array(head.utf8) + chunk(body[...]) + Array("0\r\n\r\n".utf8))
        #expect(try again.read().status == 200, "the budget came back with the answer")
    }

    /// A large request whose client has left before a worker takes it is not converted: it ends as 499. On one
    /// core (so one worker), a large batch keeps the worker busy while a second client sends a large body and
    /// closes; when the worker gets to that body, its client is gone.
    @Test func aClientThatHasGoneGetsNoConversion() throws {
        let server = try ServerProcess(shell: #"exec taskset -c 0 "$@""#)
        let users = "[" + Array(repeating: #"{"uid":1,"name":"n"}"#, count: 200_000).joined(separator: ",") + "]"
        let repo = #"{"id":1,"full_name":""# + String(repeating: "r", count: 200_000) + #""}"#
        let busy = try server.client()
        busy.limitSends(seconds: 20)
        try busy.send(
            "POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Length: \(users.utf8.count)\r\n\r\n\(users)")
        let gone = try server.client()
        try gone.send("POST /convert/Repo HTTP/1.1\r\nHost: a\r\nContent-Length: \(repo.utf8.count)\r\n\r\n\(repo)")
        gone.vanish(.close)
        #expect(try busy.read().status == 200)
        #expect(try server.waitForActiveConnections(atMost: 1, seconds: 20) <= 1)
        let metrics = try server.client().request("GET", "/metrics").text
        #expect(!metrics.contains(#"transform_conversions_total{model="Repo""#), "the gone client's body was converted")
        #expect(
            metrics.contains(#"method="POST",route="/convert/{model}",status="499""#),
            "\(metrics.split(separator: "\n").filter { $0.contains("requests_total") })")
    }
}
