// SPDX-License-Identifier: Apache-2.0

import CHTTPParser

/// A chunked body run through chp_decode_chunked, as a value tests can compare.
struct ChunkedOutcome: Equatable, CustomStringConvertible {
    /// The chunk data, concatenated.
    var data: [UInt8] = []
    /// Bytes consumed over all calls.
    var consumed = 0
    var done = false
    /// The error code and offset, after CHP_ERROR.
    var error: (code: chp_error_code, offset: UInt64)?

    /// Decodes `body` fed in pieces that end at each of `splits` (offsets into `body`), then the rest.
    static func decode(_ body: [UInt8], splits: [Int] = [], limits: chp_limits = .standard) -> ChunkedOutcome {
        var limits = limits
        var decoder = chp_chunked_decoder()
        chp_chunked_init(&decoder, &limits)
        var outcome = ChunkedOutcome()
        var start = 0
        for end in splits + [body.count] where end >= start {
            let piece = Array(body[start..<end])
            start = end
            if !outcome.feed(piece, to: &decoder) {
                break
            }
        }
        return outcome
    }

    /// Decodes `body` one byte per call.
    static func drip(_ body: [UInt8], limits: chp_limits = .standard) -> ChunkedOutcome {
        decode(body, splits: Array(0..<body.count), limits: limits)
    }

    /// Feeds one piece the way a server would: call again with the rest after each data span. False after an
    /// error or once the body is done.
    private mutating func feed(_ piece: [UInt8], to decoder: inout chp_chunked_decoder) -> Bool {
        var offset = 0
        while offset < piece.count && !done {
            var dataOffset = 0
            var dataLength = 0
            let step = piece.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    chp_decode_chunked(
                        &decoder, chars.baseAddress! + offset, chars.count - offset, &dataOffset, &dataLength)
                }
            }
            if step == CHP_ERROR {
                error = (chp_error_code(rawValue: UInt32(decoder.error_code)), decoder.error_offset)
                return false
            }
            data += piece[(offset + dataOffset)..<(offset + dataOffset + dataLength)]
            offset += step
            consumed += step
            done = decoder.done != 0
            if step == 0 {
                break
            }
        }
        return !done
    }

    /// Equal data, completion and error; the bytes consumed before an error depend on how the body was cut, so
    /// they are compared only for bodies without one.
    static func == (lhs: ChunkedOutcome, rhs: ChunkedOutcome) -> Bool {
        let consumedMatches = lhs.error != nil || rhs.error != nil || lhs.consumed == rhs.consumed
        return lhs.data == rhs.data && consumedMatches && lhs.done == rhs.done
            && lhs.error?.code == rhs.error?.code && lhs.error?.offset == rhs.error?.offset
    }

    var description: String {
        let text = String(decoding: data, as: UTF8.self)
        if let error {
            return "error(\(error.code.rawValue), offset: \(error.offset)) after \(consumed) bytes, data \"\(text)\""
        }
        return "\(done ? "done" : "not done") after \(consumed) bytes, data \"\(text)\""
    }
}
