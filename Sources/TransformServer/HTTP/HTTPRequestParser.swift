// SPDX-License-Identifier: Apache-2.0
//
// The only Swift file that imports CHTTPParser. `parseHead` runs chp_parse_request over a connection's read
// buffer and turns the offsets it reports into an HTTPRequestHead; `ChunkedDecoder` runs chp_decode_chunked and
// appends the chunk data to the caller's body. `parseError(code:offset:limits:)` is the one place a C error code
// becomes an HTTPParseError. The rules themselves live in C and are listed in docs/http-conformance.md.
//
// Re-parsing cost: chp_parse_request is stateless and re-scans the head from its first byte. A head that arrives
// one byte per read would cost O(n²) that way, so parseHead calls into C only when
//   - the new bytes hold an LF (a line ended: at most max fields + 2 times per head, since more fields are 431),
//   - the buffer has at least doubled since the last call (amortised O(n); limit errors surface by then), or
//   - the buffer has just passed chp_max_head_length (the head is certain to be rejected).
// A complete head always ends with an LF, so a head is never missed; an error inside a line that has not ended
// is reported when one of those three happens.

import CHTTPParser

/// Parses request heads strictly (RFC 9112 and docs/http-conformance.md); one per connection.
struct HTTPRequestParser {
    /// The head limits of docs/api.md, "Limits", named like their `server.json` keys.
    struct Limits: Equatable, Sendable {
        var maxRequestTargetBytes = 8192
        var maxHeaderBytes = 16384
        var maxHeaderFields = 100
    }

    let limits: Limits
    /// The caller-sized field array chp_parse_request writes into; allocated once per parser.
    private var fields: [chp_header]
    /// Bytes of the current head already searched for an LF.
    private var scannedLength = 0
    /// Buffer length at the last call into C for the current head (0: none yet).
    private var parsedLength = 0

    init(limits: Limits = Limits()) {
        self.limits = limits
        self.fields = Array(repeating: chp_header(), count: max(0, limits.maxHeaderFields))
    }

    /// Parses the head at the start of `buffer`: the head, nil while it is incomplete, or why it is rejected.
    /// Between calls the buffer must keep starting at the same head and may only grow; after a head or an error
    /// the parser starts afresh (call `reset()` to abandon a partial head).
    mutating func parseHead(_ buffer: UnsafeRawBufferPointer) -> Result<HTTPRequestHead?, HTTPParseError> {
        if buffer.count < scannedLength {
            reset()
        }
        guard shouldParse(buffer) else {
            return .success(nil)
        }
        var cLimits = limits.cLimits
        var request = chp_request()
        let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
        let consumed = fields.withUnsafeMutableBufferPointer { storage in
            request.headers = storage.baseAddress
            request.max_headers = storage.count
            return chp_parse_request(base, buffer.count, &cLimits, &request)
        }
        if consumed == CHP_INCOMPLETE {
            return .success(nil)
        }
        reset()
        if consumed == CHP_ERROR {
            return .failure(Self.parseError(code: request.error_code, offset: request.error_offset, limits: limits))
        }
        return .success(makeHead(request, length: consumed, buffer: buffer))
    }

    /// Forgets any partial head, for a buffer that starts over.
    mutating func reset() {
        scannedLength = 0
        parsedLength = 0
    }

    private mutating func shouldParse(_ buffer: UnsafeRawBufferPointer) -> Bool {
        let count = buffer.count
        let newBytes = UnsafeRawBufferPointer(rebasing: buffer[scannedLength..<count])
        scannedLength = count
        var cLimits = limits.cLimits
        let longest = chp_max_head_length(&cLimits)
        let endsALine = newBytes.contains(UInt8(ascii: "\n"))
        let doubled = count >= 2 * parsedLength
        let passedLongest = count > longest && parsedLength <= longest
        guard endsALine || doubled || passedLongest else {
            return false
        }
        parsedLength = count
        return true
    }

    private func makeHead(_ request: chp_request, length: Int, buffer: UnsafeRawBufferPointer) -> HTTPRequestHead {
        func text(_ offset: Int, _ count: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count]), as: UTF8.self)
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(request.num_headers)
        for field in fields.prefix(request.num_headers) {
            let name = String(unsafeUninitializedCapacity: field.name_len) { out in
                for index in 0..<field.name_len {
                    out[index] = Self.lowercasedASCII(buffer[field.name_off + index])
                }
                return field.name_len
            }
            headers.append(
                (
                    name: name,
                    value: Self.wellKnownValue(at: field.value_off, field.value_len, in: buffer)
                        ?? text(field.value_off, field.value_len)
                ))
        }
        let close = request.connection_close != 0
        // RFC 9112 §9.3 — HTTP/1.1 persists unless "close"; HTTP/1.0 persists only with "keep-alive".
        let keepAlive = request.version_minor == 1 ? !close : (request.connection_keep_alive != 0 && !close)
        return HTTPRequestHead(
            method: HTTPMethod(text(request.method_off, request.method_len)),
            target: text(request.target_off, request.target_len),
            versionMinor: Int(request.version_minor),
            headers: headers,
            contentLength: request.has_content_length != 0 ? request.content_length : nil,
            chunked: request.chunked != 0,
            expectContinue: request.expect_continue != 0,
            keepAlive: keepAlive,
            headLength: length
        )
    }

    /// Field values that many requests carry and that are too long for a small (inline) `String`. They are string
    /// literals, whose storage is static, so a head that carries one allocates nothing for it (in the spirit of
    /// HPACK's static table, RFC 7541 Appendix A).
    static let wellKnownValues: [String] = [
        "application/json", "application/json; charset=utf-8", "application/x-ndjson", "gzip, deflate, br",
        "gzip, deflate, br, zstd",
    ]

    /// The literal for the value at `offset` when it is one of `wellKnownValues` (compared byte for byte), else nil.
    private static func wellKnownValue(at offset: Int, _ count: Int, in buffer: UnsafeRawBufferPointer) -> String? {
        guard count > 15 else { return nil }  // shorter values are small strings: no allocation anyway
        let value = UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
        return wellKnownValues.first { known in
            known.utf8.count == count && known.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(value) } == true
        }
    }

    private static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Maps a CHTTPParser error code to its HTTPParseError; the only place the two meet.
    static func parseError(code: Int32, offset: Int, limits: Limits) -> HTTPParseError {
        switch chp_error_code(rawValue: UInt32(bitPattern: code)) {
        case CHP_ERR_BARE_LINE_ENDING: .bareLineEnding(offset: offset)
        case CHP_ERR_METHOD: .invalidMethod(offset: offset)
        case CHP_ERR_METHOD_TOO_LONG: .methodTooLong(limit: Int(CHP_MAX_METHOD_LENGTH))
        case CHP_ERR_REQUEST_LINE: .malformedRequestLine(offset: offset)
        case CHP_ERR_TARGET: .invalidTarget(offset: offset)
        case CHP_ERR_TARGET_TOO_LONG: .targetTooLong(limit: limits.maxRequestTargetBytes)
        case CHP_ERR_VERSION: .malformedVersion(offset: offset)
        case CHP_ERR_VERSION_UNSUPPORTED: .versionNotSupported(offset: offset)
        case CHP_ERR_FIELD_NAME: .invalidFieldName(offset: offset)
        case CHP_ERR_SPACE_BEFORE_COLON: .whitespaceBeforeColon(offset: offset)
        case CHP_ERR_OBS_FOLD: .obsoleteLineFolding(offset: offset)
        case CHP_ERR_FIELD_VALUE: .invalidFieldValue(offset: offset)
        case CHP_ERR_HEADERS_TOO_LARGE: .headersTooLarge(limit: limits.maxHeaderBytes)
        case CHP_ERR_TOO_MANY_HEADERS: .tooManyHeaderFields(limit: limits.maxHeaderFields)
        case CHP_ERR_HOST_MISSING: .missingHost(offset: offset)
        case CHP_ERR_HOST_REPEATED: .repeatedHost(offset: offset)
        case CHP_ERR_CONTENT_LENGTH: .invalidContentLength(offset: offset)
        case CHP_ERR_CONTENT_LENGTH_MISMATCH: .conflictingContentLength(offset: offset)
        case CHP_ERR_CONTENT_LENGTH_AND_TRANSFER_ENCODING: .contentLengthWithTransferEncoding(offset: offset)
        case CHP_ERR_TRANSFER_ENCODING_HTTP10: .transferEncodingInHTTP10(offset: offset)
        case CHP_ERR_TRANSFER_ENCODING: .malformedTransferEncoding(offset: offset)
        case CHP_ERR_CHUNKED_NOT_FINAL: .chunkedNotFinal(offset: offset)
        case CHP_ERR_UNKNOWN_TRANSFER_CODING: .unsupportedTransferCoding(offset: offset)
        case CHP_ERR_CHUNK_SIZE: .invalidChunkSize(offset: offset)
        case CHP_ERR_CHUNK_SIZE_OVERFLOW: .chunkSizeOverflow(offset: offset)
        case CHP_ERR_CHUNK_EXTENSION: .invalidChunkExtension(offset: offset)
        case CHP_ERR_CHUNK_LINE_TOO_LONG: .chunkLineTooLong(offset: offset, limit: Int(CHP_MAX_CHUNK_LINE_LENGTH))
        case CHP_ERR_CHUNK_DATA_END: .invalidChunkDataEnd(offset: offset)
        // CHP_OK never accompanies CHP_ERROR, and a code added in C but not here has no Swift case yet: both are
        // parser bugs, answered as a plain 400 rather than a 500 (no input may cause a 500).
        default: .unknownParserError(code: Int(code), offset: offset)
        }
    }
}

extension HTTPRequestParser {
    /// Decodes one chunked request body (RFC 9112 §7.1) as its bytes arrive, in pieces of any size.
    struct ChunkedDecoder {
        private var state = chp_chunked_decoder()
        private let limits: Limits

        /// Trailer fields are held to the head's byte and field limits.
        init(limits: Limits = Limits()) {
            self.limits = limits
            var cLimits = limits.cLimits
            chp_chunked_init(&state, &cLimits)
        }

        /// True once the last chunk and the trailer section have been read.
        var isDone: Bool { state.done != 0 }

        /// Data bytes the current chunk has announced but not delivered yet (so a body limit can be enforced as
        /// soon as a chunk-size line exceeds it, without waiting for the data).
        var announcedBytes: UInt64 { state.chunk_remaining }

        /// Decodes from `input`, appending chunk data to `body`. Returns the bytes consumed — all of `input`
        /// unless the body ended inside it (the rest belongs to the next request) — and whether the body is done.
        mutating func decode(
            _ input: UnsafeRawBufferPointer,
            into body: inout [UInt8]
        ) -> Result<(consumed: Int, done: Bool), HTTPParseError> {
            var consumed = 0
            while consumed < input.count && state.done == 0 {
                let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
                var dataOffset = 0
                var dataLength = 0
                let step = chp_decode_chunked(
                    &state, rest.baseAddress?.assumingMemoryBound(to: CChar.self), rest.count, &dataOffset, &dataLength)
                if step == CHP_ERROR {
                    let offset = Int(clamping: state.error_offset)
                    let error = HTTPRequestParser.parseError(code: state.error_code, offset: offset, limits: limits)
                    return .failure(error)
                }
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[dataOffset..<dataOffset + dataLength]))
                consumed += step
                if step == 0 {
                    break  // unreachable by chp_decode_chunked's contract; guards against a spin
                }
            }
            return .success((consumed: consumed, done: state.done != 0))
        }
    }
}

extension HTTPRequestParser.Limits {
    fileprivate var cLimits: chp_limits {
        chp_limits(
            max_target: max(0, maxRequestTargetBytes),
            max_header_bytes: max(0, maxHeaderBytes),
            max_headers: max(0, maxHeaderFields)
        )
    }
}
