// SPDX-License-Identifier: Apache-2.0
//
// The strict request-head parser and chunked decoder declared in include/CHTTPParser.h.
//
// Layout, bottom-up: character classes; failure helpers; the request-line scanners; the field-line scanners;
// the interpretation of framing fields (Host, Content-Length, Transfer-Encoding, Connection, Expect); the
// whole-head checks; the chunked decoder's byte steps. Then the public functions.
//
// Every scanner takes (b, len, &pos), checks `i < len` explicitly before reading a byte, and returns STEP_OK
// (pos advanced), CHP_INCOMPLETE or CHP_ERROR (req->error_code/error_offset set). No macro hides a return,
// nothing is allocated, and there is no mutable global state.

#include "CHTTPParser.h"

enum { STEP_OK = 0 };

// MARK: - Character classes

static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static inline int is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// RFC 9110 §5.6.2 — tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|"
// / "~" / DIGIT / ALPHA.
static inline int is_tchar(unsigned char c) {
    if (is_digit(c) || is_alpha(c)) {
        return 1;
    }
    // The tchar list as the RFC writes it, several to a line:
    // clang-format off
    switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+':
    case '-': case '.': case '^': case '_': case '`': case '|': case '~':
        return 1;
    default:
        return 0;
    }
    // clang-format on
}

// RFC 5234 B.1 — VCHAR = %x21-7E.
static inline int is_vchar(unsigned char c) { return c >= 0x21 && c <= 0x7E; }

// RFC 9110 §5.5 — field-vchar = VCHAR / obs-text (%x80-FF).
static inline int is_field_vchar(unsigned char c) { return is_vchar(c) || c >= 0x80; }

// RFC 9110 §5.6.3 — OWS and BWS are made of SP and HTAB.
static inline int is_whitespace(unsigned char c) { return c == ' ' || c == '\t'; }

static inline int hex_value(unsigned char c) {
    if (is_digit(c)) {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

static inline unsigned char to_lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c; }

// Compares b[0..n) with a lowercase literal, ignoring ASCII case (field names and tokens are case-insensitive).
static int equals_ignoring_case(const unsigned char *b, size_t n, const char *lower, size_t lower_len) {
    if (n != lower_len) {
        return 0;
    }
    for (size_t k = 0; k < n; k++) {
        if (to_lower(b[k]) != (unsigned char)lower[k]) {
            return 0;
        }
    }
    return 1;
}

// Adds without passing PTRDIFF_MAX, so the sum also fits ssize_t and Swift's Int (size_t imports as Int).
static size_t saturating_add(size_t a, size_t b) {
    const size_t most = (size_t)PTRDIFF_MAX;
    return (a > most || b > most - a) ? most : a + b;
}

// MARK: - Failure

static int fail(chp_request *req, chp_error_code code, size_t offset) {
    req->error_code = (int)code;
    req->error_offset = offset;
    return CHP_ERROR;
}

// RFC 9112 §2.2 — a line ends with CRLF. Given the CR at b[cr], requires the LF after it: a bare CR is rejected
// (400), never repaired.
static int expect_line_feed(const unsigned char *b, size_t len, size_t cr, chp_request *req) {
    if (cr + 1 >= len) {
        return CHP_INCOMPLETE;
    }
    if (b[cr + 1] != '\n') {
        return fail(req, CHP_ERR_BARE_LINE_ENDING, cr);
    }
    return STEP_OK;
}

// MARK: - Request line

// RFC 9112 §2.2 — a server SHOULD ignore at least one empty line (CRLF) received before the request-line.
// Exactly one is ignored; a second one fails as an empty method.
static int skip_leading_empty_line(const unsigned char *b, size_t len, size_t *pos, chp_request *req) {
    size_t i = *pos;
    if (i >= len) {
        return CHP_INCOMPLETE;
    }
    if (b[i] == '\n') {
        return fail(req, CHP_ERR_BARE_LINE_ENDING, i);
    }
    if (b[i] != '\r') {
        return STEP_OK;
    }
    int rc = expect_line_feed(b, len, i, req);
    if (rc != STEP_OK) {
        return rc;
    }
    *pos = i + 2;
    return STEP_OK;
}

// RFC 9112 §3 — request-line = method SP request-target SP HTTP-version; method = token (RFC 9110 §9.1), and
// exactly one SP follows it. RFC 9112 §3 — a method longer than any implemented one SHOULD get 501.
static int scan_method(const unsigned char *b, size_t len, size_t *pos, chp_request *req) {
    size_t start = *pos;
    size_t i = start;
    for (;;) {
        if (i >= len) {
            return CHP_INCOMPLETE;
        }
        if (!is_tchar(b[i])) {
            break;
        }
        if (i - start >= CHP_MAX_METHOD_LENGTH) {
            return fail(req, CHP_ERR_METHOD_TOO_LONG, i);
        }
        i++;
    }
    unsigned char c = b[i];
    if (i == start) {
        if (c == '\n') {
            return fail(req, CHP_ERR_BARE_LINE_ENDING, i);
        }
        return fail(req, is_whitespace(c) ? CHP_ERR_REQUEST_LINE : CHP_ERR_METHOD, i);
    }
    if (c != ' ') {
        if (c == '\n') {
            return fail(req, CHP_ERR_BARE_LINE_ENDING, i);
        }
        return fail(req, (c == '\t' || c == '\r') ? CHP_ERR_REQUEST_LINE : CHP_ERR_METHOD, i);
    }
    req->method_off = start;
    req->method_len = i - start;
    *pos = i + 1;
    return STEP_OK;
}

// RFC 9112 §3.2 — the request-target is ASCII URI text (RFC 3986 §2), so any byte outside VCHAR (a CTL, SP
// inside it, obs-text) is 400; a second SP is whitespace the request line does not allow (RFC 9112 §3).
// docs/api.md, "Limits" — a target longer than max_target is 414, reported as soon as its first extra byte arrives.
static int scan_target(const unsigned char *b, size_t len, size_t *pos, const chp_limits *limits, chp_request *req) {
    size_t start = *pos;
    size_t i = start;
    for (;;) {
        if (i >= len) {
            return CHP_INCOMPLETE;
        }
        unsigned char c = b[i];
        if (c == ' ') {
            break;
        }
        if (c == '\n') {
            return fail(req, CHP_ERR_BARE_LINE_ENDING, i);
        }
        if (c == '\r') {
            return fail(req, CHP_ERR_REQUEST_LINE, i);
        }
        if (!is_vchar(c)) {
            return fail(req, CHP_ERR_TARGET, i);
        }
        if (i - start >= limits->max_target) {
            return fail(req, CHP_ERR_TARGET_TOO_LONG, i);
        }
        i++;
    }
    if (i == start) {
        return fail(req, CHP_ERR_REQUEST_LINE, i);
    }
    req->target_off = start;
    req->target_len = i - start;
    *pos = i + 1;
    return STEP_OK;
}

// RFC 9112 §2.3 — HTTP-version = HTTP-name "/" DIGIT "." DIGIT, HTTP-name = %s"HTTP" (case-sensitive);
// anything else is 400, and the line must end right after it with CRLF.
// RFC 9110 §15.6.6 — a well-formed version other than 1.0 and 1.1 is 505, decided once the CRLF has arrived
// (so "HTTP/2.00" is still a malformed 400).
static int scan_version(const unsigned char *b, size_t len, size_t *pos, chp_request *req) {
    const char shape[] = "HTTP/D.D";
    size_t start = *pos;
    for (size_t k = 0; k < sizeof(shape) - 1; k++) {
        size_t i = start + k;
        if (i >= len) {
            return CHP_INCOMPLETE;
        }
        int matches = shape[k] == 'D' ? is_digit(b[i]) : b[i] == (unsigned char)shape[k];
        if (!matches) {
            int misplaced_space = k == 0 && is_whitespace(b[i]);
            return fail(req, misplaced_space ? CHP_ERR_REQUEST_LINE : CHP_ERR_VERSION, i);
        }
    }
    size_t end = start + sizeof(shape) - 1;
    if (end >= len) {
        return CHP_INCOMPLETE;
    }
    if (b[end] != '\r') {
        if (b[end] == '\n') {
            return fail(req, CHP_ERR_BARE_LINE_ENDING, end);
        }
        return fail(req, is_whitespace(b[end]) ? CHP_ERR_REQUEST_LINE : CHP_ERR_VERSION, end);
    }
    int rc = expect_line_feed(b, len, end, req);
    if (rc != STEP_OK) {
        return rc;
    }
    int major = b[start + 5] - '0';
    int minor = b[start + 7] - '0';
    if (major != 1 || minor > 1) {
        return fail(req, CHP_ERR_VERSION_UNSUPPORTED, start);
    }
    req->version_minor = minor;
    *pos = end + 2;
    return STEP_OK;
}

// MARK: - Field lines

// RFC 9112 §5 — field-line = field-name ":" OWS field-value OWS, then CRLF; field-name = token.
// RFC 9112 §5.1 — no whitespace is allowed between the field name and the colon: 400.
// RFC 9110 §5.5 — a field value holding NUL, CR, LF or another CTL except HTAB is rejected (400); leading and
// trailing OWS are not part of the value.
// docs/api.md, "Limits" — every byte of a field line, CRLF included, counts toward max_header_bytes; the first byte
// beyond it is 431 at once.
static int scan_field_line(const unsigned char *b, size_t len, size_t *pos, size_t section_start, size_t max_bytes,
                           chp_header *out, chp_request *req) {
    size_t name_start = *pos;
    size_t i = name_start;
    for (;;) {
        if (i >= len) {
            return CHP_INCOMPLETE;
        }
        if (i - section_start >= max_bytes) {
            return fail(req, CHP_ERR_HEADERS_TOO_LARGE, i);
        }
        unsigned char c = b[i];
        if (c == ':') {
            break;
        }
        if (is_tchar(c)) {
            i++;
            continue;
        }
        if (is_whitespace(c)) {
            return fail(req, CHP_ERR_SPACE_BEFORE_COLON, i);
        }
        return fail(req, c == '\n' ? CHP_ERR_BARE_LINE_ENDING : CHP_ERR_FIELD_NAME, i);
    }
    if (i == name_start) {
        return fail(req, CHP_ERR_FIELD_NAME, i);
    }
    out->name_off = name_start;
    out->name_len = i - name_start;
    i++;

    size_t value_start = 0;
    size_t value_end = 0;
    int has_content = 0;
    for (;;) {
        if (i >= len) {
            return CHP_INCOMPLETE;
        }
        if (i - section_start >= max_bytes) {
            return fail(req, CHP_ERR_HEADERS_TOO_LARGE, i);
        }
        unsigned char c = b[i];
        if (c == '\r') {
            break;
        }
        if (is_field_vchar(c)) {
            if (!has_content) {
                value_start = i;
                has_content = 1;
            }
            value_end = i + 1;
        } else if (!is_whitespace(c)) {
            return fail(req, c == '\n' ? CHP_ERR_BARE_LINE_ENDING : CHP_ERR_FIELD_VALUE, i);
        }
        i++;
    }
    int rc = expect_line_feed(b, len, i, req);
    if (rc != STEP_OK) {
        return rc;
    }
    if (i + 1 - section_start >= max_bytes) {
        return fail(req, CHP_ERR_HEADERS_TOO_LARGE, i + 1);
    }
    out->value_off = has_content ? value_start : i;
    out->value_len = has_content ? value_end - value_start : 0;
    *pos = i + 2;
    return STEP_OK;
}

// MARK: - Field interpretation

// What the field lines said about framing, for the checks that need the whole head.
typedef struct {
    size_t transfer_encoding_offset;  // name of the first Transfer-Encoding field line
    int chunked_seen;                 // chunked appeared among the codings
    int chunked_not_final;            // a coding (chunked included) followed chunked
    size_t not_final_offset;          // that coding
    int unknown_coding;               // a coding other than chunked appeared
    size_t unknown_offset;            // the first such coding
} framing;

// RFC 9110 §5.6.1 — #list: elements separated by commas with OWS around them; empty elements are ignored.
// Returns 1 with the next element's bounds (OWS trimmed), or 0 when the value b[*cursor..end) has no more.
static int next_list_element(const unsigned char *b, size_t *cursor, size_t end, size_t *element_off,
                             size_t *element_len) {
    size_t i = *cursor;
    while (i < end && (is_whitespace(b[i]) || b[i] == ',')) {
        i++;
    }
    if (i >= end) {
        *cursor = i;
        return 0;
    }
    size_t start = i;
    while (i < end && b[i] != ',') {
        i++;
    }
    size_t stop = i;
    while (stop > start && is_whitespace(b[stop - 1])) {
        stop--;
    }
    *element_off = start;
    *element_len = stop - start;
    *cursor = i;
    return 1;
}

// RFC 9112 §6.3 (5) and RFC 9110 §8.6 — Content-Length = 1*DIGIT. Anything else (empty, a sign, inner spaces,
// a comma list such as "5, 5", a value over UINT64_MAX) is an unrecoverable framing error: 400. Repeated field
// lines must carry the same number (RFC 9110 §8.6 lets a recipient accept identical repeats; we do, for lines).
static int interpret_content_length(const unsigned char *b, const chp_header *h, chp_request *req) {
    if (h->value_len == 0) {
        return fail(req, CHP_ERR_CONTENT_LENGTH, h->value_off);
    }
    uint64_t value = 0;
    for (size_t k = 0; k < h->value_len; k++) {
        size_t i = h->value_off + k;
        if (!is_digit(b[i])) {
            return fail(req, CHP_ERR_CONTENT_LENGTH, i);
        }
        uint64_t digit = (uint64_t)(b[i] - '0');
        if (value > (UINT64_MAX - digit) / 10) {
            return fail(req, CHP_ERR_CONTENT_LENGTH, i);
        }
        value = value * 10 + digit;
    }
    if (req->has_content_length && req->content_length != value) {
        return fail(req, CHP_ERR_CONTENT_LENGTH_MISMATCH, h->name_off);
    }
    req->has_content_length = 1;
    req->content_length = value;
    return STEP_OK;
}

// RFC 9112 §6.1 — Transfer-Encoding = #transfer-coding, applied in order, across all its field lines. Only
// chunked is implemented; an element with parameters or any non-token byte is malformed (400). The verdict
// (chunked final, unknown codings) is reached in check_framing, once the whole head is known.
static int interpret_transfer_encoding(const unsigned char *b, const chp_header *h, chp_request *req, framing *f) {
    if (!req->has_transfer_encoding) {
        req->has_transfer_encoding = 1;
        f->transfer_encoding_offset = h->name_off;
    }
    size_t cursor = h->value_off;
    size_t end = h->value_off + h->value_len;
    size_t off = 0;
    size_t n = 0;
    while (next_list_element(b, &cursor, end, &off, &n)) {
        for (size_t k = 0; k < n; k++) {
            if (!is_tchar(b[off + k])) {
                return fail(req, CHP_ERR_TRANSFER_ENCODING, off + k);
            }
        }
        if (f->chunked_seen && !f->chunked_not_final) {
            f->chunked_not_final = 1;
            f->not_final_offset = off;
        }
        if (equals_ignoring_case(b + off, n, "chunked", 7)) {
            f->chunked_seen = 1;
        } else if (!f->unknown_coding) {
            f->unknown_coding = 1;
            f->unknown_offset = off;
        }
    }
    return STEP_OK;
}

// RFC 9112 §9.3 and §9.6 — Connection options are case-insensitive tokens: "close" ends the connection after
// the response, "keep-alive" asks an HTTP/1.0 connection to persist. Other options are ignored.
static void interpret_connection(const unsigned char *b, const chp_header *h, chp_request *req) {
    size_t cursor = h->value_off;
    size_t end = h->value_off + h->value_len;
    size_t off = 0;
    size_t n = 0;
    while (next_list_element(b, &cursor, end, &off, &n)) {
        if (equals_ignoring_case(b + off, n, "close", 5)) {
            req->connection_close = 1;
        } else if (equals_ignoring_case(b + off, n, "keep-alive", 10)) {
            req->connection_keep_alive = 1;
        }
    }
}

// RFC 9110 §10.1.1 — the 100-continue expectation is case-insensitive. Other expectations are ignored (the
// server may answer 417; this parser does not decide that).
static void interpret_expect(const unsigned char *b, const chp_header *h, chp_request *req) {
    size_t cursor = h->value_off;
    size_t end = h->value_off + h->value_len;
    size_t off = 0;
    size_t n = 0;
    while (next_list_element(b, &cursor, end, &off, &n)) {
        if (equals_ignoring_case(b + off, n, "100-continue", 12)) {
            req->expect_continue = 1;
        }
    }
}

static int interpret_field(const unsigned char *b, const chp_header *h, chp_request *req, framing *f) {
    const unsigned char *name = b + h->name_off;
    if (equals_ignoring_case(name, h->name_len, "host", 4)) {
        // RFC 9112 §3.2 — a request with more than one Host field line gets 400.
        req->host_count++;
        if (req->host_count > 1) {
            return fail(req, CHP_ERR_HOST_REPEATED, h->name_off);
        }
        return STEP_OK;
    }
    if (equals_ignoring_case(name, h->name_len, "content-length", 14)) {
        return interpret_content_length(b, h, req);
    }
    if (equals_ignoring_case(name, h->name_len, "transfer-encoding", 17)) {
        return interpret_transfer_encoding(b, h, req, f);
    }
    if (equals_ignoring_case(name, h->name_len, "connection", 10)) {
        interpret_connection(b, h, req);
    } else if (equals_ignoring_case(name, h->name_len, "expect", 6)) {
        interpret_expect(b, h, req);
    }
    return STEP_OK;
}

// MARK: - Header section

// Scans field lines up to and including the blank line that ends the head.
static int scan_fields(const unsigned char *b, size_t len, size_t *pos, const chp_limits *limits, chp_request *req,
                       framing *f) {
    size_t section_start = *pos;
    size_t max_fields = limits->max_headers < req->max_headers ? limits->max_headers : req->max_headers;
    size_t i = section_start;
    for (;;) {
        if (i >= len) {
            return CHP_INCOMPLETE;
        }
        unsigned char c = b[i];
        if (c == '\r') {
            int rc = expect_line_feed(b, len, i, req);
            if (rc != STEP_OK) {
                return rc;
            }
            *pos = i + 2;
            return STEP_OK;
        }
        if (c == '\n') {
            return fail(req, CHP_ERR_BARE_LINE_ENDING, i);
        }
        // RFC 9112 §5.2 — obs-fold: a server MUST reject it (400) or replace it; we reject.
        // RFC 9112 §2.2 — whitespace between the start-line and the first field line is rejected the same way.
        if (is_whitespace(c)) {
            return fail(req, CHP_ERR_OBS_FOLD, i);
        }
        // docs/api.md, "Limits" — at most max_headers field lines: the first byte of one more is 431.
        if (req->num_headers >= max_fields) {
            return fail(req, CHP_ERR_TOO_MANY_HEADERS, i);
        }
        chp_header *h = &req->headers[req->num_headers];
        int rc = scan_field_line(b, len, &i, section_start, limits->max_header_bytes, h, req);
        if (rc != STEP_OK) {
            return rc;
        }
        req->num_headers++;
        rc = interpret_field(b, h, req, f);
        if (rc != STEP_OK) {
            return rc;
        }
    }
}

// The checks that need the whole head, in this order, once its blank line (at blank_line) has arrived.
static int check_framing(chp_request *req, const framing *f, size_t blank_line) {
    // RFC 9112 §3.2 — an HTTP/1.1 request without a Host field line gets 400.
    if (req->version_minor == 1 && req->host_count == 0) {
        return fail(req, CHP_ERR_HOST_MISSING, blank_line);
    }
    if (!req->has_transfer_encoding) {
        return STEP_OK;
    }
    // RFC 9112 §6.1 — Transfer-Encoding in HTTP/1.0 means the framing is faulty; docs/http-conformance.md rejects it
    // with 400.
    if (req->version_minor == 0) {
        return fail(req, CHP_ERR_TRANSFER_ENCODING_HTTP10, f->transfer_encoding_offset);
    }
    // RFC 9112 §6.1 and §6.3 (3) — a request with both Content-Length and Transfer-Encoding MAY be rejected;
    // docs/http-conformance.md does (400), which closes the request-smuggling door.
    if (req->has_content_length) {
        return fail(req, CHP_ERR_CONTENT_LENGTH_AND_TRANSFER_ENCODING, f->transfer_encoding_offset);
    }
    // RFC 9112 §6.3 (4) — chunked not the final coding (or applied twice, §6.1): the length cannot be
    // determined, 400.
    if (f->chunked_not_final) {
        return fail(req, CHP_ERR_CHUNKED_NOT_FINAL, f->not_final_offset);
    }
    // RFC 9112 §6.1 — a transfer coding the server does not understand: 501.
    if (f->unknown_coding) {
        return fail(req, CHP_ERR_UNKNOWN_TRANSFER_CODING, f->unknown_offset);
    }
    // A Transfer-Encoding made only of empty list elements names no coding at all: 400.
    if (!f->chunked_seen) {
        return fail(req, CHP_ERR_TRANSFER_ENCODING, f->transfer_encoding_offset);
    }
    req->chunked = 1;
    return STEP_OK;
}

// MARK: - Request state

static void reset_request(chp_request *req) {
    chp_header *headers = req->headers;
    size_t max_headers = req->headers == NULL ? 0 : req->max_headers;
    *req = (chp_request){0};
    req->headers = headers;
    req->max_headers = max_headers;
}

// MARK: - Chunked decoder

// The decoder's states. A chunk-size line is scanned byte by byte so that it may arrive in pieces.
enum {
    CS_SIZE_FIRST = 0,      // expecting the first hex digit of a chunk-size
    CS_SIZE,                // in the chunk-size
    CS_SIZE_WHITESPACE,     // BWS after the chunk-size; only `;` may follow
    CS_EXT_NAME_START,      // after `;`, BWS then the extension name
    CS_EXT_NAME,            // in an extension name
    CS_EXT_AFTER_NAME,      // BWS after the name; `=` or `;` must follow
    CS_EXT_VALUE_START,     // after `=`, BWS then a token or quoted-string
    CS_EXT_TOKEN,           // in a token value
    CS_EXT_QUOTED,          // in a quoted-string value
    CS_EXT_QUOTED_PAIR,     // after a backslash in a quoted-string
    CS_EXT_AFTER_QUOTED,    // right after the closing quote
    CS_EXT_AFTER_VALUE,     // BWS after a value; only `;` may follow
    CS_SIZE_LF,             // after the CR that ends the chunk-size line
    CS_DATA,                // chunk data, chunk_remaining bytes left
    CS_DATA_CR,             // expecting the CR after chunk data
    CS_DATA_LF,             // expecting the LF after chunk data
    CS_TRAILER_LINE_START,  // at the start of a trailer field line or of the final blank line
    CS_TRAILER_NAME,        // in a trailer field name
    CS_TRAILER_VALUE,       // in a trailer field value
    CS_TRAILER_LF,          // after the CR that ends a trailer field line
    CS_TRAILER_END_LF,      // after the CR of the final blank line
    CS_DONE,
    CS_ERROR,
};

// RFC 9112 §7.1 — chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF; chunk-size = 1*HEXDIG (no sign, no
// "0x", no inner space); chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ) with
// chunk-ext-val = token / quoted-string (RFC 9110 §5.6.4). Extensions are checked and ignored (§7.1.1).
// Returns CHP_OK or the error code for byte c.
static int step_size_line(chp_chunked_decoder *d, unsigned char c) {
    if (d->line_length >= CHP_MAX_CHUNK_LINE_LENGTH) {
        return CHP_ERR_CHUNK_LINE_TOO_LONG;
    }
    d->line_length++;
    if (c == '\n' && d->state != CS_SIZE_LF) {
        return CHP_ERR_BARE_LINE_ENDING;
    }
    int hex = hex_value(c);
    switch (d->state) {
    case CS_SIZE_FIRST:
        if (hex < 0) {
            return CHP_ERR_CHUNK_SIZE;
        }
        d->chunk_remaining = (uint64_t)hex;
        d->state = CS_SIZE;
        return CHP_OK;
    case CS_SIZE:
        if (hex >= 0) {
            if (d->chunk_remaining > (UINT64_MAX >> 4)) {
                return CHP_ERR_CHUNK_SIZE_OVERFLOW;
            }
            d->chunk_remaining = (d->chunk_remaining << 4) | (uint64_t)hex;
            return CHP_OK;
        }
        if (c == ';' || is_whitespace(c) || c == '\r') {
            d->state = c == ';' ? CS_EXT_NAME_START : (c == '\r' ? CS_SIZE_LF : CS_SIZE_WHITESPACE);
            return CHP_OK;
        }
        return CHP_ERR_CHUNK_SIZE;
    case CS_SIZE_WHITESPACE:
        if (c == ';') {
            d->state = CS_EXT_NAME_START;
        }
        return (c == ';' || is_whitespace(c)) ? CHP_OK : CHP_ERR_CHUNK_SIZE;
    case CS_EXT_NAME_START:
        if (is_tchar(c)) {
            d->state = CS_EXT_NAME;
        }
        return (is_tchar(c) || is_whitespace(c)) ? CHP_OK : CHP_ERR_CHUNK_EXTENSION;
    case CS_EXT_NAME:
    case CS_EXT_TOKEN:
        if (is_tchar(c)) {
            return CHP_OK;
        }
        if (c == '=' && d->state == CS_EXT_NAME) {
            d->state = CS_EXT_VALUE_START;
            return CHP_OK;
        }
        if (c == ';' || c == '\r' || is_whitespace(c)) {
            int after = d->state == CS_EXT_NAME ? CS_EXT_AFTER_NAME : CS_EXT_AFTER_VALUE;
            d->state = c == ';' ? CS_EXT_NAME_START : (c == '\r' ? CS_SIZE_LF : after);
            return CHP_OK;
        }
        return CHP_ERR_CHUNK_EXTENSION;
    case CS_EXT_AFTER_NAME:
        if (c == '=' || c == ';') {
            d->state = c == '=' ? CS_EXT_VALUE_START : CS_EXT_NAME_START;
        }
        return (c == '=' || c == ';' || is_whitespace(c)) ? CHP_OK : CHP_ERR_CHUNK_EXTENSION;
    case CS_EXT_VALUE_START:
        if (c == '"' || is_tchar(c)) {
            d->state = c == '"' ? CS_EXT_QUOTED : CS_EXT_TOKEN;
        }
        return (c == '"' || is_tchar(c) || is_whitespace(c)) ? CHP_OK : CHP_ERR_CHUNK_EXTENSION;
    case CS_EXT_QUOTED:
        // RFC 9110 §5.6.4 — qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text.
        if (c == '"' || c == '\\') {
            d->state = c == '"' ? CS_EXT_AFTER_QUOTED : CS_EXT_QUOTED_PAIR;
            return CHP_OK;
        }
        return (is_whitespace(c) || is_field_vchar(c)) ? CHP_OK : CHP_ERR_CHUNK_EXTENSION;
    case CS_EXT_QUOTED_PAIR:
        // RFC 9110 §5.6.4 — quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text ).
        d->state = CS_EXT_QUOTED;
        return (is_whitespace(c) || is_field_vchar(c)) ? CHP_OK : CHP_ERR_CHUNK_EXTENSION;
    case CS_EXT_AFTER_QUOTED:
        if (c == ';' || c == '\r' || is_whitespace(c)) {
            d->state = c == ';' ? CS_EXT_NAME_START : (c == '\r' ? CS_SIZE_LF : CS_EXT_AFTER_VALUE);
            return CHP_OK;
        }
        return CHP_ERR_CHUNK_EXTENSION;
    case CS_EXT_AFTER_VALUE:
        if (c == ';') {
            d->state = CS_EXT_NAME_START;
        }
        return (c == ';' || is_whitespace(c)) ? CHP_OK : CHP_ERR_CHUNK_EXTENSION;
    case CS_SIZE_LF:
        if (c != '\n') {
            return CHP_ERR_BARE_LINE_ENDING;
        }
        // RFC 9112 §7.1 — last-chunk = 1*("0") [ chunk-ext ] CRLF, then the trailer section.
        d->state = d->chunk_remaining == 0 ? CS_TRAILER_LINE_START : CS_DATA;
        return CHP_OK;
    default:
        return CHP_ERR_CHUNK_SIZE;
    }
}

// RFC 9112 §7.1 — chunk-data is followed by exactly CRLF; anything else (a bare LF, extra data) is 400.
static int step_data_end(chp_chunked_decoder *d, unsigned char c) {
    if (d->state == CS_DATA_CR) {
        if (c != '\r') {
            return CHP_ERR_CHUNK_DATA_END;
        }
        d->state = CS_DATA_LF;
        return CHP_OK;
    }
    if (c != '\n') {
        return CHP_ERR_CHUNK_DATA_END;
    }
    d->state = CS_SIZE_FIRST;
    d->line_length = 0;
    return CHP_OK;
}

// Counts one byte of a trailer field line against max_trailer_bytes.
static int count_trailer_byte(chp_chunked_decoder *d) {
    if (d->trailer_bytes >= d->max_trailer_bytes) {
        return CHP_ERR_HEADERS_TOO_LARGE;
    }
    d->trailer_bytes++;
    return CHP_OK;
}

// RFC 9112 §7.1.2 — trailer-section = *( field-line CRLF ), with the field-line grammar of §5 (no obs-fold, no
// whitespace before the colon, no CTL in values) and the header limits. Trailer fields are then discarded.
static int step_trailer(chp_chunked_decoder *d, unsigned char c) {
    switch (d->state) {
    case CS_TRAILER_LINE_START:
        if (c == '\r') {
            d->state = CS_TRAILER_END_LF;
            return CHP_OK;
        }
        if (c == '\n') {
            return CHP_ERR_BARE_LINE_ENDING;
        }
        if (is_whitespace(c)) {
            return CHP_ERR_OBS_FOLD;
        }
        if (d->trailer_fields >= d->max_trailer_fields) {
            return CHP_ERR_TOO_MANY_HEADERS;
        }
        if (count_trailer_byte(d) != CHP_OK) {
            return CHP_ERR_HEADERS_TOO_LARGE;
        }
        d->state = CS_TRAILER_NAME;
        return is_tchar(c) ? CHP_OK : CHP_ERR_FIELD_NAME;
    case CS_TRAILER_NAME:
        if (count_trailer_byte(d) != CHP_OK) {
            return CHP_ERR_HEADERS_TOO_LARGE;
        }
        if (c == ':') {
            d->state = CS_TRAILER_VALUE;
            return CHP_OK;
        }
        if (is_tchar(c)) {
            return CHP_OK;
        }
        if (is_whitespace(c)) {
            return CHP_ERR_SPACE_BEFORE_COLON;
        }
        return c == '\n' ? CHP_ERR_BARE_LINE_ENDING : CHP_ERR_FIELD_NAME;
    case CS_TRAILER_VALUE:
        if (count_trailer_byte(d) != CHP_OK) {
            return CHP_ERR_HEADERS_TOO_LARGE;
        }
        if (c == '\r') {
            d->state = CS_TRAILER_LF;
            return CHP_OK;
        }
        if (is_field_vchar(c) || is_whitespace(c)) {
            return CHP_OK;
        }
        return c == '\n' ? CHP_ERR_BARE_LINE_ENDING : CHP_ERR_FIELD_VALUE;
    case CS_TRAILER_LF:
        if (c != '\n') {
            return CHP_ERR_BARE_LINE_ENDING;
        }
        if (count_trailer_byte(d) != CHP_OK) {
            return CHP_ERR_HEADERS_TOO_LARGE;
        }
        d->trailer_fields++;
        d->state = CS_TRAILER_LINE_START;
        return CHP_OK;
    case CS_TRAILER_END_LF:
        if (c != '\n') {
            return CHP_ERR_BARE_LINE_ENDING;
        }
        d->state = CS_DONE;
        d->done = 1;
        return CHP_OK;
    default:
        return CHP_ERR_CHUNK_SIZE;
    }
}

static int step_chunked(chp_chunked_decoder *d, unsigned char c) {
    if (d->state <= CS_SIZE_LF) {
        return step_size_line(d, c);
    }
    if (d->state == CS_DATA_CR || d->state == CS_DATA_LF) {
        return step_data_end(d, c);
    }
    return step_trailer(d, c);
}

// MARK: - Public functions (contracts in include/CHTTPParser.h)

ssize_t chp_parse_request(const char *buf, size_t len, const chp_limits *limits, chp_request *req) {
    const unsigned char *b = (const unsigned char *)buf;
    reset_request(req);
    framing f = {0};
    size_t pos = 0;
    int rc = skip_leading_empty_line(b, len, &pos, req);
    if (rc != STEP_OK) {
        return rc;
    }
    rc = scan_method(b, len, &pos, req);
    if (rc != STEP_OK) {
        return rc;
    }
    rc = scan_target(b, len, &pos, limits, req);
    if (rc != STEP_OK) {
        return rc;
    }
    rc = scan_version(b, len, &pos, req);
    if (rc != STEP_OK) {
        return rc;
    }
    rc = scan_fields(b, len, &pos, limits, req, &f);
    if (rc != STEP_OK) {
        return rc;
    }
    rc = check_framing(req, &f, pos - 2);
    if (rc != STEP_OK) {
        return rc;
    }
    return (ssize_t)pos;
}

size_t chp_max_head_length(const chp_limits *limits) {
    // leading CRLF + method SP target SP "HTTP/x.y" CRLF + field lines + blank line
    size_t fixed = 2 + CHP_MAX_METHOD_LENGTH + 1 + 1 + 8 + 2 + 2;
    return saturating_add(saturating_add(fixed, limits->max_target), limits->max_header_bytes);
}

void chp_chunked_init(chp_chunked_decoder *decoder, const chp_limits *limits) {
    *decoder = (chp_chunked_decoder){0};
    decoder->state = CS_SIZE_FIRST;
    decoder->max_trailer_bytes = limits->max_header_bytes;
    decoder->max_trailer_fields = limits->max_headers;
}

ssize_t chp_decode_chunked(chp_chunked_decoder *decoder, const char *buf, size_t len, size_t *data_off,
                           size_t *data_len) {
    const unsigned char *b = (const unsigned char *)buf;
    *data_off = 0;
    *data_len = 0;
    if (decoder->state == CS_ERROR) {
        return CHP_ERROR;
    }
    size_t i = 0;
    while (i < len && decoder->state != CS_DONE) {
        if (decoder->state == CS_DATA) {
            size_t available = len - i;
            size_t n = decoder->chunk_remaining < (uint64_t)available ? (size_t)decoder->chunk_remaining : available;
            *data_off = i;
            *data_len = n;
            decoder->chunk_remaining -= n;
            i += n;
            if (decoder->chunk_remaining == 0) {
                decoder->state = CS_DATA_CR;
            }
            break;
        }
        unsigned char c = b[i];
        int code = step_chunked(decoder, c);
        if (code != CHP_OK) {
            // A bare CR is reported at the CR itself, which is the byte before the one that is not LF.
            int bare_cr = code == CHP_ERR_BARE_LINE_ENDING && c != '\n';
            decoder->state = CS_ERROR;
            decoder->error_code = code;
            decoder->error_offset = decoder->position + i - (bare_cr ? 1 : 0);
            return CHP_ERROR;
        }
        i++;
    }
    decoder->position += i;
    return (ssize_t)i;
}
