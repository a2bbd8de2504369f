// SPDX-License-Identifier: Apache-2.0

/// A response to write: status, headers (without the ones the writer adds), and a body.
struct HTTPResponse: Equatable {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// Framing can no longer be trusted (or the request asked it): close after writing.
    var closesConnection = false
    /// An error whose body is rendered when the request id is known (`ErrorResponse.finalize`).
    var error: ErrorInfo?
    /// The `Cache-Control` header (docs/api.md, Caching): `no-store` unless the response says otherwise.
    var cacheControl: CacheControl = .noStore

    /// RFC 9111 §5.2.2: every answer is computed for its request and never stored, except a registry read, which a
    /// cache may keep but must revalidate with its `ETag` (`If-None-Match` → 304) before each use.
    enum CacheControl: Equatable {
        case noStore
        case noCache

        var bytes: StaticString {
            switch self {
            case .noStore: "Cache-Control: no-store\r\n"
            case .noCache: "Cache-Control: no-cache\r\n"
            }
        }
    }

    /// The `error` object of docs/errors.md before rendering: the fields that help go in `extra` (each
    /// `,"name":value`).
    struct ErrorInfo: Equatable {
        var code: String
        var message: String
        var extra: [UInt8] = []
    }

    static func == (a: HTTPResponse, b: HTTPResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.closesConnection == b.closesConnection && a.error == b.error
            && a.cacheControl == b.cacheControl
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        // Room for what the endpoint and `Server.render` add (warnings, hash, request id, Vary, encoding): one
        // allocation instead of one per header.
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(6)
        headers.append(("Content-Type", "application/json; charset=utf-8"))
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// The value of the first header named `name`, compared without regard to ASCII case (as field names are).
    func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }
}

/// A step that answers early (a failed check) returns its response as the failure of a `Result`.
extension HTTPResponse: Error {}
