// SPDX-License-Identifier: Apache-2.0
//
// The system libcurl (Debian: libcurl4-openssl-dev), seen by exactly one Swift file: Cluster/EtcdHTTP.swift.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call; these shims fix the type of the
// third argument, one per kind of option the etcd client sets.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

/// The body callback: libcurl hands over `size * count` bytes; returning anything else aborts the transfer.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

/// The progress callback: returning non-zero aborts the transfer (CURLE_ABORTED_BY_CALLBACK).
typedef int (*ccurl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                       curl_off_t upload_total, curl_off_t upload_now);

/// Sets a `long` option (timeouts, flags). Returns CURLE_OK or why not.
static inline CURLcode ccurl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets a string option (URL, file names, request body); libcurl copies strings except CURLOPT_POSTFIELDS.
static inline CURLcode ccurl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets a pointer option (header lists, callback contexts).
static inline CURLcode ccurl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Installs the body callback (CURLOPT_WRITEFUNCTION).
static inline CURLcode ccurl_set_write_callback(CURL *handle, ccurl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

/// Installs the progress callback (CURLOPT_XFERINFOFUNCTION) and turns progress reports on.
static inline CURLcode ccurl_set_progress_callback(CURL *handle, ccurl_progress_callback callback) {
    curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

/// The response's HTTP status (0 when none was received).
static inline long ccurl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

/// Bytes of the request body libcurl sent; 0 means the request certainly never reached the server.
static inline curl_off_t ccurl_bytes_uploaded(CURL *handle) {
    curl_off_t size = 0;
    curl_easy_getinfo(handle, CURLINFO_SIZE_UPLOAD_T, &size);
    return size;
}

#endif
