// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

/// Statuses and codes of docs/errors.md, "HTTP errors", and one sentence per case.
@Suite struct HTTPParseErrorTests {
    static let cases: [(error: HTTPParseError, status: Int, code: String)] = [
        (.bareLineEnding(offset: 1), 400, "bad_request"),
        (.invalidMethod(offset: 1), 400, "bad_request"),
        (.malformedRequestLine(offset: 1), 400, "bad_request"),
        (.invalidTarget(offset: 1), 400, "bad_request"),
        (.malformedVersion(offset: 1), 400, "bad_request"),
        (.invalidFieldName(offset: 1), 400, "bad_request"),
        (.whitespaceBeforeColon(offset: 1), 400, "bad_request"),
        (.obsoleteLineFolding(offset: 1), 400, "bad_request"),
        (.invalidFieldValue(offset: 1), 400, "bad_request"),
        (.missingHost(offset: 1), 400, "bad_request"),
        (.repeatedHost(offset: 1), 400, "bad_request"),
        (.invalidContentLength(offset: 1), 400, "bad_request"),
        (.conflictingContentLength(offset: 1), 400, "bad_request"),
        (.contentLengthWithTransferEncoding(offset: 1), 400, "bad_request"),
        (.transferEncodingInHTTP10(offset: 1), 400, "bad_request"),
        (.malformedTransferEncoding(offset: 1), 400, "bad_request"),
        (.chunkedNotFinal(offset: 1), 400, "bad_request"),
        (.invalidChunkSize(offset: 1), 400, "bad_request"),
        (.chunkSizeOverflow(offset: 1), 400, "bad_request"),
        (.invalidChunkExtension(offset: 1), 400, "bad_request"),
        (.chunkLineTooLong(offset: 1, limit: 2), 400, "bad_request"),
        (.invalidChunkDataEnd(offset: 1), 400, "bad_request"),
        (.unknownParserError(code: 99, offset: 1), 400, "bad_request"),
        (.targetTooLong(limit: 8), 414, "uri_too_long"),
        (.headersTooLarge(limit: 8), 431, "headers_too_large"),
        (.tooManyHeaderFields(limit: 8), 431, "headers_too_large"),
        (.methodTooLong(limit: 8), 501, "not_implemented"),
        (.unsupportedTransferCoding(offset: 1), 501, "not_implemented"),
        (.versionNotSupported(offset: 1), 505, "http_version_not_supported"),
    ]

    @Test(arguments: cases)
    func answersWithTheStatusAndCodeOfTheAPI(_ error: HTTPParseError, status: Int, code: String) {
        #expect(error.status == HTTPStatus(status))
        #expect(error.code == code)
    }

    @Test(arguments: cases.map(\.error))
    func describesItselfInOneSentence(_ error: HTTPParseError) {
        let text = error.description
        #expect(text.first?.isUppercase == true)
        #expect(text.hasSuffix("."))
        #expect(!text.dropLast().contains(". "))
    }

    @Test func namesTheOffsetOrLimitInItsDescription() {
        #expect(HTTPParseError.invalidFieldValue(offset: 123).description.contains("123"))
        #expect(HTTPParseError.headersTooLarge(limit: 16384).description.contains("16384"))
    }
}
