// SPDX-License-Identifier: Apache-2.0

/// A JSON document as a tree of Swift values.
///
/// Used only off the hot path — schema documents, constants inside schemas (defaults, predicate operands,
/// `transformToJSON.set` values) — where a tree is the clearest shape. Conversions never build one: they read the
/// flat `JSONTape` directly.
///
/// Numbers keep their source text (`number("1.50")`), objects keep their member order and any duplicate keys, so a
/// schema document can be written back byte for byte in canonical form.
indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}

extension JSONValue {
    /// Parses one JSON document.
    static func parse(_ bytes: [UInt8], maxDepth: Int = 1024) throws(JSONSyntaxError) -> JSONValue {
        let tape = try JSONTape.scanning(bytes, maxDepth: maxDepth).get()
        return bytes.withUnsafeBytes { raw in
            tape.tokens.withUnsafeBufferPointer { tokens in
                var index = 0
                return JSONValue(tokens: tokens, index: &index, bytes: raw)
            }
        }
    }

    /// Builds the value starting at `index` and advances `index` past it. Recursion depth is bounded by the
    /// scanner's nesting limit.
    init(tokens: UnsafeBufferPointer<JSONToken>, index: inout Int, bytes: UnsafeRawBufferPointer) {
        let token = tokens[index]
        index += 1
        switch token.kind {
        case .null: self = .null
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .number: self = .number(String(decoding: bytes[token.start..<token.end], as: UTF8.self))
        case .string: self = .string(JSONValue.decodeString(token, bytes))
        case .array:
            var items: [JSONValue] = []
            items.reserveCapacity(token.count)
            for _ in 0..<token.count { items.append(JSONValue(tokens: tokens, index: &index, bytes: bytes)) }
            self = .array(items)
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(token.count)
            for _ in 0..<token.count {
                let key = JSONValue.decodeString(tokens[index], bytes)
                index += 1
                members.append((key, JSONValue(tokens: tokens, index: &index, bytes: bytes)))
            }
            self = .object(members)
        }
    }

    private static func decodeString(_ token: JSONToken, _ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: JSONStrings.decoded(token, in: bytes), as: UTF8.self)
    }

    /// Appends the canonical compact bytes (docs/semantics.md, "Bytes"): member order and number text kept.
    func write(into out: inout some ByteSink) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out.append(.openBracket)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(.comma) }
                item.write(into: &out)
            }
            out.append(.closeBracket)
        case .object(let members):
            out.append(.openBrace)
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(.comma) }
                JSONValue.writeString(member.key, into: &out)
                out.append(.colon)
                member.value.write(into: &out)
            }
            out.append(.closeBrace)
        }
    }

    var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    static func writeString(_ s: String, into out: inout some ByteSink) {
        s.withUTF8Bytes { JSONStrings.writeQuoted(UnsafeRawBufferPointer($0), into: &out) }
    }

    /// The member named `key` (the last one when the key repeats, as in conversion).
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
