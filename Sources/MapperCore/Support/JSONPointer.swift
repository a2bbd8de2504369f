// SPDX-License-Identifier: Apache-2.0

/// RFC 6901 JSON Pointer helpers.
enum JSONPointer {
    /// Escapes one reference token: `~` → `~0`, `/` → `~1`.
    static func escape(_ token: [UInt8]) -> String {
        var out: [UInt8] = []
        token.withUnsafeBytes { appendEscaped($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends one reference token, escaped, to a pointer's bytes (`~` and `/` are ASCII, so UTF-8 passes as is).
    /// Runs without either byte, the usual case, are copied whole.
    static func appendEscaped(_ token: UnsafeRawBufferPointer, to out: inout some ByteSink) {
        guard token.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            out.append(bytes: token)  // the usual case: one copy
            return
        }
        var runStart = 0
        for (index, byte) in token.enumerated() where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") {
            out.append(bytes: UnsafeRawBufferPointer(rebasing: token[runStart..<index]))
            out.append(UInt8(ascii: "~"))
            out.append(byte == UInt8(ascii: "~") ? UInt8(ascii: "0") : UInt8(ascii: "1"))
            runStart = index + 1
        }
        out.append(bytes: UnsafeRawBufferPointer(rebasing: token[runStart...]))
    }

    static func escape(_ token: String) -> String { escape(Array(token.utf8)) }

    /// Whether `text` is RFC 6901 pointer syntax: empty, or `/`-separated tokens whose `~` is always `~0` or `~1`.
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else { return true }
        guard first == UInt8(ascii: "/") else { return false }
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "~") {
            guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "0") || bytes[i + 1] == UInt8(ascii: "1") else {
                return false
            }
        }
        return true
    }

    static func appending(_ prefix: String, _ token: String) -> String { prefix + "/" + escape(token) }
    static func appending(_ prefix: String, _ index: Int) -> String { prefix + "/" + String(index) }
}
