// SPDX-License-Identifier: Apache-2.0

/// A request head that passed every framing rule of docs/http-conformance.md, as HTTPRequestParser returns it.
///
/// A class, and immutable: a head travels with its request through the state machine's actions, the routed
/// request and the completed answer, and each of those copies is then one reference count, not one per string
/// and array inside.
final class HTTPRequestHead: Sendable {
    /// The method exactly as sent (methods are case-sensitive, RFC 9110 §9.1).
    let method: HTTPMethod
    /// The raw request target (ASCII, not percent-decoded).
    let target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    let versionMinor: Int
    /// Every field line in order; names lowercased, values without leading and trailing SP/HTAB. A value byte
    /// that is not UTF-8 (obs-text) reads as U+FFFD.
    let headers: [(name: String, value: String)]
    /// The Content-Length, when the request has one (never together with `chunked`).
    let contentLength: UInt64?
    /// True when the body uses the chunked transfer coding.
    let chunked: Bool
    /// True when the request carries `Expect: 100-continue`.
    let expectContinue: Bool
    /// Whether the connection may carry another request: HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with
    /// `Connection: keep-alive` (RFC 9112 §9.3).
    let keepAlive: Bool
    /// Bytes the head occupied in the buffer; the body or the next request starts here.
    let headLength: Int

    init(
        method: HTTPMethod, target: String, versionMinor: Int, headers: [(name: String, value: String)],
        contentLength: UInt64?, chunked: Bool, expectContinue: Bool, keepAlive: Bool, headLength: Int
    ) {
        self.method = method
        self.target = target
        self.versionMinor = versionMinor
        self.headers = headers
        self.contentLength = contentLength
        self.chunked = chunked
        self.expectContinue = expectContinue
        self.keepAlive = keepAlive
        self.headLength = headLength
    }
}

extension HTTPRequestHead {
    /// The value of the first field named `name`, compared without regard to ASCII case. The parser stores names
    /// lowercased and callers pass lowercase literals, so the lookup compares plain (mostly small, inline)
    /// strings; a name with capitals is lowercased only when that finds nothing.
    func firstValue(of name: String) -> String? {
        if let field = headers.first(where: { $0.name == name }) { return field.value }
        guard name.utf8.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) else { return nil }
        return firstValue(of: name.lowercased())
    }
}
