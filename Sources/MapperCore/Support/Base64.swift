// SPDX-License-Identifier: Apache-2.0

// Strict standard base64 (RFC 4648 §4) for `data` properties with `encoding: base64` (docs/coercion-rules.md, "data":
// "standard alphabet, padding optional, no whitespace … written back as padded base64").
//
// Decoding accepts exactly one spelling per byte string, up to optional padding:
//
//     "TWE="  "TWE"   → [0x4d, 0x61]            "TWF" → rejected: `F` leaves non-zero bits behind
//     "TQ=="  "TQ"    → [0x4d]                  "TQ=" "T" "TQ==A" "T Q==" "TQ-_" → rejected
//
// - Alphabet: `A–Z a–z 0–9 + /` only; the URL-safe `-` `_`, whitespace, and every other byte are invalid.
// - Unpadded: any length except ≡ 1 (mod 4), which cannot carry whole bytes.
// - Padded: `=` only at the very end, one or two of them, and the total length a multiple of 4.
// - Leftover bits: **rejected.** The last symbol of a 2- or 3-symbol group carries 4 or 2 bits beyond the
//   decoded bytes; RFC 4648 §3.5 lets a decoder reject them when non-zero, and we do, so that every accepted
//   text decodes to bytes that re-encode to the same text (modulo padding). Otherwise "TR==" and "TQ==" would
//   silently name the same byte, which matters for `X-Model-Hash` and `/compare`.

/// Strict standard base64 (RFC 4648 §4).
enum Base64 {
    private static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    private static let pad = UInt8(ascii: "=")

    /// Decodes standard base64 (padding optional, nothing else tolerated); `nil` when `text` is not valid as
    /// described at the top of this file.
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        var symbols = text.count
        if symbols > 0, text[symbols - 1] == pad {
            // RFC 4648 §3.2: padding completes the final 4-symbol quantum.
            guard text.count % 4 == 0 else { return nil }
            symbols -= 1
            if text[symbols - 1] == pad { symbols -= 1 }
            // Any other `=` (`A===`, `TQ=A`) is left among the data symbols and fails the alphabet.
        }
        let tail = symbols % 4
        guard tail != 1 else { return nil }

        var out: [UInt8] = []
        out.reserveCapacity(symbols / 4 * 3 + (tail == 0 ? 0 : tail - 1))
        var index = 0
        while symbols - index >= 4 {
            guard let a = value(text[index]), let b = value(text[index + 1]),
                let c = value(text[index + 2]), let d = value(text[index + 3])
            else { return nil }
            let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            out.append(UInt8(truncatingIfNeeded: group >> 16))
            out.append(UInt8(truncatingIfNeeded: group >> 8))
            out.append(UInt8(truncatingIfNeeded: group))
            index += 4
        }
        switch tail {
        case 2:
            guard let a = value(text[index]), let b = value(text[index + 1]) else { return nil }
            guard b & 0x0f == 0 else { return nil }  // leftover bits must be zero (see top)
            out.append(a << 2 | b >> 4)
        case 3:
            guard let a = value(text[index]), let b = value(text[index + 1]), let c = value(text[index + 2])
            else { return nil }
            guard c & 0x03 == 0 else { return nil }  // leftover bits must be zero (see top)
            out.append(a << 2 | b >> 4)
            out.append(b << 4 | c >> 2)
        default:
            break
        }
        return out
    }

    /// Appends the padded standard base64 spelling of `bytes` to `out`.
    static func encode(_ bytes: UnsafeRawBufferPointer, into out: inout some ByteSink) {
        alphabet.withUTF8Buffer { symbol in
            var index = 0
            while bytes.count - index >= 3 {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                out.append(symbol[Int(group >> 18 & 0x3f)])
                out.append(symbol[Int(group >> 12 & 0x3f)])
                out.append(symbol[Int(group >> 6 & 0x3f)])
                out.append(symbol[Int(group & 0x3f)])
                index += 3
            }
            switch bytes.count - index {
            case 1:
                let group = UInt32(bytes[index]) << 16
                out.append(symbol[Int(group >> 18 & 0x3f)])
                out.append(symbol[Int(group >> 12 & 0x3f)])
                out.append(pad)
                out.append(pad)
            case 2:
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                out.append(symbol[Int(group >> 18 & 0x3f)])
                out.append(symbol[Int(group >> 12 & 0x3f)])
                out.append(symbol[Int(group >> 6 & 0x3f)])
                out.append(pad)
            default:
                break
            }
        }
    }

    /// Appends the padded standard base64 spelling of `bytes` to `out`.
    static func encode(_ bytes: [UInt8], into out: inout some ByteSink) {
        bytes.withUnsafeBytes { encode($0, into: &out) }
    }

    /// The 6-bit value of one symbol of the standard alphabet, or `nil` for any other byte (including `=`).
    private static func value(_ symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
