// SPDX-License-Identifier: Apache-2.0

/// An NDJSON stream's state, touched only on its worker queue (one queue per stream keeps the chunks in order).
final class StreamBox: @unchecked Sendable {
    private(set) var value: NDJSONStream
    private var ended = false

    init(_ stream: NDJSONStream) { value = stream }

    /// The framed output of one body piece, and whether the stream ended early with it.
    func feed(_ bytes: [UInt8]) -> (bytes: [UInt8], endedEarly: Bool) {
        guard !ended else { return ([], false) }
        var output = value.feed(bytes)
        if value.isFinished {
            output += value.end()
            ended = true
            return (output, true)
        }
        return (output, false)
    }

    /// The rest of the stream once the body is complete (nothing if it already ended).
    func finish() -> [UInt8] {
        guard !ended else { return [] }
        ended = true
        return value.finish()
    }
}
