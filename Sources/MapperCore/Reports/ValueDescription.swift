// SPDX-License-Identifier: Apache-2.0

/// How report messages show an input value: `string "abc"`, `number 3.7`, `boolean true`, `null`, `object`.
/// Only built when an entry is recorded.
enum ValueDescription {
    static let maxShownBytes = 64
    /// What a plain short string's raw bytes follow (`plainShortString`); a closing `"` follows them.
    static var stringOpening: StaticString { "string \"" }

    static func describe(_ token: JSONToken, in bytes: UnsafeRawBufferPointer) -> String {
        switch token.kind {
        case .null: return "null"
        case .true: return "boolean true"
        case .false: return "boolean false"
        case .number: return "number " + shown(bytes[token.start..<token.end])
        case .string:
            if let shown = plainShortString(token, in: bytes) {
                return "\(stringOpening)" + String(decoding: shown, as: UTF8.self) + "\""
            }
            let decoded = JSONStrings.decoded(token, in: bytes)
            var quoted: [UInt8] = []
            let cut = decoded.count > maxShownBytes
            JSONStrings.writeQuoted(prefix(decoded), into: &quoted)
            return "string " + String(decoding: quoted, as: UTF8.self) + (cut ? "…" : "")
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The common case of a string: short and without escapes, it is shown as its raw bytes between
    /// `stringOpening` and `"`, which this returns (a message can then be written without a `String`); nil for
    /// every other value.
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
