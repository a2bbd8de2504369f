// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// The one file that turns errors into responses and writes error bodies (docs/errors.md, "HTTP errors"). A body is
/// `{"error": {"status", "code", "message", "requestId", …}, …}`; it is rendered by `finalize` once the request id is
/// known, so a response made before (a check of the head, the connection's own errors) carries it pending.
enum ErrorResponse {
    /// The answer to `error`: its status, fields and connection handling, its body pending until `finalize`.
    static func make(_ error: some HTTPResponseError) -> HTTPResponse {
        var response = HTTPResponse(
            status: error.status, headers: error.headers, body: [],
            closesConnection: error.closesConnection)
        // A 304 (a precondition that ends a read early, RFC 9110 §13.1.2) has no body; it revalidates a cacheable
        // registry read, so it is `no-cache` as that read is.
        guard error.status != .notModified else {
            response.cacheControl = .noCache
            return response
        }
        var info = HTTPResponse.ErrorInfo(code: error.code, message: error.message)
        error.writeExtraFields(into: &info.extra)
        error.writeBodyMembers(into: &info.members)
        response.error = info
        return response
    }

    /// Renders a pending error body with the request id.
    static func finalize(_ response: inout HTTPResponse, requestId: String) {
        guard let error = response.error else { return }
        var body: [UInt8] = Array("{\"error\":".utf8)
        writeErrorObject(
            status: response.status, code: error.code, message: error.message, requestId: requestId,
            into: &body
        ) { $0.append(contentsOf: error.extra) }
        body.append(contentsOf: error.members)
        body.append(UInt8(ascii: "}"))
        response.body = body
        response.headers.insert((HTTPHeader.contentType, HTTPHeader.jsonUTF8), at: 0)
        response.error = nil
    }

    /// The whole body of `error` (the CLI's error output, a replay's failing outcome).
    static func body(_ error: some HTTPResponseError, requestId: String?) -> [UInt8] {
        var out: [UInt8] = Array("{\"error\":".utf8)
        writeErrorObject(
            status: error.status, code: error.code, message: error.message, requestId: requestId,
            into: &out
        ) { error.writeExtraFields(into: &$0) }
        error.writeBodyMembers(into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The error record of a failing NDJSON line (docs/api.md, NDJSON): the error object with the line number, a
    /// JSON error's `column`, a 422's entries; never a request id (the stream has one, in its header).
    static func writeRecord(_ failure: NDJSONConverter.LineFailure, line: Int, into out: inout [UInt8]) {
        out.append(contentsOf: "{\"error\":".utf8)
        switch failure {
        case .tooLong(let limit):
            writeErrorObject(
                status: .contentTooLarge, code: "line_too_long",
                message: "line \(line) is longer than the limit of \(limit) bytes", requestId: nil,
                into: &out
            ) { $0.append(contentsOf: ",\"line\":\(line)".utf8) }
        case .failed(let error):
            writeErrorObject(
                status: error.status, code: error.code, message: error.message, requestId: nil,
                into: &out
            ) { fields in
                fields.append(contentsOf: ",\"line\":\(line)".utf8)
                switch error {
                case .invalidJSON(let at), .nestingTooDeep(let at):
                    fields.append(contentsOf: ",\"column\":\(at.column)".utf8)
                case .validationFailed(let report): report.writeEntries(into: &fields)
                case .notAnObject, .notAnArray, .unknownModel: break
                }
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The record that ends an NDJSON stream whose gzip input is corrupt.
    static func streamRecord(_ error: GzipError) -> [UInt8] {
        body(
            RequestError.invalidBody(code: "invalid_encoding", message: "The gzip body is corrupt: \(error)."),
            requestId: nil) + [UInt8(ascii: "\n")]
    }

    /// `{"status":…,"code":…,"message":…[,"requestId":…]…}`; `fields` appends the fields after the request id.
    private static func writeErrorObject(
        status: HTTPStatus, code: String, message: String, requestId: String?,
        into out: inout [UInt8], fields: (inout [UInt8]) -> Void
    ) {
        out.append(contentsOf: "{\"status\":\(status.code),\"code\":\"\(code)\",\"message\":".utf8)
        out.appendJSONString(message)
        if let requestId {
            out.append(contentsOf: ",\"requestId\":".utf8)
            out.appendJSONString(requestId)
        }
        fields(&out)
        out.append(UInt8(ascii: "}"))
    }

    /// A JSON string, escaped by the same writer as every conversion output.
    static func jsonString(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.appendJSONString(s)
        return out
    }
}

extension HTTPResponseError {
    /// The answer to this error (`ErrorResponse.make`).
    var response: HTTPResponse { ErrorResponse.make(self) }
}
