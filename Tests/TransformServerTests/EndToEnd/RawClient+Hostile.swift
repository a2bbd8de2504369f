// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What hostile-client tests need beyond `RawClient`: socket options, abrupt endings, readiness probes, and raw reads
/// to the end of the stream. The raw readers bypass `RawClient`'s own buffer, so use them only on a client whose
/// `read()` has not been called.
extension RawClient {
    /// How a client disappears.
    enum Vanishing: String, CaseIterable, CustomTestStringConvertible {
        /// `close` with the default linger: a FIN (a RST instead while bytes from the server lie unread).
        case close
        /// `close` with a zero linger: always a RST.
        case reset

        var testDescription: String { rawValue }
    }

    /// How a raw read ended.
    enum Ending: Equatable, CustomStringConvertible {
        case closed, reset, timedOut, failed(Int32), limitReached

        var description: String {
            switch self {
            case .closed: "closed"
            case .reset: "reset"
            case .timedOut: "timed out"
            case .failed(let code): "failed (errno \(code))"
            case .limitReached: "limit reached"
            }
        }

        /// True when the server ended the connection (either way).
        var endedByPeer: Bool { self == .closed || self == .reset }
    }

    /// Bounds every later `send` so a test cannot hang on a server that stopped reading.
    func limitSends(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends what it can; returns the errno that stopped it, or nil when every byte went out.
    func trySend(_ bytes: [UInt8]) -> Int32? { Self.trySend(fd, bytes) }

    /// `trySend` on a bare descriptor (for a writer thread that shares the socket with a reading one).
    static func trySend(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return errno }
            offset += n
        }
        return nil
    }

    /// Drops the socket the way a vanishing process does. The descriptor number is pointed at `/dev/null` (so the
    /// socket's last reference goes away now, and `deinit` later closes only `/dev/null`); use no other method after.
    func vanish(_ how: Vanishing) {
        if how == .reset {
            var abort = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
        }
        let placeholder = open("/dev/null", O_RDONLY)
        dup2(placeholder, fd)
        Glibc.close(placeholder)
    }

    /// True when bytes (or the end of the stream) arrive within `milliseconds`.
    func isReadable(withinMilliseconds milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Reads raw bytes until the stream ends, a read times out, or `limit` bytes have come; keeps only the first 64.
    func discardToEnd(limit: Int) -> (count: Int, first: [UInt8], ending: Ending) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var first: [UInt8] = []
        var count = 0
        while count < limit {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return (count, first, .closed) }
            if n < 0 {
                switch errno {
                case ECONNRESET: return (count, first, .reset)
                case EAGAIN, EWOULDBLOCK: return (count, first, .timedOut)
                case let code: return (count, first, .failed(code))
                }
            }
            if first.count < 64 { first += chunk[0..<min(n, 64 - first.count)] }
            count += n
        }
        return (count, first, .limitReached)
    }

    /// Like `isClosedByPeer`, telling a FIN (`.closed`) from a reset (`.reset`); nil while the connection still
    /// has bytes to give (they stay buffered for `read`) or is open after the read timeout.
    func peerEnding() -> Ending? {
        guard isBufferEmpty else { return nil }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        if n == 0 { return .closed }
        if n > 0 {
            keep(byte)
            return nil
        }
        return errno == ECONNRESET ? .reset : errno == EAGAIN || errno == EWOULDBLOCK ? nil : .failed(errno)
    }

    /// `POST /convert/User` with a binary body.
    func request(bytes body: [UInt8], headers: [String: String]) throws -> Response {
        var head = "POST /convert/User HTTP/1.1\r\nHost: test\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
        return try read()
    }
}

extension ServerProcess {
    /// `transform_connections_active` as the server reports it; the connection asking counts itself.
    func activeConnections() throws -> Int {
        let metrics = try client().request("GET", "/metrics", headers: ["Connection": "close"])
        let line = metrics.text.split(separator: "\n").first { $0.hasPrefix("transform_connections_active ") }
        guard let value = line?.split(separator: " ").last.flatMap({ Int($0) }) else {
            throw RawClient.ClientError(description: "no transform_connections_active in /metrics")
        }
        return value
    }

    /// Polls (bounded) until the server reports at most `count` open connections besides the asking one; returns the
    /// last count seen (without the asking connection).
    func waitForActiveConnections(atMost count: Int, seconds: Double = 5) throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var seen = try activeConnections() - 1
        while seen > count, Date() < deadline {
            usleep(50_000)
            seen = try activeConnections() - 1
        }
        return seen
    }

    /// Polls (bounded) until the server reports at least `count` open connections besides the asking one.
    func waitForActiveConnections(atLeast count: Int, seconds: Double = 5) throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var seen = try activeConnections() - 1
        while seen < count, Date() < deadline {
            usleep(50_000)
            seen = try activeConnections() - 1
        }
        return seen
    }

    /// The server's peak resident memory so far (`VmHWM` in `/proc/<pid>/status`), in bytes.
    func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        guard let kilobytes = line?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw RawClient.ClientError(description: "no VmHWM in /proc/\(process.processIdentifier)/status")
        }
        return kilobytes * 1024
    }

    /// A fresh connection's `GET /health` status, with the process still running.
    func freshHealthStatus() throws -> Int {
        guard process.isRunning else { throw RawClient.ClientError(description: "the server process has exited") }
        return try client().request("GET", "/health", headers: ["Connection": "close"]).status
    }
}
