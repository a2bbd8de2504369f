// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking HTTP/1.1 client on a raw socket: sends any bytes, reads responses (Content-Length, chunked with
/// trailers, or until close). Every read has a timeout so a test can never hang.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        var trailers: [(String, String)] = []
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        func trailer(_ name: String) -> String? { trailers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    struct ClientError: Error, CustomStringConvertible {
        var description: String
    }

    init(port: Int, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ClientError(description: "connect failed: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends every byte on `fd` (for a writer thread that shares the socket with a reading one).
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { throw ClientError(description: "send failed: errno \(errno)") }
            offset += n
        }
    }

    /// Reads more bytes; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 { throw ClientError(description: "recv failed or timed out: errno \(errno)") }
        if n == 0 { return false }
        buffer += chunk[0..<n]
        return true
    }

    private func line() throws -> String {
        while true {
            if let index = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<index], as: UTF8.self)
                buffer.removeFirst(index + 1)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard try fill() else { throw ClientError(description: "connection closed mid-line") }
        }
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw ClientError(description: "connection closed mid-body") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Reads one response; `head` true for a response to HEAD (no body).
    func read(head: Bool = false) throws -> Response {
        let statusLine = try line()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw ClientError(description: "bad status line \(statusLine)")
        }
        var headers: [(String, String)] = []
        while true {
            let field = try line()
            if field.isEmpty { break }
            let colon = field.firstIndex(of: ":")!
            headers.append(
                (String(field[..<colon]), field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = Response(status: status, headers: headers, body: [])
        if head || status == 204 || status == 304 || (100..<200).contains(status) { return response }
        if let length = response.header("content-length").flatMap(Int.init) {
            response.body = try take(length)
        } else if response.header("transfer-encoding")?.lowercased() == "chunked" {
            while true {
                let size = Int(try line(), radix: 16)!
                if size == 0 { break }
                response.body += try take(size)
                _ = try take(2)
            }
            while true {
                let trailer = try line()
                if trailer.isEmpty { break }
                let colon = trailer.firstIndex(of: ":")!
                response.trailers.append(
                    (
                        String(trailer[..<colon]),
                        trailer[trailer.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    ))
            }
        } else {
            while try fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    var isBufferEmpty: Bool { buffer.isEmpty }
    /// Puts a byte read outside `read` back in front of what `read` will see.
    func keep(_ byte: UInt8) { buffer.append(byte) }

    /// True when the server has closed (or reset) the connection; false when it is still open after the read
    /// timeout or has more bytes to give.
    func isClosedByPeer() -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        if n == 0 { return true }
        if n > 0 {
            buffer.append(byte)
            return false
        }
        return errno != EAGAIN && errno != EWOULDBLOCK
    }

    /// A whole request with a JSON body and the usual headers.
    func request(_ method: String, _ target: String, body: String? = nil, headers: [String: String] = [:]) throws
        -> Response
    {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: test\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        try send(text)
        return try read(head: method == "HEAD")
    }
}
