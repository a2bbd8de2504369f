// SPDX-License-Identifier: Apache-2.0

/// The entries of a `server.json`: one JSON object (RFC 8259) whose members are the settings, in file order.
///
///     {"listenPort": 9000, "accessLog": false}   →   [listenPort: .number("9000"), accessLog: .boolean(false)]
///
/// Numbers keep their text, so the setting decides what it accepts (`1e3` and `8080.5` are not whole numbers).
/// Nested arrays and objects are checked for syntax and kept only as their kind: no setting takes one, so they can
/// only appear in an error. A duplicate key, a top level other than one object, or trailing bytes are errors;
/// a leading UTF-8 byte order mark is skipped. Errors carry the 1-based line and byte column.
struct ConfigurationFile: Equatable {
    /// A member's value.
    enum Value: Equatable {
        case string(String)
        /// The number exactly as written.
        case number(String)
        case boolean(Bool)
        case null
        case array
        case object
    }

    /// One member of the top-level object.
    struct Entry: Equatable {
        var key: String
        var value: Value
    }

    /// The members in file order; keys are unique.
    var entries: [Entry]

    /// Parses `bytes`, naming `path` in every error.
    init(parsing bytes: [UInt8], path: String) throws(ConfigurationError) {
        var reader = Reader(bytes: bytes, path: path)
        entries = try reader.readDocument()
    }
}

extension ConfigurationFile.Value {
    /// How an error message shows the value: the JSON text of a scalar, "an array" or "an object".
    var rendered: String {
        switch self {
        case .string(let text): ConfigurationFile.quoted(text)
        case .number(let text): text
        case .boolean(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The JSON kind, for "…, not a string".
    var kindName: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .boolean: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension ConfigurationFile {
    /// `text` in double quotes with quotes, backslashes and control characters escaped, for error messages.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
