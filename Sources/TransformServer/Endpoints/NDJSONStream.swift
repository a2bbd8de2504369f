// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// One NDJSON request converted while its body arrives (docs/api.md, "NDJSON streams"): bytes in (maybe gzip), framed
/// response bytes out — HTTP/1.1 chunks with the `X-Transform-Warnings` trailer, or raw bytes delimited by closing the
/// connection for HTTP/1.0; gzip-compressed and flushed after every chunk when the client accepts it.
///
/// Memory stays bounded whatever the body's size: the converter holds at most one line, the inflater hands out
/// at most 64 KiB per call.
struct NDJSONStream {
    private var converter: NDJSONConverter
    private var inflater: GzipInflater?
    private var deflater: GzipDeflater?
    private let http10: Bool
    /// The `X-Model-Version` header's value (docs/lifecycle.md).
    private let modelVersion: String?
    /// Set when the stream ended before the body did (strict mode's first failing line, a corrupt gzip body).
    private(set) var isFinished = false

    init(converter: NDJSONConverter, gzipInput: Bool, gzipOutput: Bool, http10: Bool, modelVersion: String? = nil) {
        self.converter = converter
        self.modelVersion = modelVersion
        inflater = gzipInput ? GzipInflater(limit: nil) : nil
        deflater = gzipOutput ? GzipDeflater() : nil
        self.http10 = http10
    }

    /// The response head: 200 with the NDJSON type, chunked with a trailer (HTTP/1.1) or close-delimited.
    func head() -> HTTPResponse {
        var response = HTTPResponse(
            status: .ok,
            headers: [
                (HTTPHeader.contentType, "application/x-ndjson"),
                (HTTPHeader.vary, HTTPHeader.acceptEncoding),
            ])
        if deflater != nil { response.headers.append((HTTPHeader.contentEncoding, "gzip")) }
        if let modelVersion { response.headers.append((HTTPHeader.xModelVersion, modelVersion)) }
        if !http10 { response.headers.append((HTTPHeader.trailer, HTTPHeader.xTransformWarnings)) }
        return response
    }

    /// Converts the lines `bytes` completes; returns the framed output to write.
    mutating func feed(_ bytes: [UInt8]) -> [UInt8] {
        guard !isFinished else { return [] }
        var lines: [UInt8] = []
        if inflater != nil {
            var input = bytes
            repeat {
                let result = input.withUnsafeBytes { inflater!.feed($0) }
                input = []
                switch result {
                case .failure(let error):
                    lines += encodingRecord(error)
                    isFinished = true
                    return frame(lines)
                case .success(let inflated):
                    lines += inflated.withUnsafeBytes { converter.feed($0) }
                }
            } while inflater!.hasPendingOutput && !converter.isFinished
        } else {
            lines = bytes.withUnsafeBytes { converter.feed($0) }
        }
        if converter.isFinished { isFinished = true }
        return frame(lines)
    }

    /// The body is complete: the last line, then the end of the stream (last chunk and trailer).
    mutating func finish() -> [UInt8] {
        var lines: [UInt8] = []
        if !isFinished {
            if inflater != nil, case .failure(let error) = inflater!.finish() {
                lines += encodingRecord(error)
            } else {
                lines += converter.finish()
            }
        }
        return frame(lines) + end()
    }

    /// What ends the stream after `isFinished` turned true mid-body.
    mutating func end() -> [UInt8] {
        var out: [UInt8] = []
        if var deflater {
            let tail = deflater.finish()
            self.deflater = deflater
            if http10 { out += tail } else { HTTPResponseWriter.chunk(tail, into: &out) }
        }
        if !http10 {
            HTTPResponseWriter.lastChunk(
                trailers: [(HTTPHeader.xTransformWarnings, String(converter.warnings))], into: &out)
        }
        return out
    }

    private mutating func frame(_ lines: [UInt8]) -> [UInt8] {
        guard !lines.isEmpty else { return [] }
        var payload = lines
        if deflater != nil { payload = lines.withUnsafeBytes { deflater!.feed($0, flush: true) } }
        if http10 { return payload }
        var out: [UInt8] = []
        HTTPResponseWriter.chunk(payload, into: &out)
        return out
    }

    private func encodingRecord(_ error: GzipError) -> [UInt8] { ErrorResponse.streamRecord(error) }

    var warnings: Int { converter.warnings }
}
