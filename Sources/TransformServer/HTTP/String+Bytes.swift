// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// Byte comparisons for the strings of a request and a response (header names and values, methods): exact or
/// ASCII-case-insensitive, on the UTF-8 bytes, without the Unicode rules of `==` or lowercased copies.
extension String {
    /// Whether the string's bytes are exactly `literal`'s.
    func hasBytes(of literal: StaticString) -> Bool {
        withUTF8Bytes {
            $0.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
    }

    /// Equality that ignores the case of ASCII letters only (field names, RFC 9110 §5.1).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return utf8.elementsEqual(other.utf8) { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) &- UInt8(ascii: "a") < 26)
        }
    }
}
