// SPDX-License-Identifier: Apache-2.0

/// A reader for protobuf text format, as much as the cel-spec conformance files use: `name: scalar`,
/// `name { … }` / `name: { … }`, `[type.url] { … }` (an `Any`'s payload), lists `[a, b]`, `,` / `;` separators,
/// `#` comments, and strings in either quote with C escapes (octal, `\x`, `\u`), adjacent strings joined.
/// Strings are kept as bytes, so `bytes_value` fields read exactly.
indirect enum TextProto {
    case scalar(String)
    case string([UInt8])
    case message([Field])

    struct Field {
        let name: String
        let value: TextProto
    }

    struct ParseError: Error, CustomStringConvertible {
        let offset: Int
        let message: String
        var description: String { "\(message) at byte \(offset)" }
    }

    /// Parses a whole file as the fields of one message.
    static func parse(_ bytes: [UInt8]) throws -> TextProto {
        var reader = Reader(bytes: bytes)
        let fields = try reader.fields(until: nil)
        return .message(fields)
    }

    // MARK: - Access

    var fields: [Field] {
        if case .message(let fields) = self { return fields }
        return []
    }

    /// The first field called `name`.
    subscript(name: String) -> TextProto? { fields.first { $0.name == name }?.value }

    /// Every field called `name`, in order.
    func all(_ name: String) -> [TextProto] { fields.filter { $0.name == name }.map(\.value) }

    var text: String? {
        switch self {
        case .string(let bytes): String(decoding: bytes, as: UTF8.self)
        case .scalar(let s): s
        case .message: nil
        }
    }

    var bytes: [UInt8]? {
        if case .string(let bytes) = self { return bytes }
        return nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count {
                let c = bytes[position]
                if c == UInt8(ascii: "#") {
                    while position < bytes.count, bytes[position] != 0x0A { position += 1 }
                } else if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                    position += 1
                } else {
                    return
                }
            }
        }

        func fail(_ message: String) -> ParseError { ParseError(offset: position, message: message) }

        mutating func fields(until closing: UInt8?) throws -> [Field] {
            var result: [Field] = []
            while true {
                skipSpace()
                if position == bytes.count {
                    if closing == nil { return result }
                    throw fail("unexpected end of file")
                }
                if let closing, bytes[position] == closing {
                    position += 1
                    return result
                }
                let name = try fieldName()
                skipSpace()
                var sawColon = false
                if position < bytes.count, bytes[position] == UInt8(ascii: ":") {
                    position += 1
                    sawColon = true
                    skipSpace()
                }
                if position < bytes.count, bytes[position] == UInt8(ascii: "[") && sawColon {
                    position += 1
                    while true {
                        skipSpace()
                        if bytes[position] == UInt8(ascii: "]") { position += 1; break }
                        result.append(Field(name: name, value: try value()))
                        skipSpace()
                        if bytes[position] == UInt8(ascii: ",") { position += 1 }
                    }
                } else {
                    result.append(Field(name: name, value: try value()))
                }
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: ",") || bytes[position] == UInt8(ascii: ";")
                {
                    position += 1
                }
            }
        }

        mutating func fieldName() throws -> String {
            if bytes[position] == UInt8(ascii: "[") {
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "]") { position += 1 }
                position += 1
                return String(decoding: bytes[start..<position], as: UTF8.self)
            }
            let start = position
            while position < bytes.count, bytes[position].isNameByte { position += 1 }
            guard position > start else { throw fail("expected a field name") }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func value() throws -> TextProto {
            let c = bytes[position]
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "<") {
                position += 1
                return .message(try fields(until: c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: ">")))
            }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                var joined: [UInt8] = []
                while position < bytes.count,
                    bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
                {
                    joined += try quoted()
                    skipSpace()
                }
                return .string(joined)
            }
            let start = position
            while position < bytes.count, bytes[position].isNameByte || "-+.".utf8.contains(bytes[position]) {
                position += 1
            }
            guard position > start else { throw fail("expected a value") }
            return .scalar(String(decoding: bytes[start..<position], as: UTF8.self))
        }

        mutating func quoted() throws -> [UInt8] {
            let quote = bytes[position]
            position += 1
            var out: [UInt8] = []
            while true {
                guard position < bytes.count else { throw fail("unterminated string") }
                let c = bytes[position]
                position += 1
                if c == quote { return out }
                guard c == UInt8(ascii: "\\") else { out.append(c); continue }
                let e = bytes[position]
                position += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "a"): out.append(0x07)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "v"): out.append(0x0B)
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(e - 0x30)
                    for _ in 0..<2 where position < bytes.count && (0x30...0x37).contains(bytes[position]) {
                        value = value * 8 + Int(bytes[position] - 0x30)
                        position += 1
                    }
                    out.append(UInt8(value & 0xFF))
                case UInt8(ascii: "x"):
                    var value = 0
                    for _ in 0..<2 {
                        guard position < bytes.count, let digit = bytes[position].hexDigit else { break }
                        value = value * 16 + digit
                        position += 1
                    }
                    out.append(UInt8(value))
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    var value = 0
                    for _ in 0..<(e == UInt8(ascii: "u") ? 4 : 8) {
                        guard let digit = bytes[position].hexDigit else { throw fail("bad \\u escape") }
                        value = value * 16 + digit
                        position += 1
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw fail("bad code point") }
                    out += Array(String(Character(scalar)).utf8)
                default: out.append(e)
                }
            }
        }
    }
}

extension UInt8 {
    fileprivate var isNameByte: Bool {
        (self >= 0x30 && self <= 0x39) || ((self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A) || self == UInt8(ascii: "_")
    }

    fileprivate var hexDigit: Int? {
        switch self {
        case 0x30...0x39: Int(self - 0x30)
        case 0x41...0x46: Int(self - 0x41 + 10)
        case 0x61...0x66: Int(self - 0x61 + 10)
        default: nil
        }
    }
}
