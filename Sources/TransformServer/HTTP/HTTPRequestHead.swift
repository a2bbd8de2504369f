// SPDX-License-Identifier: Apache-2.0

/// A request head that passed every framing rule of docs/http-conformance.md, as HTTPRequestParser returns it.
struct HTTPRequestHead: Sendable {
    /// The method exactly as sent (methods are case-sensitive, RFC 9110 §9.1).
    var method: String
    /// The raw request target (ASCII, not percent-decoded).
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var versionMinor: Int
    /// Every field line in order; names lowercased, values without leading and trailing SP/HTAB. A value byte
    /// that is not UTF-8 (obs-text) reads as U+FFFD.
    var headers: [(name: String, value: String)]
    /// The Content-Length, when the request has one (never together with `chunked`).
    var contentLength: UInt64?
    /// True when the body uses the chunked transfer coding.
    var chunked: Bool
    /// True when the request carries `Expect: 100-continue`.
    var expectContinue: Bool
    /// Whether the connection may carry another request: HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with
    /// `Connection: keep-alive` (RFC 9112 §9.3).
    var keepAlive: Bool
    /// Bytes the head occupied in the buffer; the body or the next request starts here.
    var headLength: Int
}

extension HTTPRequestHead {
    /// The value of the first field named `name` (compared without regard to ASCII case), or nil.
    func firstValue(of name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }
}
