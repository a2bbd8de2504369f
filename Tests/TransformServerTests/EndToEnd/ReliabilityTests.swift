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
            try client.send("\(request) HTTP/1.1\r\nHost: a\r\nContent-Type: \(type)\r\nContent-Length: \(length)\r\n\r\nab")
            let answer = try client.read()
            #expect([status, 408].contains(answer.status), "\(request)")
            #expect(try server.freshHealthStatus() == 200, "\(request)")
        }
    }

    /// A chunk size of 2^64 − 1 after a first chunk: compared with the body limit, never added to the bytes read.
    @Test func theLargestChunkSizeAfterAFirstChunkIsA413() throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "1\r\n{\r\nFFFFFFFFFFFFFFFF\r\n")
        #expect(try client.read().status == 413)
        #expect(try server.freshHealthStatus() == 200)
    }

    /// The same lengths on an NDJSON request: a stream with no total limit, converted as it arrives.
    @Test(arguments: hugeLengths)
    func aHugeContentLengthOnAnNDJSONStreamIsStreamedAndTheServerLives(length: String) throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send("POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                        + "Content-Length: \(length)\r\n\r\n{\"uid\":1}\n")
        var seen: [UInt8] = []
        let deadline = Date().addingTimeInterval(10)
        while !String(decoding: seen, as: UTF8.self).contains("\"uid\":1"), Date() < deadline,
              client.isReadable(withinMilliseconds: 1000) {
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
        try unknown.send("POST /convert/Nope/array HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                         + "Content-Length: \(length)\r\n\r\n{}\n")
        #expect(try unknown.read().status == 404)
        #expect(try server.freshHealthStatus() == 200)
    }
}
