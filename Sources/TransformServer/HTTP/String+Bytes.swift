// SPDX-License-Identifier: Apache-2.0

/// Byte comparisons for the strings of a request and a response (header names and values, methods): exact or
/// ASCII-case-insensitive, on the UTF-8 bytes, without the Unicode rules of `==` or lowercased copies.
extension String {
    /// Whether the string's bytes are exactly `literal`'s.
    func hasBytes(of literal: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return utf8.withContiguousStorageIfAvailable { $0.elementsEqual(expected) } ?? utf8.elementsEqual(expected)
    }

    /// Equality that ignores the case of ASCII letters only (field names, RFC 9110 §5.1).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var (a, b) = (self, other)
        return a.withUTF8 { a in
            b.withUTF8 { b in
                for index in 0..<a.count where a[index] != b[index] {
                    let folded = a[index] | 0x20
                    guard folded == b[index] | 0x20, folded &- UInt8(ascii: "a") < 26 else { return false }
                }
                return true
            }
        }
    }
}
