// SPDX-License-Identifier: Apache-2.0

extension ConfigurationFile {
    /// A strict RFC 8259 reader for the one small object of `server.json`. Recursion only happens inside nested
    /// containers (which are always an error later) and is bounded by `maximumDepth`.
    struct Reader {
        static let maximumDepth = 32

        let bytes: [UInt8]
        let path: String
        var offset = 0

        init(bytes: [UInt8], path: String) {
            self.bytes = bytes
            self.path = path
        }

        mutating func readDocument() throws(ConfigurationError) -> [Entry] {
            if bytes.starts(with: Self.byteOrderMark) { offset = Self.byteOrderMark.count }
            skipWhitespace()
            guard peek() == UInt8(ascii: "{") else { throw failure("the file must hold one JSON object") }
            offset += 1
            var entries: [Entry] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                offset += 1
            } else {
                while true {
                    skipWhitespace()
                    let keyOffset = offset
                    guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes") }
                    let key = try readString()
                    if entries.contains(where: { $0.key == key }) {
                        offset = keyOffset
                        throw failure("the key \"\(key)\" appears more than once")
                    }
                    try expect(UInt8(ascii: ":"), "expected ':' after the key")
                    entries.append(Entry(key: key, value: try readValue(depth: 1)))
                    skipWhitespace()
                    if peek() == UInt8(ascii: ",") { offset += 1; continue }
                    try expect(UInt8(ascii: "}"), "expected ',' or '}'")
                    break
                }
            }
            skipWhitespace()
            guard offset == bytes.count else { throw failure("unexpected bytes after the object") }
            return entries
        }

        // MARK: - Values

        private mutating func readValue(depth: Int) throws(ConfigurationError) -> Value {
            skipWhitespace()
            guard let byte = peek() else { throw failure("expected a value") }
            switch byte {
            case UInt8(ascii: "\""): return .string(try readString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
            case UInt8(ascii: "t"): try readLiteral("true"); return .boolean(true)
            case UInt8(ascii: "f"): try readLiteral("false"); return .boolean(false)
            case UInt8(ascii: "n"): try readLiteral("null"); return .null
            case UInt8(ascii: "["), UInt8(ascii: "{"): return try skipContainer(depth: depth)
            default: throw failure("expected a value")
            }
        }

        /// Checks an array or object for syntax and returns its kind.
        private mutating func skipContainer(depth: Int) throws(ConfigurationError) -> Value {
            guard depth < Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) deep") }
            let isObject = bytes[offset] == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            offset += 1
            skipWhitespace()
            if peek() == close { offset += 1; return isObject ? .object : .array }
            while true {
                if isObject {
                    skipWhitespace()
                    guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes") }
                    _ = try readString()
                    try expect(UInt8(ascii: ":"), "expected ':' after the key")
                }
                _ = try readValue(depth: depth + 1)
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { offset += 1; continue }
                try expect(close, isObject ? "expected ',' or '}'" : "expected ',' or ']'")
                return isObject ? .object : .array
            }
        }

        private mutating func readLiteral(_ word: String) throws(ConfigurationError) {
            for byte in word.utf8 {
                guard peek() == byte else { throw failure("expected \(word)") }
                offset += 1
            }
        }

        /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as written.
        private mutating func readNumber() throws(ConfigurationError) -> String {
            let start = offset
            if peek() == UInt8(ascii: "-") { offset += 1 }
            if peek() == UInt8(ascii: "0") {
                offset += 1
                if isDigit(peek()) { throw failure("a number must not start with 0") }
            } else {
                try readDigits()
            }
            if peek() == UInt8(ascii: ".") {
                offset += 1
                try readDigits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                offset += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
                try readDigits()
            }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }

        private mutating func readDigits() throws(ConfigurationError) {
            guard isDigit(peek()) else { throw failure("expected a digit") }
            while isDigit(peek()) { offset += 1 }
        }

        // MARK: - Strings

        /// A string starting at the opening quote; escapes decoded, UTF-8 checked.
        private mutating func readString() throws(ConfigurationError) -> String {
            let start = offset
            offset += 1
            var utf8: [UInt8] = []
            while true {
                guard let byte = peek() else { throw failure("the string has no closing quote") }
                switch byte {
                case UInt8(ascii: "\""):
                    offset += 1
                    guard let text = String(validating: utf8, as: UTF8.self) else {
                        offset = start
                        throw failure("the string is not valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    offset += 1
                    try readEscape(into: &utf8)
                case ..<0x20:
                    throw failure("a control character must be escaped inside a string")
                default:
                    utf8.append(byte)
                    offset += 1
                }
            }
        }

        /// The escape after a backslash (RFC 8259 §7), appended as UTF-8.
        private mutating func readEscape(into utf8: inout [UInt8]) throws(ConfigurationError) {
            guard let letter = peek() else { throw failure("the string has no closing quote") }
            offset += 1
            let simple: UInt8? =
                switch letter {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
                case UInt8(ascii: "b"): 0x08
                case UInt8(ascii: "f"): 0x0C
                case UInt8(ascii: "n"): UInt8(ascii: "\n")
                case UInt8(ascii: "r"): UInt8(ascii: "\r")
                case UInt8(ascii: "t"): UInt8(ascii: "\t")
                default: nil
                }
            if let simple {
                utf8.append(simple)
                return
            }
            guard letter == UInt8(ascii: "u") else {
                offset -= 1
                throw failure("unknown escape '\\\(Character(Unicode.Scalar(letter)))'")
            }
            var code = UInt32(try readHex4())
            if (0xD800...0xDBFF).contains(code) {
                let unpaired = "a high surrogate must be followed by a low one"
                guard peek() == UInt8(ascii: "\\") else { throw failure(unpaired) }
                offset += 1
                guard peek() == UInt8(ascii: "u") else { throw failure(unpaired) }
                offset += 1
                let low = UInt32(try readHex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw failure(unpaired) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw failure("a lone low surrogate") }
            utf8.append(contentsOf: Array(String(scalar).utf8))
        }

        private mutating func readHex4() throws(ConfigurationError) -> UInt16 {
            var value: UInt16 = 0
            for _ in 0..<4 {
                guard let byte = peek(), let digit = hexValue(byte) else { throw failure("expected four hex digits") }
                value = value << 4 | UInt16(digit)
                offset += 1
            }
            return value
        }

        // MARK: - Bytes

        private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

        private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

        private func isDigit(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }

        private func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }

        /// RFC 8259 §2: whitespace is SP, HTAB, LF and CR.
        private mutating func skipWhitespace() {
            while let byte = peek(),
                byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                    || byte == UInt8(ascii: "\r")
            {
                offset += 1
            }
        }

        private mutating func expect(_ byte: UInt8, _ reason: String) throws(ConfigurationError) {
            skipWhitespace()
            guard peek() == byte else { throw failure(reason) }
            offset += 1
        }

        /// The error at the current offset, with its 1-based line (split at LF) and byte column.
        private func failure(_ reason: String) -> ConfigurationError {
            let end = min(offset, bytes.count)
            var line = 1
            var lineStart = 0
            for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            let found = peek() == nil ? "the end of the file" : nil
            return .malformedFile(
                path: path, line: line, column: end - lineStart + 1,
                reason: found.map { "\(reason), found \($0)" } ?? reason)
        }
    }
}
