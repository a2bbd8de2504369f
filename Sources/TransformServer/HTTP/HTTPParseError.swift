// SPDX-License-Identifier: Apache-2.0

/// Why a request's framing was rejected (docs/http-conformance.md and docs/errors.md, "HTTP errors"). Each is answered
/// at once with its `status` and `code`, and the connection is then closed.
///
/// `offset` is a 0-based byte offset: into the request head for head errors, and counted from the body's first
/// byte for chunked-body errors (chunk lines, chunk data ends and trailer fields). The rules are listed with their
/// RFC 9112 sections in docs/http-conformance.md.
enum HTTPParseError: Error, Equatable {
    // 400 bad_request: the request line (RFC 9112 §2.2, §3).
    case bareLineEnding(offset: Int)
    case invalidMethod(offset: Int)
    case malformedRequestLine(offset: Int)
    case invalidTarget(offset: Int)
    case malformedVersion(offset: Int)
    // 400 bad_request: field lines (RFC 9112 §5, RFC 9110 §5.5).
    case invalidFieldName(offset: Int)
    case whitespaceBeforeColon(offset: Int)
    case obsoleteLineFolding(offset: Int)
    case invalidFieldValue(offset: Int)
    case missingHost(offset: Int)
    case repeatedHost(offset: Int)
    // 400 bad_request: message framing (RFC 9112 §6).
    case invalidContentLength(offset: Int)
    case conflictingContentLength(offset: Int)
    case contentLengthWithTransferEncoding(offset: Int)
    case transferEncodingInHTTP10(offset: Int)
    case malformedTransferEncoding(offset: Int)
    case chunkedNotFinal(offset: Int)
    // 400 bad_request: the chunked body (RFC 9112 §7.1).
    case invalidChunkSize(offset: Int)
    case chunkSizeOverflow(offset: Int)
    case invalidChunkExtension(offset: Int)
    case chunkLineTooLong(offset: Int, limit: Int)
    case invalidChunkDataEnd(offset: Int)
    /// A C error code this enum does not know: a parser bug, still answered as a plain 400.
    case unknownParserError(code: Int, offset: Int)
    /// 411: a body-carrying request with neither Content-Length nor chunked (decided by the server, not the parser).
    case lengthRequired
    /// 413: the body is over the limit (decided by the server, not the parser).
    case bodyTooLarge(limit: Int)
    /// 414: the request target is longer than `limit` bytes.
    case targetTooLong(limit: Int)
    /// 431: the field lines (or trailer lines) are longer than `limit` bytes in total.
    case headersTooLarge(limit: Int)
    /// 431: more than `limit` field lines (or trailer lines).
    case tooManyHeaderFields(limit: Int)
    /// 501: a method longer than any implemented one (RFC 9112 §3).
    case methodTooLong(limit: Int)
    /// 501: a transfer coding other than chunked (RFC 9112 §6.1).
    case unsupportedTransferCoding(offset: Int)
    /// 505: a well-formed version other than HTTP/1.0 and HTTP/1.1.
    case versionNotSupported(offset: Int)
}

extension HTTPParseError {
    /// The HTTP status the server answers with.
    var status: Int {
        switch self {
        case .lengthRequired: 411
        case .bodyTooLarge: 413
        case .targetTooLong: 414
        case .headersTooLarge, .tooManyHeaderFields: 431
        case .methodTooLong, .unsupportedTransferCoding: 501
        case .versionNotSupported: 505
        case .bareLineEnding, .invalidMethod, .malformedRequestLine, .invalidTarget, .malformedVersion,
            .invalidFieldName, .whitespaceBeforeColon, .obsoleteLineFolding, .invalidFieldValue, .missingHost,
            .repeatedHost, .invalidContentLength, .conflictingContentLength, .contentLengthWithTransferEncoding,
            .transferEncodingInHTTP10, .malformedTransferEncoding, .chunkedNotFinal, .invalidChunkSize,
            .chunkSizeOverflow, .invalidChunkExtension, .chunkLineTooLong, .invalidChunkDataEnd, .unknownParserError:
            400
        }
    }

    /// The `code` of the error body (docs/errors.md, "HTTP errors").
    var code: String {
        switch status {
        case 411: "length_required"
        case 413: "body_too_large"
        case 414: "uri_too_long"
        case 431: "headers_too_large"
        case 501: "not_implemented"
        case 505: "http_version_not_supported"
        default: "bad_request"
        }
    }
}

extension HTTPParseError: CustomStringConvertible {
    var description: String {
        switch self {
        case .bareLineEnding(let offset):
            "The line ending at byte \(offset) is a bare CR or LF; lines must end with CRLF."
        case .invalidMethod(let offset):
            "The method has a character that is not allowed in a token at byte \(offset)."
        case .malformedRequestLine(let offset):
            "The request line is not 'method SP target SP version' with single spaces (byte \(offset))."
        case .invalidTarget(let offset):
            "The request target has a control, space or non-ASCII byte at byte \(offset)."
        case .malformedVersion(let offset):
            "The HTTP version at byte \(offset) is not of the form HTTP/DIGIT.DIGIT."
        case .invalidFieldName(let offset):
            "The field name at byte \(offset) is empty, lacks a colon or has a character not allowed in a token."
        case .whitespaceBeforeColon(let offset):
            "The field line has whitespace before its colon at byte \(offset)."
        case .obsoleteLineFolding(let offset):
            "The field line at byte \(offset) starts with whitespace (obsolete line folding is not accepted)."
        case .invalidFieldValue(let offset):
            "The field value has a control character at byte \(offset)."
        case .missingHost(let offset):
            "The HTTP/1.1 request has no Host field (its head ends at byte \(offset))."
        case .repeatedHost(let offset):
            "The request has a second Host field at byte \(offset)."
        case .invalidContentLength(let offset):
            "The Content-Length value is not a single decimal number that fits 64 bits (byte \(offset))."
        case .conflictingContentLength(let offset):
            "The Content-Length field at byte \(offset) repeats an earlier one with a different value."
        case .contentLengthWithTransferEncoding(let offset):
            "The request has both Content-Length and Transfer-Encoding (byte \(offset))."
        case .transferEncodingInHTTP10(let offset):
            "The HTTP/1.0 request has a Transfer-Encoding field at byte \(offset)."
        case .malformedTransferEncoding(let offset):
            "The Transfer-Encoding field is not a list of plain coding names (byte \(offset))."
        case .chunkedNotFinal(let offset):
            "The Transfer-Encoding has a coding after chunked at byte \(offset); chunked must be the last coding."
        case .invalidChunkSize(let offset):
            "The chunk size at body byte \(offset) is not a hexadecimal number followed by ';' or CRLF."
        case .chunkSizeOverflow(let offset):
            "The chunk size at body byte \(offset) does not fit 64 bits."
        case .invalidChunkExtension(let offset):
            "The chunk extension at body byte \(offset) does not follow the RFC 9112 grammar."
        case .chunkLineTooLong(let offset, let limit):
            "The chunk-size line at body byte \(offset) is longer than \(limit) bytes."
        case .invalidChunkDataEnd(let offset):
            "The chunk data is not followed by CRLF at body byte \(offset)."
        case .unknownParserError(let code, let offset):
            "The request parser rejected the request with unknown code \(code) at byte \(offset)."
        case .lengthRequired:
            "The request has a body but neither Content-Length nor Transfer-Encoding: chunked."
        case .bodyTooLarge(let limit):
            "The request body is larger than the limit of \(limit) bytes."
        case .targetTooLong(let limit):
            "The request target is longer than the limit of \(limit) bytes."
        case .headersTooLarge(let limit):
            "The header section is larger than the limit of \(limit) bytes."
        case .tooManyHeaderFields(let limit):
            "The header section has more than the limit of \(limit) fields."
        case .methodTooLong(let limit):
            "The method is longer than \(limit) bytes, longer than any method this server implements."
        case .unsupportedTransferCoding(let offset):
            "The Transfer-Encoding names a coding other than chunked at byte \(offset)."
        case .versionNotSupported(let offset):
            "The HTTP version at byte \(offset) is not supported; use HTTP/1.0 or HTTP/1.1."
        }
    }
}
