// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

@testable import TransformServer

/// Every error becomes its answer in `ErrorResponse`: status, fields, connection handling and the body of
/// docs/errors.md, rendered once the request id is known.
@Suite struct ErrorResponseTests {
    static let schema = #"{"name":"U","properties":{"uid":{"type":"uint64","required":true},"n":"int8"}}"#

    static func convert(_ input: String, maxEntries: Int = 1_000) throws -> Result<Converted, MappingError> {
        let snapshot = try SchemaRegistry().load([SchemaFile(name: "u.json", bytes: Array(schema.utf8))])
        var options = ConversionOptions()
        options.maxReportEntries = maxEntries
        return Array(input.utf8).withUnsafeBytes { bytes in
            Result { () throws(MappingError) in try snapshot.convert(bytes, model: "U", options: options) }
        }
    }

    static func rendered(_ error: some HTTPResponseError, requestId: String = "abc") -> (HTTPResponse, String) {
        var response = ErrorResponse.make(error)
        ErrorResponse.finalize(&response, requestId: requestId)
        return (response, String(decoding: response.body, as: UTF8.self))
    }

    @Test func answersAnInvalidModelWithTheReportBehindItsErrorMember() throws {
        guard case .failure(let error) = try Self.convert(#"{"uid":"x","n":300}"#, maxEntries: 2) else {
            Issue.record("expected a failure")
            return
        }
        let (response, body) = Self.rendered(error)
        #expect(response.status == .unprocessableContent)
        #expect(response.headers.first?.name == HTTPHeader.contentType)
        #expect(
            body == """
                {"error":{"status":422,"code":"validation_failed","message":"1 error","requestId":"abc"},"valid":false,\
                "model":"U","result":{"uid":0,"n":0},\
                "errors":[{"path":"/uid","code":"missing_required","message":"uid is required"}],\
                "warnings":[{"path":"/uid","code":"not_a_number","message":"expected uint64, got string \\"x\\""}],\
                "truncated":true}
                """)
        #expect(ErrorResponse.body(error, requestId: "abc") == response.body)
    }

    @Test func answersInvalidJSONWithWhereItStopped() throws {
        guard case .failure(let error) = try Self.convert("{\n  x") else {
            Issue.record("expected a failure")
            return
        }
        let (response, body) = Self.rendered(error, requestId: "r")
        #expect(response.status == .badRequest)
        #expect(!response.closesConnection)
        #expect(body.hasPrefix(#"{"error":{"status":400,"code":"invalid_json","message":"#))
        #expect(body.hasSuffix(#","requestId":"r","offset":4,"line":2,"column":3}}"#))
    }

    @Test func listsTheAllowedMethodsInTheBodyAndTheAllowField() {
        let (response, body) = Self.rendered(RequestError.methodNotAllowed(allowed: [.get, .head]))
        #expect(response.status == .methodNotAllowed)
        #expect(response.header(HTTPHeader.allow) == "GET, HEAD")
        #expect(
            body == #"""
                {"error":{"status":405,"code":"method_not_allowed","message":"This route does not take that method.",\#
                "requestId":"abc","allowed":["GET","HEAD"]}}
                """#)
    }

    @Test func closesTheConnectionAfterFramingErrorsAndOverlargeBodies() {
        #expect(ErrorResponse.make(HTTPParseError.missingHost(offset: 3)).closesConnection)
        #expect(ErrorResponse.make(RequestError.malformed(.missingHost(offset: 3))).closesConnection)
        #expect(ErrorResponse.make(RequestError.bodyTooLarge(limit: 10)).closesConnection)
        #expect(ErrorResponse.make(GzipError.tooLarge(limit: 10)).closesConnection)
        #expect(!ErrorResponse.make(GzipError.corrupt("bad header")).closesConnection)
        #expect(!ErrorResponse.make(RequestError.notFound).closesConnection)
    }

    @Test func answersBodiesOverTheLimitWith413WhereverTheyAreFound() {
        let limit = BodyLimit(bytes: 10)
        #expect(limit.check(contentLength: 10) == nil)
        #expect(limit.check(contentLength: 11) == .bodyTooLarge(limit: 10))
        #expect(limit.check(taken: 4, announced: 6) == nil)
        #expect(limit.check(taken: 4, announced: .max) == .bodyTooLarge(limit: 10))
        #expect(GzipError.tooLarge(limit: 10).status == .contentTooLarge)
        #expect(RequestError.bodyTooLarge(limit: 10).code == GzipError.tooLarge(limit: 10).code)
    }

    @Test func answersNotModifiedWithTheEntityTagAndNoBody() {
        let (response, body) = Self.rendered(RequestError.notModified(etag: "\"v1\""))
        #expect(response.status == .notModified)
        #expect(response.header(HTTPHeader.etag) == "\"v1\"")
        #expect(response.cacheControl == .noCache)
        #expect(body.isEmpty)
    }
}
