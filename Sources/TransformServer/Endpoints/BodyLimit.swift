// SPDX-License-Identifier: Apache-2.0

/// The body limit (`maxBodyBytes`, docs/api.md "Limits"): where every `413 body_too_large` is decided.
///
/// A body is over the limit when its Content-Length announces more, when its chunks announce more (counted as they
/// arrive), or when its gzip content inflates to more. Each is answered at once, without reading the rest, and the
/// connection then closes: the rest of the body would have to be read to find the next request.
struct BodyLimit: Equatable {
    /// The most bytes a body may have (after content decoding, for gzip).
    let bytes: Int

    /// The 413 for a `Content-Length` over the limit (nil for none).
    func check(contentLength: UInt64?) -> RequestError? {
        guard let length = contentLength, length > UInt64(bytes) else { return nil }
        return .bodyTooLarge(limit: bytes)
    }

    /// The 413 for a chunked body of which `taken` bytes are decoded or dropped, with `announced` more announced by
    /// the chunk being read. A chunk size may be up to 2^64 − 1: it is compared with what is left, never added to
    /// a count.
    func check(taken: UInt64, announced: UInt64) -> RequestError? {
        guard taken > UInt64(bytes) || announced > UInt64(bytes) - taken else { return nil }
        return .bodyTooLarge(limit: bytes)
    }

    /// The body after its content coding: gzip inflated, stopping at the limit (`GzipError.tooLarge` is the 413).
    func decode(_ body: ArraySlice<UInt8>, gzip: Bool) -> Result<ArraySlice<UInt8>, GzipError> {
        guard gzip else { return .success(body) }
        return body.withUnsafeBytes { Gzip.inflate($0, limit: bytes) }.map { $0[...] }
    }
}
