// SPDX-License-Identifier: Apache-2.0
//
// gzip (RFC 1952) for request and response bodies, over the system zlib. This is the only Swift file that imports
// CZlib: `Gzip.Stream` owns one z_stream and turns zlib's return codes into Swift values; GzipInflater,
// GzipDeflater and the one-shot functions below are written against it.
//
// - The z_stream lives on the heap and never moves: zlib's private state points back at it (state->strm) and
//   refuses a stream whose address changed, so it cannot be a stored property of a struct. `Stream` is a final
//   class that allocates it once and ends it in `deinit`.
// - Output goes straight into the tail of the caller's [UInt8]. Every bound (the body limit, a per-call bound) is
//   enforced by how much output space zlib is offered, so a zip bomb is never inflated past the bound.

import CZlib

/// One-shot gzip decoding and encoding; GzipInflater and GzipDeflater do the same a chunk at a time.
enum Gzip {
    /// Inflates a whole gzip body. RFC 1952 §2.2 allows several members back to back; their outputs are
    /// concatenated. Decoding stops with `.tooLarge` as soon as the inflated bytes exceed `limit` (at most
    /// `limit + 1` bytes are ever produced); bytes after a member that do not start a new member are `.corrupt`,
    /// and so is an empty body.
    static func inflate(_ body: UnsafeRawBufferPointer, limit: Int) -> Result<[UInt8], GzipError> {
        var inflater = GzipInflater(limit: limit, maxOutputPerFeed: .max)
        var output: [UInt8] = []
        if case .failure(let error) = inflater.feed(body, into: &output) { return .failure(error) }
        return inflater.finish().map { output }
    }

    /// Compresses `bytes` into one gzip member at `level` (0 stores, 1 is fastest, 9 smallest; 6 is zlib's default).
    static func deflate(_ bytes: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8] {
        var deflater = GzipDeflater(level: level)
        var output: [UInt8] = []
        deflater.feed(bytes, flush: false, into: &output)
        deflater.finish(into: &output)
        return output
    }
}

extension Gzip {
    /// One zlib stream in gzip mode (windowBits 31), pinned on the heap. Not thread-safe: one owner at a time.
    final class Stream {
        enum Direction {
            case inflate
            /// `level` is 0–9, or -1 for zlib's default.
            case deflate(level: Int32)
        }

        /// How far an encode call must push its output (zlib's Z_NO_FLUSH, Z_SYNC_FLUSH, Z_FINISH).
        enum Flush {
            case none, sync, finish
        }

        /// What zlib reported after one call.
        enum Outcome: Equatable {
            /// Progress, or none possible without more input or output space (Z_OK, Z_BUF_ERROR).
            case ok
            /// The member's trailer was checked (decoding) or written (encoding with `.finish`).
            case ended
            /// The input is not valid gzip; the text is zlib's reason, e.g. "incorrect data check".
            case corrupt(String)
        }

        /// One call into zlib: how much input it took, how much output it appended, and what it said.
        struct Step {
            var consumed: Int
            var produced: Int
            var outcome: Outcome
        }

        /// The most output space offered per call, appended from here (a contiguous copy, fast in debug builds
        /// too) and trimmed back to what zlib wrote.
        private static let zeros = [UInt8](repeating: 0, count: 64 * 1024)

        private let direction: Direction
        /// Allocated and initialised in `init`, ended and freed in `deinit`; next_in/next_out are only set during
        /// a call.
        private let stream: UnsafeMutablePointer<z_stream>

        init(_ direction: Direction) {
            self.direction = direction
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            let code: Int32
            switch direction {
            case .inflate:
                code = czlib_inflate_init_gzip(stream)
            case .deflate(let level):
                precondition((-1...9).contains(level), "gzip level \(level) is outside -1...9")
                code = czlib_deflate_init_gzip(stream, level)
            }
            // Only memory exhaustion or a libz older than its header can fail here; neither comes from input.
            precondition(code == Z_OK, "zlib stream initialisation failed with code \(code)")
        }

        deinit {
            switch direction {
            case .inflate: inflateEnd(stream)
            case .deflate: deflateEnd(stream)
            }
            stream.deinitialize(count: 1)
            stream.deallocate()
        }

        /// Inflates from `input`, appending at most `room` (> 0, capped at 64 KiB) bytes to `output`.
        func decode(_ input: UnsafeRawBufferPointer, appendingAtMost room: Int, to output: inout [UInt8]) -> Step {
            let (consumed, produced, code) = call(input, room: room, output: &output) { CZlib.inflate($0, Z_NO_FLUSH) }
            switch code {
            case Z_OK, Z_BUF_ERROR:
                return Step(consumed: consumed, produced: produced, outcome: .ok)
            case Z_STREAM_END:
                return Step(consumed: consumed, produced: produced, outcome: .ended)
            case Z_DATA_ERROR:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid compressed data"
                return Step(consumed: consumed, produced: produced, outcome: .corrupt(reason))
            case Z_NEED_DICT:
                // Only a zlib wrapper (RFC 1950) can ask for a dictionary; windowBits 31 accepts gzip alone.
                let reason = "a preset dictionary is required"
                return Step(consumed: consumed, produced: produced, outcome: .corrupt(reason))
            default:
                // Z_STREAM_ERROR (a misused stream) or Z_MEM_ERROR: a bug or exhaustion, not something input causes.
                preconditionFailure("zlib inflate failed with code \(code)")
            }
        }

        /// Readies the decoder for the next gzip member, keeping its allocated state.
        func resetDecoder() {
            let code = inflateReset(stream)
            precondition(code == Z_OK, "zlib inflateReset failed with code \(code)")
        }

        /// Deflates from `input`, appending at most `room` (> 0, capped at 64 KiB) bytes to `output`.
        func encode(
            _ input: UnsafeRawBufferPointer, flush: Flush, appendingAtMost room: Int, to output: inout [UInt8]
        ) -> Step {
            let mode: Int32 =
                switch flush {
                case .none: Z_NO_FLUSH
                case .sync: Z_SYNC_FLUSH
                case .finish: Z_FINISH
                }
            let (consumed, produced, code) = call(input, room: room, output: &output) { CZlib.deflate($0, mode) }
            switch code {
            case Z_OK, Z_BUF_ERROR:
                return Step(consumed: consumed, produced: produced, outcome: .ok)
            case Z_STREAM_END:
                return Step(consumed: consumed, produced: produced, outcome: .ended)
            default:
                // Z_STREAM_ERROR: the stream was used after Z_FINISH or is inconsistent — a bug in the caller.
                preconditionFailure("zlib deflate failed with code \(code)")
            }
        }

        /// Points zlib at `input` and at `room` fresh bytes at the end of `output`, runs `body`, trims what zlib did
        /// not write, and clears the pointers again.
        private func call(
            _ input: UnsafeRawBufferPointer, room: Int, output: inout [UInt8], _ body: (z_streamp) -> Int32
        ) -> (consumed: Int, produced: Int, code: Int32) {
            precondition(room > 0, "zlib needs output space")
            // avail_in is 32-bit: offer at most 4 GiB per call; callers loop on `consumed`.
            let inputCount = UInt32(clamping: input.count)
            let outputCount = UInt32(min(room, Self.zeros.count))
            let start = output.count
            output.append(contentsOf: Self.zeros[..<Int(outputCount)])
            let code = output.withUnsafeMutableBytes { tail in
                stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = inputCount
                stream.pointee.next_out = (tail.baseAddress! + start).assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = outputCount
                return body(stream)
            }
            let consumed = Int(inputCount - stream.pointee.avail_in)
            let produced = Int(outputCount - stream.pointee.avail_out)
            output.removeLast(Int(stream.pointee.avail_out))
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
            stream.pointee.next_out = nil
            stream.pointee.avail_out = 0
            return (consumed, produced, code)
        }
    }
}

@available(*, unavailable)
extension Gzip.Stream: Sendable {}
