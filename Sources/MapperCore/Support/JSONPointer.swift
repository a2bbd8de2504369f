// SPDX-License-Identifier: Apache-2.0

/// RFC 6901 JSON Pointer helpers.
enum JSONPointer {
    /// Escapes one reference token: `~` → `~0`, `/` → `~1`.
    static func escape(_ token: [UInt8]) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(token.count)
        for scalar in String(decoding: token, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func escape(_ token: String) -> String { escape(Array(token.utf8)) }

    static func appending(_ prefix: String, _ token: String) -> String { prefix + "/" + escape(token) }
    static func appending(_ prefix: String, _ index: Int) -> String { prefix + "/" + String(index) }
}
