// SPDX-License-Identifier: Apache-2.0
//
// A gzip decoder for bodies that arrive in pieces (NDJSON request streams): compressed chunks in, inflated bytes
// out, in bounded memory whatever the stream's total size.
//
// Two bounds, both enforced by how much output space zlib is offered (never by inflating and then checking):
// - `limit` caps the inflated bytes of the whole stream (the body limit; nil for NDJSON, which has no total limit).
//   At most `limit + 1` bytes are ever produced before `.tooLarge`.
// - `maxOutputPerFeed` caps what one `feed` returns, so a 16 KiB chunk that expands a thousandfold is handed out
//   64 KiB at a time: when a call stops at that bound, `hasPendingOutput` is true and the caller feeds an empty
//   chunk to get the next piece. Input not consumed yet is kept inside, in order, so feeding more first is safe too.
//
// Members: RFC 1952 §2.2 lets a gzip stream hold several members back to back; their outputs are concatenated.
// After a member's trailer the next byte must start a new member, so trailing garbage is corrupt.
//
// A GzipInflater holds a zlib stream by reference: use one value from one owner; do not copy it and use both.

struct GzipInflater {
    /// The most inflated bytes the whole stream may produce; nil means no limit.
    let limit: Int?
    /// The most inflated bytes one `feed` call appends (> 0).
    let maxOutputPerFeed: Int
    /// Inflated bytes produced so far, across members; never more than `limit + 1`.
    private(set) var inflatedByteCount = 0
    /// Compressed bytes zlib has consumed so far; the position reported in `.corrupt` errors.
    private(set) var consumedByteCount = 0
    /// True when the last `feed` stopped at `maxOutputPerFeed` with more to come: feed an empty chunk to continue.
    private(set) var hasPendingOutput = false

    private let stream = Gzip.Stream(.inflate)
    /// Input fed earlier that zlib has not consumed yet (only after a call stopped at `maxOutputPerFeed`).
    private var pendingInput: [UInt8] = []
    /// The last zlib call filled all the space it was offered, so it may hold more output without new input.
    private var zlibMayHoldOutput = false
    /// Some bytes of the current member were consumed and its trailer has not been checked yet.
    private var insideMember = false
    /// Members whose trailer (CRC-32 and length) checked out.
    private var completedMembers = 0
    /// The first error; every later call answers it again.
    private var failure: GzipError?

    /// The most output space offered to zlib in one call.
    private static let stepBytes = 32 * 1024

    init(limit: Int?, maxOutputPerFeed: Int = 64 * 1024) {
        precondition(limit.map { $0 >= 0 } ?? true, "limit must not be negative")
        precondition(maxOutputPerFeed > 0, "maxOutputPerFeed must be positive")
        self.limit = limit
        self.maxOutputPerFeed = maxOutputPerFeed
    }

    /// Inflates `chunk` (after any input still pending) and returns at most `maxOutputPerFeed` bytes.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) -> Result<[UInt8], GzipError> {
        var output: [UInt8] = []
        return feed(chunk, into: &output).map { output }
    }

    /// Inflates `chunk` (after any input still pending), appending at most `maxOutputPerFeed` bytes to `output`.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, into output: inout [UInt8]) -> Result<Void, GzipError> {
        if let failure { return .failure(failure) }
        if pendingInput.isEmpty {
            let consumed = inflate(chunk, into: &output)
            pendingInput.append(contentsOf: chunk[consumed...])
        } else {
            var input = pendingInput
            pendingInput = []
            input.append(contentsOf: chunk)
            let consumed = input.withUnsafeBytes { inflate($0, into: &output) }
            input.removeFirst(consumed)
            pendingInput = input
        }
        if let failure {
            pendingInput = []
            return .failure(failure)
        }
        return .success(())
    }

    /// Ends the stream: it must have held at least one member and stopped at a member boundary. Call it once every
    /// `feed` has returned with `hasPendingOutput` false; output still pending counts as a truncated member.
    mutating func finish() -> Result<Void, GzipError> {
        if let failure { return .failure(failure) }
        assert(!hasPendingOutput, "GzipInflater.finish() called while output is pending")
        if insideMember || hasPendingOutput || !pendingInput.isEmpty {
            failure = .corrupt("the body ends inside a gzip member, after \(consumedByteCount) bytes")
        } else if completedMembers == 0 {
            // RFC 1952 §2.2: a gzip file is a series of members, and an empty body has none.
            failure = .corrupt("the body holds no gzip member")
        }
        return failure.map { .failure($0) } ?? .success(())
    }

    /// Runs zlib over `input` until it is consumed and drained, or the per-call bound is reached, or an error is
    /// recorded in `failure`. Returns how many bytes of `input` were consumed.
    private mutating func inflate(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) -> Int {
        var consumed = 0
        var producedThisCall = 0
        hasPendingOutput = false
        while consumed < input.count || zlibMayHoldOutput {
            // Offer about what this input may inflate to, so a small body does not grow `output` by 32 KiB.
            let guess = max(1024, min(Self.stepBytes, producedThisCall + 4 * (input.count - consumed)))
            let room = min(maxOutputPerFeed - producedThisCall, allowance, guess)
            guard room > 0 else {
                hasPendingOutput = true
                break
            }
            let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
            let step = stream.decode(rest, appendingAtMost: room, to: &output)
            consumed += step.consumed
            consumedByteCount += step.consumed
            producedThisCall += step.produced
            inflatedByteCount += step.produced
            zlibMayHoldOutput = step.produced == room
            if step.consumed > 0 { insideMember = true }
            if let limit, inflatedByteCount > limit {
                failure = .tooLarge(limit: limit)
                break
            }
            switch step.outcome {
            case .ok:
                // No progress: zlib needs more input than this call has.
                if step.consumed == 0 && step.produced == 0 { return consumed }
            case .ended:
                insideMember = false
                zlibMayHoldOutput = false
                completedMembers += 1
                stream.resetDecoder()
            case .corrupt(let reason):
                failure = .corrupt("\(reason), at or before compressed byte \(consumedByteCount)")
                return consumed
            }
        }
        return consumed
    }

    /// Output bytes still allowed before the limit is exceeded, plus one so that exceeding it is observed.
    private var allowance: Int {
        guard let limit else { return .max }
        let remaining = limit - inflatedByteCount
        return remaining == .max ? .max : remaining + 1
    }
}
