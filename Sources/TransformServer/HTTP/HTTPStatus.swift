// SPDX-License-Identifier: Apache-2.0

/// An HTTP status code (RFC 9110 §15), with a named constant for each status the server sends.
struct HTTPStatus: Equatable, Hashable, Sendable {
    /// The three-digit code as written on the status line.
    let code: Int

    init(_ code: Int) { self.code = code }

    static let `continue` = HTTPStatus(100)
    static let ok = HTTPStatus(200)
    static let created = HTTPStatus(201)
    static let noContent = HTTPStatus(204)
    static let notModified = HTTPStatus(304)
    static let badRequest = HTTPStatus(400)
    static let unauthorized = HTTPStatus(401)
    static let forbidden = HTTPStatus(403)
    static let notFound = HTTPStatus(404)
    static let methodNotAllowed = HTTPStatus(405)
    static let requestTimeout = HTTPStatus(408)
    static let conflict = HTTPStatus(409)
    static let lengthRequired = HTTPStatus(411)
    static let preconditionFailed = HTTPStatus(412)
    static let contentTooLarge = HTTPStatus(413)
    static let uriTooLong = HTTPStatus(414)
    static let unsupportedMediaType = HTTPStatus(415)
    static let unprocessableContent = HTTPStatus(422)
    static let requestHeaderFieldsTooLarge = HTTPStatus(431)
    /// Not sent: the access log and the request metrics count a request whose client left before it was answered
    /// under it (nginx's "client closed request").
    static let clientClosedRequest = HTTPStatus(499)
    static let internalServerError = HTTPStatus(500)
    static let notImplemented = HTTPStatus(501)
    static let serviceUnavailable = HTTPStatus(503)
    static let httpVersionNotSupported = HTTPStatus(505)

    /// A response with this status has no content (RFC 9110 §6.4.1: 1xx, 204 and 304).
    var hasNoContent: Bool { self == .noContent || self == .notModified || (100..<200).contains(code) }

    /// The reason phrase of the status line.
    var reasonPhrase: String {
        switch self {
        case .continue: "Continue"
        case .ok: "OK"
        case .created: "Created"
        case .noContent: "No Content"
        case .notModified: "Not Modified"
        case .badRequest: "Bad Request"
        case .unauthorized: "Unauthorized"
        case .forbidden: "Forbidden"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .requestTimeout: "Request Timeout"
        case .conflict: "Conflict"
        case .lengthRequired: "Length Required"
        case .preconditionFailed: "Precondition Failed"
        case .contentTooLarge: "Content Too Large"
        case .uriTooLong: "URI Too Long"
        case .unsupportedMediaType: "Unsupported Media Type"
        case .unprocessableContent: "Unprocessable Content"
        case .requestHeaderFieldsTooLarge: "Request Header Fields Too Large"
        case .internalServerError: "Internal Server Error"
        case .notImplemented: "Not Implemented"
        case .serviceUnavailable: "Service Unavailable"
        case .httpVersionNotSupported: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
