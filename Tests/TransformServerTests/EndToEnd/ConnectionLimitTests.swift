// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Connections beyond `maxConnections` (docs/operations.md): each gets its whole `503`, then a lingering close, within
/// the bound `maxLingeringRefusals`. The real binary on real sockets.
@Suite struct ConnectionLimitTests {
    /// True once a byte sent on `client` meets a reset (the server has closed the socket for good); tries for at most
    /// `seconds`. A connection still lingering takes the bytes and drops them.
    static func resets(_ client: RawClient, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if client.trySend([UInt8(ascii: " ")]) != nil { return true }
            usleep(20_000)
        }
        return false
    }

    /// A client beyond the limit that is still sending its request reads the whole `503` and then the end of the
    /// stream, not a reset that could destroy the answer; the request it sends is read and dropped meanwhile.
    @Test func aConnectionBeyondTheLimitReadsItsWhole503ThenTheEnd() throws {
        let server = try ServerProcess(settings: ["maxConnections": "1"])
        let first = try server.client()
        #expect(try first.request("GET", "/health").status == 200)
        let refused = try server.client()
        refused.limitSends(seconds: 20)
        let upload =
            Array("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\n".utf8)
            + [UInt8](repeating: UInt8(ascii: " "), count: 2_000_000)
        let fd = refused.fd
        let outcome = SendOutcome()
        let sender = Thread { outcome.set(RawClient.trySend(fd, upload) == nil) }
        sender.start()
        let (count, first64, ending) = refused.discardToEnd(limit: 1 << 20)
        #expect(String(decoding: first64, as: UTF8.self).hasPrefix("HTTP/1.1 503 "), "\(count) bytes")
        #expect(ending == .closed, "the 503 ends with the end of the stream, not \(ending)")
        let deadline = Date().addingTimeInterval(20)
        while outcome.complete == nil, Date() < deadline { usleep(10_000) }
        #expect(outcome.complete == true, "the whole upload was taken (and dropped) while the server lingered")
        #expect(try first.request("GET", "/health").status == 200)
    }

    /// At most `maxLingeringRefusals` refused connections linger at once: past it, one is closed right after its
    /// `503` (a byte it sends then meets a reset), and when a lingering one ends, the next refused one lingers again.
    @Test func refusedConnectionsLingerWithinTheirBound() throws {
        let server = try ServerProcess(settings: [
            "maxConnections": "1", "maxLingeringRefusals": "1",
            "lingeringCloseMs": "60000",
        ])
        let first = try server.client()
        #expect(try first.request("GET", "/health").status == 200)
        func refusedClient() throws -> RawClient {
            let client = try server.client()
            client.limitSends(seconds: 5)
            let (_, head, ending) = client.discardToEnd(limit: 1 << 16)
            #expect(String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 503 "))
            #expect(ending == .closed)
            return client
        }
        let lingering = try refusedClient()
        let closedAtOnce = try refusedClient()
        #expect(Self.resets(closedAtOnce, within: 5), "past the bound: closed right after the 503")
        #expect(!Self.resets(lingering, within: 0.5), "within the bound: still reading and dropping input")
        lingering.vanish(.close)  // its linger ends with the client's close
        let deadline = Date().addingTimeInterval(5)
        var next = try refusedClient()
        while Self.resets(next, within: 0.2), Date() < deadline { next = try refusedClient() }
        #expect(!Self.resets(next, within: 0.5), "the bound has room again once a lingering connection ended")
    }
}

/// What a sending thread reports: nil while it runs, then whether every byte went out.
final class SendOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Bool?

    func set(_ complete: Bool) { lock.withLock { value = complete } }
    var complete: Bool? { lock.withLock { value } }
}
