// SPDX-License-Identifier: Apache-2.0
//
// The JSON tape: one flat array of tokens per request, in document order, holding offsets into the request body
// instead of Swift values. Nothing is decoded while scanning; a consumer decodes only the strings and numbers it
// reads, and skips a whole subtree in O(1) through `next`.
//
// Worked example — the 35-byte body
//
//     {"id":7,"tags":["a","b"],"ok":true}
//     0         1         2         3
//     01234567890123456789012345678901234
//
// becomes nine tokens:
//
//     index  kind    start  end  count  next   text
//     0      object      0   35      3     9   {…}        (the whole body)
//     1      string      2    4      0     2   id         (a key: start is after the opening quote)
//     2      number      6    7      0     3   7
//     3      string      9   13      0     4   tags
//     4      array      15   24      2     7   ["a","b"]  (next skips both elements)
//     5      string     17   18      0     6   a
//     6      string     21   22      0     7   b
//     7      string     26   28      0     8   ok
//     8      true       30   34      0     9   true
//
// An object is laid out as [object, key₁, value₁…, key₂, value₂…] and an array as [array, element₁…, element₂…],
// where "value…" is the value's token followed by its descendants. So the first member's key is at `index + 1`,
// each following key (or element) is at the previous value's `next`, and the container ends at its own `next`.

/// The JSON value kinds a token can have.
enum JSONKind: UInt8, Sendable {
    case null
    case `false`
    case `true`
    case number
    case string
    case array
    case object
}

/// One JSON value on the tape: its kind and where its text lies in the scanned bytes.
struct JSONToken: Sendable, Equatable {
    /// The value's kind.
    var kind: JSONKind
    /// Strings only: true when the raw text contains a backslash, so decoding must resolve escapes.
    var hasEscapes: Bool
    /// string: offset of the first byte after the opening quote; number/literal: its first byte;
    /// array/object: offset of `[` / `{`.
    var start: Int
    /// string: offset of the closing quote; number/literal: one past its last byte; array/object: one past `]` / `}`.
    var end: Int
    /// array: element count; object: member count; otherwise 0.
    var count: Int
    /// Index of the first token after this value and all its descendants.
    var next: Int
}

extension JSONToken {
    /// The value's raw text in the input: for a string, with its quotes.
    var rawRange: Range<Int> { kind == .string ? start - 1..<end + 1 : start..<end }
}

/// The tokens of one scanned JSON text, reused from request to request.
struct JSONTape: Sendable {
    /// The tokens in document order; `tokens[0]` is the top-level value after a successful scan.
    var tokens: [JSONToken]

    init() {
        tokens = []
    }

    /// Scans `bytes` into a fresh tape: the tape, or the syntax error.
    static func scanning(_ bytes: [UInt8], maxDepth: Int) -> Result<JSONTape, JSONSyntaxError> {
        var tape = JSONTape()
        return bytes.withUnsafeBytes { raw in
            do throws(JSONSyntaxError) {
                try JSONScanner.scan(raw, into: &tape, maxDepth: maxDepth)
                return .success(tape)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Tapes of finished conversions. One keeps up to 32,768 tokens (1.3 MB; a body of about 64 KB), so the pool
    /// holds at most about 10 MB however large the bodies were.
    static let pool = ScratchPool<JSONTape>(limit: 8) { tape in
        tape.tokens.capacity <= 1 << 15
    }

    /// Empties the tape, keeping its capacity for the next scan.
    mutating func removeAll() {
        tokens.truncate(to: 0)
    }
}
