// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for CHTTPParser (built by scripts/fuzz-parser.sh with -fsanitize=fuzzer,address,undefined).
// Each input is parsed as a request head under the default limits and under small ones; every promise of
// CHTTPParser.h is checked (offsets inside the head, limits respected, a prefix is incomplete or gives the same
// result). The bytes after the head (or the whole input, when it is no head) are then decoded as a chunked body in
// one piece and one byte at a time, and the two must agree. A broken promise aborts, which libFuzzer reports.

#include "CHTTPParser.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 100

static void require(int condition) {
    if (!condition) {
        abort();
    }
}

typedef struct {
    ssize_t result;
    chp_request request;
    chp_header fields[MAX_FIELDS];
} parse_run;

static void parse(const uint8_t *data, size_t size, const chp_limits *limits, parse_run *run) {
    memset(run, 0, sizeof(*run));
    run->request.headers = run->fields;
    run->request.max_headers = MAX_FIELDS;
    run->result = chp_parse_request((const char *)data, size, limits, &run->request);
}

static void check_head(const uint8_t *data, size_t size, const chp_limits *limits, const parse_run *run) {
    const chp_request *req = &run->request;
    if (run->result == CHP_INCOMPLETE) {
        return;
    }
    if (run->result == CHP_ERROR) {
        require(req->error_code >= CHP_ERR_BARE_LINE_ENDING && req->error_code <= CHP_ERR_UNKNOWN_TRANSFER_CODING);
        require(req->error_offset < size);
        return;
    }
    require(run->result > 0);
    size_t n = (size_t)run->result;
    require(n <= size && n <= chp_max_head_length(limits));
    require(n >= 4 && data[n - 2] == '\r' && data[n - 1] == '\n');
    require(req->error_code == CHP_OK);
    require(req->method_len >= 1 && req->method_len <= CHP_MAX_METHOD_LENGTH);
    require(req->method_off + req->method_len < req->target_off);
    require(req->target_len >= 1 && req->target_len <= limits->max_target);
    require(req->target_off + req->target_len < n);
    require(req->version_minor == 0 || req->version_minor == 1);
    require(req->num_headers <= limits->max_headers && req->num_headers <= MAX_FIELDS);
    for (size_t i = 0; i < req->num_headers; i++) {
        const chp_header *h = &req->headers[i];
        require(h->name_len >= 1 && h->name_off + h->name_len < n);
        require(h->value_off + h->value_len < n);
        if (h->value_len > 0) {
            uint8_t first = data[h->value_off];
            uint8_t last = data[h->value_off + h->value_len - 1];
            require(first != ' ' && first != '\t' && last != ' ' && last != '\t');
        }
    }
    require(!(req->has_content_length && req->has_transfer_encoding));
    require(!req->chunked || req->has_transfer_encoding);
    require(req->host_count <= 1);
    require(req->version_minor == 0 || req->host_count == 1);
}

// A prefix of an input is incomplete, or gives exactly the input's result.
static void check_prefix(const uint8_t *data, size_t cut, const chp_limits *limits, const parse_run *whole) {
    parse_run prefix;
    parse(data, cut, limits, &prefix);
    if (prefix.result == CHP_INCOMPLETE) {
        return;
    }
    require(prefix.result == whole->result);
    if (prefix.result == CHP_ERROR) {
        require(prefix.request.error_code == whole->request.error_code);
        require(prefix.request.error_offset == whole->request.error_offset);
    } else {
        require(prefix.request.num_headers == whole->request.num_headers);
        require(memcmp(prefix.fields, whole->fields, prefix.request.num_headers * sizeof(chp_header)) == 0);
    }
}

typedef struct {
    size_t consumed, data_length;
    int done, error_code;
    uint64_t error_offset;
} chunked_run;

// Decodes body[0..size) handing the decoder at most `piece` bytes per call; chunk data is copied to out (which
// holds at least size bytes).
static void decode_chunked(const uint8_t *body, size_t size, size_t piece, uint8_t *out, chunked_run *run) {
    chp_limits limits = {64, 128, 8};
    chp_chunked_decoder decoder;
    chp_chunked_init(&decoder, &limits);
    memset(run, 0, sizeof(*run));
    size_t offset = 0;
    while (offset < size && !decoder.done) {
        size_t available = size - offset < piece ? size - offset : piece;
        size_t data_off = 0;
        size_t data_len = 0;
        ssize_t step = chp_decode_chunked(&decoder, (const char *)body + offset, available, &data_off, &data_len);
        if (step == CHP_ERROR) {
            require(decoder.error_offset < size);
            run->error_code = decoder.error_code;
            run->error_offset = decoder.error_offset;
            return;
        }
        require(step >= 0 && (size_t)step <= available);
        require(data_len == 0 || data_off + data_len <= (size_t)step);
        require(step > 0 || decoder.done);
        memcpy(out + run->data_length, body + offset + data_off, data_len);
        run->data_length += data_len;
        offset += (size_t)step;
    }
    run->consumed = offset;
    run->done = decoder.done;
}

static void check_chunked(const uint8_t *body, size_t size) {
    uint8_t *whole_data = malloc(size + 1);
    uint8_t *drip_data = malloc(size + 1);
    require(whole_data != NULL && drip_data != NULL);
    chunked_run whole;
    chunked_run drip;
    decode_chunked(body, size, size + 1, whole_data, &whole);
    decode_chunked(body, size, 1, drip_data, &drip);
    require(whole.error_code == drip.error_code && whole.error_offset == drip.error_offset);
    require(whole.done == drip.done && whole.data_length == drip.data_length);
    require(memcmp(whole_data, drip_data, whole.data_length) == 0);
    require(whole.error_code != CHP_OK || whole.consumed == drip.consumed);
    free(whole_data);
    free(drip_data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const chp_limits standard = {8192, 16384, 100};
    const chp_limits small = {16, 64, 4};
    parse_run whole;

    parse(data, size, &small, &whole);
    check_head(data, size, &small, &whole);
    if (size > 0) {
        check_prefix(data, size / 2, &small, &whole);
        check_prefix(data, (size_t)data[0] % size, &small, &whole);
    }

    parse(data, size, &standard, &whole);
    check_head(data, size, &standard, &whole);
    if (size > 0) {
        check_prefix(data, size - 1, &standard, &whole);
        check_prefix(data, size / 3, &standard, &whole);
    }

    size_t body_start = whole.result > 0 ? (size_t)whole.result : 0;
    check_chunked(data + body_start, size - body_start);
    return 0;
}
