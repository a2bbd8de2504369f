// SPDX-License-Identifier: Apache-2.0
//
// A gzip encoder for responses written in pieces (NDJSON streams). Chunks go in as they are produced; with
// `flush: true` a chunk ends with a sync flush (zlib's Z_SYNC_FLUSH: the pending block plus an empty stored block,
// RFC 1951 §3.2.4), so everything sent so far can be inflated by the client before the stream ends. `finish`
// writes the last block and the gzip trailer (CRC-32 and length, RFC 1952 §2.2).
//
// A GzipDeflater holds a zlib stream by reference: use one value from one owner; do not copy it and use both.

struct GzipDeflater {
    /// True once `finish` has written the trailer; the stream takes no more input.
    private(set) var isFinished = false
    private let stream: Gzip.Stream

    /// `level` is 0–9 (0 stores, 1 is fastest, 9 smallest) or -1 for zlib's default (6).
    init(level: Int32 = 6) {
        stream = Gzip.Stream(.deflate(level: level))
    }

    /// Compresses `chunk` and returns what zlib emits; with `flush`, everything fed so far is decodable.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, flush: Bool) -> [UInt8] {
        var output: [UInt8] = []
        feed(chunk, flush: flush, into: &output)
        return output
    }

    /// Compresses `chunk`, appending what zlib emits to `output`; with `flush`, everything fed so far is decodable.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, flush: Bool, into output: inout [UInt8]) {
        precondition(!isFinished, "GzipDeflater.feed after finish")
        // Without a flush, an empty chunk has nothing to do (zlib would answer Z_BUF_ERROR).
        if chunk.isEmpty && !flush { return }
        run(chunk, flush: flush ? .sync : .none, into: &output)
    }

    /// Ends the member and returns the final bytes; a second call returns nothing.
    mutating func finish() -> [UInt8] {
        var output: [UInt8] = []
        finish(into: &output)
        return output
    }

    /// Ends the member, appending the final bytes to `output`; a second call appends nothing.
    mutating func finish(into output: inout [UInt8]) {
        guard !isFinished else { return }
        run(UnsafeRawBufferPointer(start: nil, count: 0), flush: .finish, into: &output)
        isFinished = true
    }

    /// zlib's contract: call again while it fills all the output space it is offered; with `.finish`, until it
    /// reports the end.
    private func run(_ input: UnsafeRawBufferPointer, flush: Gzip.Stream.Flush, into output: inout [UInt8]) {
        // Incompressible input grows by a few bytes per 16 KiB block; this usually finishes in one call.
        let room = min(max(input.count + 64, 1024), 64 * 1024)
        var consumed = 0
        while true {
            let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
            let step = stream.encode(rest, flush: flush, appendingAtMost: room, to: &output)
            consumed += step.consumed
            if step.outcome == .ended { return }
            if flush != .finish && step.produced < room && consumed == input.count { return }
        }
    }
}
