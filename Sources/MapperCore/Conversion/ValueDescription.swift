// SPDX-License-Identifier: Apache-2.0

/// How report messages show an input value: `string "abc"`, `number 3.7`, `boolean true`, `null`, `object`.
/// Only built when an entry is recorded.
enum ValueDescription {
    static let maxShownBytes = 64

    static func describe(_ token: JSONToken, in bytes: UnsafeRawBufferPointer) -> String {
        switch token.kind {
        case .null: return "null"
        case .true: return "boolean true"
        case .false: return "boolean false"
        case .number: return "number " + shown(bytes[token.start..<token.end])
        case .string where !token.hasEscapes && token.end - token.start <= maxShownBytes:
            var text: [UInt8] = []
            write(token, in: bytes, into: &text)
            return String(decoding: text, as: UTF8.self)
        case .string:
            var decoded: [UInt8] = []
            JSONStrings.decode(token, in: bytes, into: &decoded)
            var quoted: [UInt8] = []
            let cut = decoded.count > maxShownBytes
            JSONStrings.writeQuoted(prefix(decoded), into: &quoted)
            return "string " + String(decoding: quoted, as: UTF8.self) + (cut ? "…" : "")
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// `describe` into a message's bytes, without a `String` in between for the common short string.
    static func write(_ token: JSONToken, in bytes: UnsafeRawBufferPointer, into message: inout [UInt8]) {
        guard let shown = plainShortString(token, in: bytes) else {
            message.append(utf8: describe(token, in: bytes))
            return
        }
        message.append("string \"")
        message.append(bytes: shown)
        message.append(UInt8(ascii: "\""))
    }

    /// The common case of a string: short and without escapes, it is shown as its raw bytes between
    /// `string "` and `"`, which this returns; nil for every other value.
    @inline(__always)
    static func plainShortString(_ token: JSONToken, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard token.kind == .string, !token.hasEscapes, token.end - token.start <= maxShownBytes else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end])
    }

    static func shown(_ text: Slice<UnsafeRawBufferPointer>) -> String {
        let cut = text.count > maxShownBytes
        return String(decoding: cut ? text.prefix(maxShownBytes) : text[...], as: UTF8.self) + (cut ? "…" : "")
    }

    static func shown(_ bytes: [UInt8]) -> String {
        String(decoding: prefix(bytes), as: UTF8.self) + (bytes.count > maxShownBytes ? "…" : "")
    }

    /// At most `maxShownBytes`, cut on a UTF-8 boundary.
    private static func prefix(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > maxShownBytes else { return bytes }
        var end = maxShownBytes
        while end > 0, bytes[end].isUTF8Continuation { end -= 1 }
        return Array(bytes[..<end])
    }
}
