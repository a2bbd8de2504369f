// SPDX-License-Identifier: Apache-2.0

/// An error the server answers with an error body (docs/errors.md):
/// `{"error": {"status", "code", "message", "requestId", …extra fields}, …body members}`.
///
/// The parser's errors (`HTTPParseError`), gzip's (`GzipError`), the server's own request errors (`RequestError`)
/// and MapperCore's (`MappingError`, through `MappingError+HTTP.swift`) implement it, and `ErrorResponse` renders
/// every one of them: the one file that writes error bodies.
protocol HTTPResponseError: Error {
    /// The status of the answer.
    var status: HTTPStatus { get }
    /// The stable `code` of the error body.
    var code: String { get }
    /// The `message` of the error body: one sentence.
    var message: String { get }
    /// True when the connection closes after the answer (its framing can no longer be trusted).
    var closesConnection: Bool { get }
    /// Fields the answer carries besides those every answer has (`Allow`, `WWW-Authenticate`, …).
    var headers: [(name: String, value: String)] { get }
    /// Appends the fields of the `error` object that follow `requestId`, each `,"name":value`.
    func writeExtraFields(into out: inout [UInt8])
    /// Appends the members of the body that follow the `error` object, each `,"name":value` (a 422's report).
    func writeBodyMembers(into out: inout [UInt8])
}

extension HTTPResponseError {
    var closesConnection: Bool { false }
    var headers: [(name: String, value: String)] { [] }
    func writeExtraFields(into out: inout [UInt8]) {}
    func writeBodyMembers(into out: inout [UInt8]) {}
}
