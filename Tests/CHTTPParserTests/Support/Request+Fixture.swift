// SPDX-License-Identifier: Apache-2.0

/// Raw request heads for the parser tests.
enum Request {
    /// A request head: request line, `fields` one per line, the blank line, then `body`. Every part has a
    /// well-formed default; `lineEnding` replaces every CRLF.
    static func make(
        method: String = "GET",
        target: String = "/",
        version: String = "HTTP/1.1",
        fields: [String] = ["Host: example.com"],
        lineEnding: String = "\r\n",
        body: String = ""
    ) -> [UInt8] {
        var text = "\(method) \(target) \(version)\(lineEnding)"
        for field in fields {
            text += field + lineEnding
        }
        text += lineEnding + body
        return Array(text.utf8)
    }

    /// `text` as bytes, with `raw` bytes spliced in where `text` holds "\u{FFFD}" (for bytes that are not UTF-8).
    static func bytes(_ text: String, raw: UInt8 = 0x80) -> [UInt8] {
        var result: [UInt8] = []
        for scalar in text.unicodeScalars {
            if scalar == "\u{FFFD}" {
                result.append(raw)
            } else {
                result.append(contentsOf: String(scalar).utf8)
            }
        }
        return result
    }
}
