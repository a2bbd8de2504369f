// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// Serialises a response head; the body goes out as it is, behind it (one gathering send per response in the common
/// case, with no copy of the body).
///
/// The writer adds `Date`, `Cache-Control` (`response.cacheControl`), `Content-Length` (or the chunked framing of a streamed response), `Connection: close`
/// when the connection will close, and for HTTP/1.0 keep-alive `Connection: keep-alive`. A `HEAD` response carries
/// the headers of the `GET` response and no body.
enum HTTPResponseWriter {
    /// How the body is delimited (RFC 9112 §6.3).
    enum Framing {
        case contentLength(Int)
        case chunked
        /// HTTP/1.0 streams: the body ends when the connection closes.
        case closeDelimited
    }

    /// The head and the body to write after it (empty for `HEAD`, 204 and 304).
    static func serialize(_ response: HTTPResponse, isHead: Bool, closing: Bool, http10KeepAlive: Bool)
        -> (head: [UInt8], body: [UInt8])
    {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        head(
            response, framing: .contentLength(response.body.count), closing: closing, http10KeepAlive: http10KeepAlive,
            into: &out)
        let hasBody = !isHead && response.status != .noContent && response.status != .notModified
        return (out, hasBody ? response.body : [])
    }

    /// The head of a response.
    static func head(
        _ response: HTTPResponse, framing: Framing, closing: Bool, http10KeepAlive: Bool,
        into out: inout [UInt8]
    ) {
        out.append("HTTP/1.1 ")
        out.append(decimal: response.status.code)
        out.append(UInt8(ascii: " "))
        out.append(utf8: response.status.reasonPhrase)
        out.append("\r\nDate: ")
        out.append(utf8: HTTPDate.now())
        out.append("\r\n")
        out.append(response.cacheControl.bytes)
        for index in response.headers.indices {  // read in place: a `for (name, value) in` copies each pair
            out.append(utf8: response.headers[index].name)
            out.append(": ")
            out.append(utf8: response.headers[index].value)
            out.append("\r\n")
        }
        switch framing {
        case .contentLength(let length):
            if !response.status.hasNoContent {
                out.append("Content-Length: ")
                out.append(decimal: length)
                out.append("\r\n")
            }
        case .chunked: out.append("Transfer-Encoding: chunked\r\n")
        case .closeDelimited: break
        }
        if closing {
            out.append("Connection: close\r\n")
        } else if http10KeepAlive {
            out.append("Connection: keep-alive\r\n")
        }
        out.append("\r\n")
    }

    /// One chunk of a chunked body.
    static func chunk(_ bytes: [UInt8], into out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        out.append(contentsOf: String(bytes.count, radix: 16).utf8)
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: bytes)
        out.append(contentsOf: "\r\n".utf8)
    }

    /// The last chunk with trailers.
    static func lastChunk(trailers: [(String, String)], into out: inout [UInt8]) {
        out.append(contentsOf: "0\r\n".utf8)
        for (name, value) in trailers { out.append(contentsOf: "\(name): \(value)\r\n".utf8) }
        out.append(contentsOf: "\r\n".utf8)
    }
}
