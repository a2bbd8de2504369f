// SPDX-License-Identifier: Apache-2.0

/// JSON ↔ rule values (docs/rules.md, "Values as JSON"). Reading: integral numbers (no fraction, no exponent) are
/// `int`, beyond int64 `uint` if they fit, else `double`; other numbers `double`; objects are maps with string keys.
/// Writing: `bytes` as base64, timestamps as RFC 3339 with `Z`, durations as `"1.5s"`, non-finite doubles as the
/// strings `"NaN"`, `"Infinity"`, `"-Infinity"`, map keys as `string(key)`.
enum RuleJSON {
    static func value(_ json: JSONValue) -> RuleValue {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let text): return number(text)
        case .array(let items): return .list(items.map(value))
        case .object(let members):
            var map = RuleMap()
            for (key, member) in members { _ = map.insert(.string(key), value(member)) }
            return .map(map)
        }
    }

    static func number(_ text: String) -> RuleValue {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
            if let i = Int64(text) { return .int(i) }
            if let u = UInt64(text) { return .uint(u) }
        }
        return .double(Double(text) ?? .nan)
    }

    /// Writes `value` as JSON; a map whose keys collide once written as text (`1` and `1u`) is a failure.
    static func write(_ value: RuleValue, into out: inout [UInt8]) throws(RuleFailure) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .uint(let u): out.append(contentsOf: String(u).utf8)
        case .double(let d):
            if d.isFinite {
                FloatFormatting.write(d, into: &out)
            } else {
                writeString(RuleConversion.text(of: value), into: &out)
            }
        case .string(let s): writeString(s, into: &out)
        case .bytes(let b):
            out.append(UInt8(ascii: "\""))
            Base64.encode(b, into: &out)
            out.append(UInt8(ascii: "\""))
        case .timestamp(let nanos): writeString(RuleTime.format(timestamp: nanos, trimmed: false), into: &out)
        case .duration(let nanos): writeString(RuleTime.format(duration: nanos), into: &out)
        case .type(let name): writeString(name.rawValue, into: &out)
        case .list(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .map(let map):
            out.append(UInt8(ascii: "{"))
            var seen = Set<String>()
            for (i, entry) in map.entries.enumerated() {
                let key = RuleConversion.text(of: entry.key)
                guard seen.insert(key).inserted else {
                    throw RuleFailure("map keys collide when written as JSON: \"\(key)\"")
                }
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                try write(entry.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        JSONStrings.writeQuoted(ArraySlice(s.utf8), into: &out)
    }
}
