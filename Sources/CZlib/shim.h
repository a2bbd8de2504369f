// SPDX-License-Identifier: Apache-2.0
//
// The system zlib (Debian: zlib1g-dev), seen by exactly one Swift file: HTTP/Gzip.swift.
//
// deflateInit2 and inflateInit2 are macros that pass ZLIB_VERSION and sizeof(z_stream) so the library can check
// the caller was compiled against a compatible header; Swift cannot call function-like macros, so these shims do
// the same with fixed gzip settings. ZLIB_CONST makes next_in a const pointer (zlib never writes through it).
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#define ZLIB_CONST
#include <zlib.h>

/// windowBits 15 + 16: a gzip wrapper (RFC 1952) only — no zlib wrapper, no raw deflate.
#define CZLIB_GZIP_WINDOW_BITS (15 + 16)

/// memLevel 8 is zlib's default (deflateInit uses it): about 256 KiB of state per stream at windowBits 15.
#define CZLIB_MEM_LEVEL 8

/// Starts a gzip decoder on a zeroed stream. Returns Z_OK, Z_MEM_ERROR or Z_VERSION_ERROR.
static inline int czlib_inflate_init_gzip(z_streamp stream) {
    return inflateInit2_(stream, CZLIB_GZIP_WINDOW_BITS, ZLIB_VERSION, (int)sizeof(z_stream));
}

/// Starts a gzip encoder on a zeroed stream at `level` (0–9, or -1 for zlib's default, 6).
/// Returns Z_OK, Z_MEM_ERROR, Z_STREAM_ERROR (bad level) or Z_VERSION_ERROR.
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2_(stream, level, Z_DEFLATED, CZLIB_GZIP_WINDOW_BITS, CZLIB_MEM_LEVEL, Z_DEFAULT_STRATEGY,
                         ZLIB_VERSION, (int)sizeof(z_stream));
}

#endif
