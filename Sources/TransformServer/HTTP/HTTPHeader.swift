// SPDX-License-Identifier: Apache-2.0

/// The field names the server writes and reads, each spelled once (docs/api.md lists them).
///
/// Response fields are written in their usual capitalisation; request fields are looked up in lowercase, the form
/// the parser stores names in (`HTTPRequestHead.firstValue(of:)` then compares plain strings).
enum HTTPHeader {
    static let allow = "Allow"
    static let acceptEncoding = "Accept-Encoding"
    static let contentEncoding = "Content-Encoding"
    static let contentType = "Content-Type"
    static let etag = "ETag"
    static let retryAfter = "Retry-After"
    static let trailer = "Trailer"
    static let vary = "Vary"
    static let wwwAuthenticate = "WWW-Authenticate"
    static let xModelHash = "X-Model-Hash"
    static let xModelVersion = "X-Model-Version"
    static let xRequestId = "X-Request-Id"
    static let xTransformWarnings = "X-Transform-Warnings"

    /// The `Content-Type` of every JSON body.
    static let jsonUTF8 = "application/json; charset=utf-8"

    /// Request fields, lowercase.
    enum Request {
        static let acceptEncoding = "accept-encoding"
        static let authorization = "authorization"
        static let contentEncoding = "content-encoding"
        static let contentType = "content-type"
        static let ifMatch = "if-match"
        static let ifNoneMatch = "if-none-match"
        static let xRequestId = "x-request-id"
    }
}
