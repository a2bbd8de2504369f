// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// The server's own reasons to answer a request early (docs/errors.md): from the connection (timeouts, a missing
/// length, a body over the limit, a drain), from the checks of a head (route, method, auth, model, query,
/// preconditions, media type) and from the endpoints (registry conflicts, bodies that are not what the route takes).
/// `ErrorResponse` renders each.
enum RequestError: Error, Equatable {
    // The connection: each closes it.
    /// The parser rejected the framing (400, 414, 431, 501, 505): the parser's error, as it is.
    case malformed(HTTPParseError)
    /// 408: the head or the body did not arrive in time.
    case requestTimeout
    /// 411: a POST or PUT with neither Content-Length nor chunked framing (RFC 9112 §6.3).
    case lengthRequired
    /// 413: the body is over the limit of `limit` bytes (`BodyLimit` decides it).
    case bodyTooLarge(limit: Int)
    /// 503: the server takes no request now; `why` completes "The service is unavailable: …".
    case unavailable(String)

    // The head's checks: the connection stays open.
    /// 404: no route matches the path.
    case notFound
    /// 405: the route serves only `allowed`.
    case methodNotAllowed(allowed: [HTTPMethod])
    /// 401: a registry write without a valid admin token.
    case unauthorized
    /// 403: a registry write when no admin token is configured.
    case forbidden
    /// 404: no model of this name.
    case unknownModel(String)
    /// 404: the model does not keep this version.
    case unknownVersion(model: String, version: String)
    /// 400: a query parameter that this route does not take in this form; the message says which and why.
    case invalidParameter(String)
    /// 412: an `If-Match` or `If-None-Match` that fails.
    case preconditionFailed(String)
    /// 304: an `If-None-Match` naming the current version of a read (RFC 9110 §13.1.2): an empty answer.
    case notModified(etag: String)
    /// 415: a media type or content coding the route does not take; `acceptEncoding` lists the codings taken.
    case unsupportedMediaType(String, acceptEncoding: Bool = false)

    // The endpoints.
    /// 400: a request body that is not what the route takes (`code` as MapperCore's parser of that body names it).
    case invalidBody(code: String, message: String)
    /// 400: a schema with problems.
    case invalidSchema([SchemaProblem])
    /// 409: the registry refuses the change as it stands.
    case conflict(String)
    /// 409: the change breaks the model's compatibility level (docs/lifecycle.md).
    case incompatibleSchema(CompatibilityReport, bundle: Bool)
    /// 413: a registry change larger than the shared store takes in one transaction.
    case changeTooLarge(String)
    /// 503: the registry could not save the change, so it did not make it (docs/api.md, Persistence); the same
    /// request may be sent again.
    case notPersisted(FileError?)
    /// 503: the shared registry cannot take writes now (`retry`: with `Retry-After: 1`); `message` is the whole
    /// sentence.
    case storeUnavailable(String)
    /// 503: `/ready` while the server is not ready; `message` is the whole sentence.
    case notReady(String)
    /// 400: an expression of `/rules/evaluate` that does not parse, at `offset`.
    case invalidRule(String, offset: Int)
    /// 422: an expression of `/rules/evaluate` that failed on its variables.
    case ruleFailed(String)
}

extension RequestError: HTTPResponseError {
    var status: HTTPStatus {
        switch self {
        case .malformed(let error): error.status
        case .requestTimeout: .requestTimeout
        case .lengthRequired: .lengthRequired
        case .bodyTooLarge, .changeTooLarge: .contentTooLarge
        case .unavailable, .notPersisted, .storeUnavailable, .notReady: .serviceUnavailable
        case .notFound, .unknownModel, .unknownVersion: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .invalidParameter, .invalidBody, .invalidSchema, .invalidRule: .badRequest
        case .preconditionFailed: .preconditionFailed
        case .notModified: .notModified
        case .unsupportedMediaType: .unsupportedMediaType
        case .conflict, .incompatibleSchema: .conflict
        case .ruleFailed: .unprocessableContent
        }
    }

    var code: String {
        switch self {
        case .malformed(let error): error.code
        case .requestTimeout: "request_timeout"
        case .lengthRequired: "length_required"
        case .bodyTooLarge, .changeTooLarge: "body_too_large"
        case .unavailable, .notPersisted, .storeUnavailable, .notReady: "unavailable"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .unknownModel: "unknown_model"
        case .unknownVersion: "unknown_version"
        case .invalidParameter: "invalid_parameter"
        case .preconditionFailed: "precondition_failed"
        case .notModified: "not_modified"
        case .unsupportedMediaType: "unsupported_media_type"
        case .invalidBody(let code, _): code
        case .invalidSchema: "invalid_schema"
        case .conflict: "conflict"
        case .incompatibleSchema: "incompatible_schema"
        case .invalidRule: "invalid_rule"
        case .ruleFailed: "rule_failed"
        }
    }

    var message: String {
        switch self {
        case .malformed(let error): error.message
        case .requestTimeout: "The request was not received in time."
        case .lengthRequired: "A request body needs Content-Length or chunked Transfer-Encoding."
        case .bodyTooLarge(let limit): "The request body is larger than the limit of \(limit) bytes."
        case .unavailable(let why): "The service is unavailable: \(why)."
        case .notFound: "No route matches this path."
        case .methodNotAllowed: "This route does not take that method."
        case .unauthorized: "A valid admin bearer token is required."
        case .forbidden: "The registry is read-only: no admin token is configured."
        case .unknownModel(let name): "No model named \"\(name)\" is registered."
        case .unknownVersion(let name, let version): "Version \(version) of \"\(name)\" is not kept."
        case .notModified: "The current version is the one named by If-None-Match."
        case .invalidSchema(let problems):
            "The schema was rejected: \(problems.count) problem\(problems.count == 1 ? "" : "s")."
        case .incompatibleSchema(let report, _):
            "The change breaks \(report.failingLevel.rawValue) compatibility: \(report.differences.count) "
                + "difference\(report.differences.count == 1 ? "" : "s")."
        case .notPersisted(let failure):
            "The registry change could not be saved\(failure.map { " (\($0.description.dropLast()))" } ?? ""), "
                + "so nothing changed."
        case .changeTooLarge(let why):
            "The bundle is larger than one etcd transaction allows; nothing changed (\(why))."
        case .invalidParameter(let message), .preconditionFailed(let message), .unsupportedMediaType(let message, _),
            .invalidBody(_, let message), .conflict(let message), .storeUnavailable(let message),
            .notReady(let message), .invalidRule(let message, _), .ruleFailed(let message):
            message
        }
    }

    var closesConnection: Bool {
        switch self {
        case .malformed, .requestTimeout, .lengthRequired, .bodyTooLarge, .unavailable: true
        default: false
        }
    }

    var headers: [(name: String, value: String)] {
        switch self {
        case .methodNotAllowed(let allowed):
            [(HTTPHeader.allow, allowed.map(\.name).joined(separator: ", "))]
        case .unauthorized: [(HTTPHeader.wwwAuthenticate, "Bearer")]
        case .unsupportedMediaType(_, acceptEncoding: true): [(HTTPHeader.acceptEncoding, "gzip")]
        case .notModified(let etag): [(HTTPHeader.etag, etag)]
        case .storeUnavailable: [(HTTPHeader.retryAfter, "1")]
        default: []
        }
    }

    func writeExtraFields(into out: inout [UInt8]) {
        switch self {
        case .methodNotAllowed(let allowed):
            out += Array(",\"allowed\":[".utf8)
            out += allowed.map { "\"\($0.name)\"" }.joined(separator: ",").utf8
            out.append(UInt8(ascii: "]"))
        case .invalidSchema(let problems):
            out += Array(",\"problems\":[".utf8)
            for (i, problem) in problems.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out += Array("{\"path\":".utf8)
                out.appendJSONString(problem.path)
                out += Array(",\"message\":".utf8)
                out.appendJSONString(problem.message)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        case .incompatibleSchema(let report, let bundle):
            out += Array(",\"compatibility\":\"\(report.failingLevel.rawValue)\",\"against\":".utf8)
            out += CompatibilityJSON.against(report, bundle: bundle)
            out +=
                Array(",\"differences\":".utf8) + CompatibilityJSON.differences(report.differences, withModel: bundle)
        case .invalidRule(_, let offset):
            out += Array(",\"offset\":\(offset)".utf8)
        default: break
        }
    }
}

extension CompatibilityReport {
    /// The level the first difference breaks (the one the error names).
    fileprivate var failingLevel: CompatibilityLevel { levels[differences.first?.model ?? ""] ?? .none }
}
