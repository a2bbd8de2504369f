// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// The single place where failures become HTTP responses (docs/errors.md, "HTTP errors"). Bodies are
/// `{"error": {"status", "code", "message", "requestId", …}}`, rendered by `finalize` once the request id is known.
enum ErrorResponse {
    static func make(_ status: Int, _ code: String, _ message: String, extra: [UInt8] = [],
                     headers: [(String, String)] = [], close: Bool = false) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, body: [],
                     closesConnection: close, error: .init(code: code, message: message, extra: extra))
    }

    /// Renders a pending error body with the request id.
    static func finalize(_ response: inout HTTPResponse, requestId: String) {
        guard let error = response.error else { return }
        response.body = ErrorBody.render(status: response.status, code: error.code, message: error.message,
                                         requestId: requestId) { $0.append(contentsOf: error.extra) }
        response.headers.insert(("Content-Type", "application/json; charset=utf-8"), at: 0)
        response.error = nil
    }

    // MARK: - Framing (the connection closes after these)

    static func parse(_ error: HTTPParseError) -> HTTPResponse {
        make(error.status, error.code, error.description, close: true)
    }

    static func bodyTooLarge(limit: Int) -> HTTPResponse {
        make(413, "body_too_large", "The request body is larger than the limit of \(limit) bytes.", close: true)
    }

    static func requestTimeout() -> HTTPResponse {
        make(408, "request_timeout", "The request was not received in time.", close: true)
    }

    static func lengthRequired() -> HTTPResponse {
        make(411, "length_required", "A request body needs Content-Length or chunked Transfer-Encoding.", close: true)
    }

    static func unavailable(_ why: String) -> HTTPResponse {
        make(503, "unavailable", "The service is unavailable: \(why).", close: true)
    }

    /// A registry change that could not be saved, so it was not made (docs/api.md, Persistence); the connection
    /// stays open, and the same request may be sent again.
    static func notPersisted(_ failure: FileError?) -> HTTPResponse {
        let why = failure.map { " (\($0.description.dropLast()))" } ?? ""
        return make(503, "unavailable", "The registry change could not be saved\(why), so nothing changed.", close: false)
    }

    // MARK: - Request errors (the connection stays open)

    static func notFound() -> HTTPResponse { make(404, "not_found", "No route matches this path.") }

    static func methodNotAllowed(_ allowed: [String]) -> HTTPResponse {
        var extra: [UInt8] = Array(",\"allowed\":[".utf8)
        extra += allowed.map { "\"\($0)\"" }.joined(separator: ",").utf8
        extra.append(UInt8(ascii: "]"))
        return make(405, "method_not_allowed", "This route does not take that method.", extra: extra,
                    headers: [("Allow", allowed.joined(separator: ", "))])
    }

    static func unauthorized() -> HTTPResponse {
        make(401, "unauthorized", "A valid admin bearer token is required.", headers: [("WWW-Authenticate", "Bearer")])
    }

    static func forbidden() -> HTTPResponse {
        make(403, "forbidden", "The registry is read-only: no admin token is configured.")
    }

    static func unknownModel(_ name: String) -> HTTPResponse {
        make(404, "unknown_model", "No model named \"\(name)\" is registered.")
    }

    static func unknownVersion(_ name: String, _ version: String) -> HTTPResponse {
        make(404, "unknown_version", "Version \(version) of \"\(name)\" is not kept.")
    }

    static func unknownVersion(_ name: String, _ version: Int) -> HTTPResponse { unknownVersion(name, String(version)) }

    static func invalidParameter(_ message: String) -> HTTPResponse { make(400, "invalid_parameter", message) }

    static func preconditionFailed(_ message: String) -> HTTPResponse { make(412, "precondition_failed", message) }

    static func unsupportedMediaType(_ message: String, acceptEncoding: Bool = false) -> HTTPResponse {
        make(415, "unsupported_media_type", message, headers: acceptEncoding ? [("Accept-Encoding", "gzip")] : [])
    }

    static func invalidEncoding(_ message: String) -> HTTPResponse { make(400, "invalid_encoding", message) }

    static func conflict(_ message: String) -> HTTPResponse { make(409, "conflict", message) }

    static func invalidSchema(_ problems: [SchemaProblem]) -> HTTPResponse {
        var extra: [UInt8] = Array(",\"problems\":[".utf8)
        for (i, problem) in problems.enumerated() {
            if i > 0 { extra.append(UInt8(ascii: ",")) }
            extra += Array("{\"path\":".utf8) + jsonString(problem.path) + Array(",\"message\":".utf8)
                + jsonString(problem.message) + [UInt8(ascii: "}")]
        }
        extra.append(UInt8(ascii: "]"))
        return make(400, "invalid_schema", "The schema was rejected: \(problems.count) problem\(problems.count == 1 ? "" : "s").",
                    extra: extra)
    }

    /// `409 incompatible_schema` (docs/lifecycle.md): the level, the versions compared and every difference; in a
    /// bundle's answer each difference names its model and `against` is an object by model.
    static func incompatibleSchema(_ report: CompatibilityReport, bundle: Bool) -> HTTPResponse {
        let failing = report.differences.first?.model ?? ""
        let level = report.levels[failing] ?? .none
        var extra: [UInt8] = Array(",\"compatibility\":\"\(level.rawValue)\",\"against\":".utf8)
        extra += CompatibilityJSON.against(report, bundle: bundle)
        extra += Array(",\"differences\":".utf8) + CompatibilityJSON.differences(report.differences, withModel: bundle)
        let count = report.differences.count
        return make(409, "incompatible_schema",
                    "The change breaks \(level.rawValue) compatibility: \(count) difference\(count == 1 ? "" : "s").",
                    extra: extra)
    }

    /// A conversion failure: error bodies as above, a 422 report as the body itself.
    static func mapping(_ error: MappingError, requestId: String) -> HTTPResponse {
        if case .validationFailed = error {
            return .json(422, error.body(requestId: requestId))
        }
        return HTTPResponse.json(error.status, error.body(requestId: requestId))
    }

    /// A JSON string, escaped by the same writer as every conversion output.
    static func jsonString(_ s: String) -> [UInt8] { ErrorBody.quoted(s) }
}
