// SPDX-License-Identifier: Apache-2.0
//
// CHTTPParser — a strict HTTP/1.1 request-head parser and chunked body decoder.
//
// Shape: picohttpparser's (one call per head, caller-owned structs, no allocation, no callbacks, no globals)
// with llhttp's error detail (a specific code and the byte offset where the request became unacceptable).
// Every position is an OFFSET into the caller's buffer, never a pointer, so results stay valid when a Swift
// [UInt8] is reallocated. The parser is stateless: call it again with the whole (grown) buffer.
//
// Worked example. For the buffer
//
//     offset  0         1         2         3
//             0123456789012345678901234567890123456789
//             GET /a?b=1 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n
//
// chp_parse_request returns 54 (the head, blank line included) and fills
//     method_off 0, method_len 3             -> "GET"
//     target_off 4, target_len 6             -> "/a?b=1"
//     version_minor 1
//     headers[0] = {21, 4, 27, 1}            -> "Host" : "x"
//     headers[1] = {30, 6, 38, 12}           -> "Expect" : "100-continue"   (leading OWS not included)
//     num_headers 2, host_count 1, expect_continue 1, has_content_length 0, chunked 0
// With only the first 40 bytes it returns CHP_INCOMPLETE; with "GET /a b" it returns CHP_ERROR,
// error_code CHP_ERR_VERSION and error_offset 7 (the "b" that cannot start "HTTP/").
//
// The rules and the RFC 9112 sections they come from are listed in docs/http-conformance.md.

#ifndef CHTTPPARSER_H
#define CHTTPPARSER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CHP_INCOMPLETE (-2)
#define CHP_ERROR (-1)

/// The longest method accepted; a longer one is CHP_ERR_METHOD_TOO_LONG (RFC 9112 §3: 501).
#define CHP_MAX_METHOD_LENGTH 32

/// The longest chunk-size line (size, extensions and CRLF) accepted by the chunked decoder.
#define CHP_MAX_CHUNK_LINE_LENGTH 4096

/// Why a request was rejected (`error_code`). The comment gives the HTTP status the server answers.
typedef enum {
    CHP_OK = 0,
    CHP_ERR_BARE_LINE_ENDING = 1,          // 400: CR not followed by LF, or LF not preceded by CR
    CHP_ERR_METHOD = 2,                    // 400: the method is empty or holds a byte that is not a tchar
    CHP_ERR_METHOD_TOO_LONG = 3,           // 501: the method is longer than CHP_MAX_METHOD_LENGTH
    CHP_ERR_REQUEST_LINE = 4,              // 400: not `method SP target SP version CRLF` with single SPs
    CHP_ERR_TARGET = 5,                    // 400: a byte outside VCHAR (%x21-7E) in the request target
    CHP_ERR_TARGET_TOO_LONG = 6,           // 414: the target is longer than max_target
    CHP_ERR_VERSION = 7,                   // 400: the version is not HTTP/DIGIT.DIGIT
    CHP_ERR_VERSION_UNSUPPORTED = 8,       // 505: a well-formed version other than HTTP/1.0 and HTTP/1.1
    CHP_ERR_FIELD_NAME = 9,                // 400: a field name is empty, holds a non-tchar or has no colon
    CHP_ERR_SPACE_BEFORE_COLON = 10,       // 400: SP or HTAB between a field name and its colon
    CHP_ERR_OBS_FOLD = 11,                 // 400: a field line starts with SP or HTAB (obs-fold)
    CHP_ERR_FIELD_VALUE = 12,              // 400: NUL, or another CTL except HTAB, in a field value
    CHP_ERR_HEADERS_TOO_LARGE = 13,        // 431: the field lines are longer than max_header_bytes in total
    CHP_ERR_TOO_MANY_HEADERS = 14,         // 431: more than max_headers field lines
    CHP_ERR_HOST_MISSING = 15,             // 400: an HTTP/1.1 request without Host
    CHP_ERR_HOST_REPEATED = 16,            // 400: more than one Host field line
    CHP_ERR_CONTENT_LENGTH = 17,           // 400: Content-Length is not 1*DIGIT or overflows uint64_t
    CHP_ERR_CONTENT_LENGTH_MISMATCH = 18,  // 400: Content-Length repeated with a different value
    CHP_ERR_CONTENT_LENGTH_AND_TRANSFER_ENCODING = 19,  // 400: both are present
    CHP_ERR_TRANSFER_ENCODING_HTTP10 = 20,              // 400: Transfer-Encoding in an HTTP/1.0 request
    CHP_ERR_TRANSFER_ENCODING = 21,        // 400: a Transfer-Encoding element is not a bare token, or none is given
    CHP_ERR_CHUNKED_NOT_FINAL = 22,        // 400: chunked is followed by another coding or applied twice
    CHP_ERR_UNKNOWN_TRANSFER_CODING = 23,  // 501: a transfer coding other than chunked
    CHP_ERR_CHUNK_SIZE = 24,               // 400: a chunk-size that is not 1*HEXDIG followed by `;` or CRLF
    CHP_ERR_CHUNK_SIZE_OVERFLOW = 25,      // 400: a chunk-size larger than UINT64_MAX
    CHP_ERR_CHUNK_EXTENSION = 26,          // 400: a chunk extension that does not follow the grammar
    CHP_ERR_CHUNK_LINE_TOO_LONG = 27,      // 400: a chunk-size line longer than CHP_MAX_CHUNK_LINE_LENGTH
    CHP_ERR_CHUNK_DATA_END = 28,           // 400: chunk data not followed by exactly CRLF
} chp_error_code;

/// One field line: name and value as offsets into the parsed buffer. The value excludes leading and
/// trailing SP/HTAB; it may be empty (value_len 0).
typedef struct {
    size_t name_off, name_len, value_off, value_len;
} chp_header;

/// What the caller allows. A request over max_target is 414; field lines over max_header_bytes in total
/// (each counted with its CRLF; the blank line that ends the head is not counted) or more than max_headers of
/// them are 431. Each limit is reported as soon as the first byte beyond it is in the buffer, complete or not.
typedef struct {
    size_t max_target, max_header_bytes, max_headers;
} chp_limits;

/// A parsed request head. The caller sets `headers` (an array) and `max_headers` (its capacity); the parser
/// sets everything else. The effective field limit is the smaller of max_headers and limits->max_headers.
typedef struct {
    size_t method_off, method_len, target_off, target_len;
    int version_minor;                // 0 or 1 (the major version is always 1)
    chp_header *headers;              // caller-owned array
    size_t num_headers, max_headers;  // fields written, array capacity
    // Framing derived from the fields (RFC 9112 §6):
    int has_content_length;     // 1 when Content-Length is present
    uint64_t content_length;    // its value when present, else 0
    int chunked;                // 1 when Transfer-Encoding is exactly `chunked`
    int has_transfer_encoding;  // 1 when any Transfer-Encoding field line is present
    int expect_continue;        // 1 when Expect lists 100-continue (case-insensitive)
    int connection_close;       // 1 when Connection lists close
    int connection_keep_alive;  // 1 when Connection lists keep-alive
    size_t host_count;          // number of Host field lines (0 or 1 on success)
    // On CHP_ERROR:
    int error_code;       // a chp_error_code; CHP_OK otherwise
    size_t error_offset;  // offset in buf of the first byte that made the request unacceptable
} chp_request;

/// Parses a request head from buf[0..len).
///
/// Returns the number of bytes the head occupies (request line, field lines and the blank line, plus one
/// ignored leading CRLF if present), CHP_INCOMPLETE when buf is a proper prefix of a head that could still be
/// valid, or CHP_ERROR with req->error_code and req->error_offset set. Bytes after the head (a body, a
/// pipelined request) are not examined. The result depends only on buf[0..len): re-parse from the first byte
/// when more bytes arrive; for every prefix of an input the result is CHP_INCOMPLETE or the input's own result
/// with identical fields and offsets. Errors are reported in byte order: the first unacceptable byte wins, and
/// checks that need the whole head (Host, Transfer-Encoding vs Content-Length) run when its blank line arrives.
/// `limits` and `req` must not be NULL; `req->headers` may be NULL only when `req->max_headers` is 0.
ssize_t chp_parse_request(const char *buf, size_t len, const chp_limits *limits, chp_request *req);

/// The longest head chp_parse_request can accept under `limits`: any buffer this long that is still not a
/// complete head has already been rejected. Callers use it to size their read buffers. Saturates at PTRDIFF_MAX.
size_t chp_max_head_length(const chp_limits *limits);

/// Incremental decoder for the chunked transfer coding (RFC 9112 §7.1). The caller may feed any number of
/// bytes per call, down to one: partial chunk-size lines, extensions and trailers live in the state, never in
/// the caller's buffer. Chunk extensions are checked against the grammar and ignored. Trailer fields are
/// checked like header fields (same grammar, limited by the limits given to chp_chunked_init) and discarded
/// (RFC 9112 §7.1.2 lets a recipient discard them); they are not reported.
typedef struct {
    // Public results:
    int done;               // 1 once the last chunk and the trailer section have been consumed
    int error_code;         // a chp_error_code after CHP_ERROR
    uint64_t error_offset;  // offset of the offending byte, counted from the first byte of the body
    // Configuration (set by chp_chunked_init):
    size_t max_trailer_bytes, max_trailer_fields;
    // Internal state; do not modify:
    int state;
    uint64_t chunk_remaining;  // data bytes left in the current chunk
    uint64_t position;         // body bytes consumed by earlier calls
    size_t line_length;        // bytes of the current chunk-size line so far
    size_t trailer_bytes;      // bytes of trailer field lines so far
    size_t trailer_fields;     // complete trailer field lines so far
} chp_chunked_decoder;

/// Prepares `decoder` for a new body. Trailers are limited by limits->max_header_bytes and
/// limits->max_headers (431 when exceeded). Neither pointer may be NULL.
void chp_chunked_init(chp_chunked_decoder *decoder, const chp_limits *limits);

/// Decodes from buf[0..len) until it has found one span of chunk data, reached the end of the body, or used
/// all of buf. Returns the number of bytes consumed and sets *data_off and *data_len to the chunk data among
/// them (an offset into buf; data_len 0 when the consumed bytes held none); the caller copies that span and
/// calls again with buf + consumed. Returns 0 without consuming once decoder->done is set (the following bytes
/// belong to the next request), and less than len only after a data span or at the end of the body. Never
/// returns CHP_INCOMPLETE. Returns CHP_ERROR with decoder->error_code and decoder->error_offset set, and again
/// on every later call. No pointer may be NULL unless len is 0 (buf).
ssize_t chp_decode_chunked(chp_chunked_decoder *decoder, const char *buf, size_t len, size_t *data_off,
                           size_t *data_len);

#ifdef __cplusplus
}
#endif

#endif  // CHTTPPARSER_H
