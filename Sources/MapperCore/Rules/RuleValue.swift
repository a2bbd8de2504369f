// SPDX-License-Identifier: Apache-2.0

/// A value of the rule language (docs/rules.md, "Types"): CEL's run-time values for the supported subset.
///
/// Timestamps and durations are whole nanoseconds in an `Int128` (since the Unix epoch, and signed), so their
/// arithmetic is plain integer arithmetic followed by one range check.
enum RuleValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case bytes([UInt8])
    case list([RuleValue])
    case map(RuleMap)
    case timestamp(Int128)
    case duration(Int128)
    case type(RuleTypeName)
}

/// The names of the run-time types, as `type(x)` yields them and `/rules/evaluate` reports them.
enum RuleTypeName: String, Sendable {
    case int, uint, double, bool, string, bytes, list, map, type
    case null = "null_type"
    case timestamp = "google.protobuf.Timestamp"
    case duration = "google.protobuf.Duration"
}

extension RuleValue {
    var typeName: RuleTypeName {
        switch self {
        case .null: .null
        case .bool: .bool
        case .int: .int
        case .uint: .uint
        case .double: .double
        case .string: .string
        case .bytes: .bytes
        case .list: .list
        case .map: .map
        case .timestamp: .timestamp
        case .duration: .duration
        case .type: .type
        }
    }

    /// CEL's heterogeneous equality: numbers compare by value across `int`, `uint` and `double`; lists and maps
    /// compare element by element; values of different types are unequal.
    func isEqual(to other: RuleValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        // code points, not canonical equivalence
        case let (.string(a), .string(b)): return a.utf8.elementsEqual(b.utf8)
        case let (.bytes(a), .bytes(b)): return a == b
        case let (.timestamp(a), .timestamp(b)), let (.duration(a), .duration(b)): return a == b
        case let (.type(a), .type(b)): return a == b
        case let (.list(a), .list(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEqual(to: $1) }
        case let (.map(a), .map(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a.entries {
                guard let found = b[key], found.isEqual(to: value) else { return false }
            }
            return true
        default:
            if let order = RuleValue.numericOrder(self, other) { return order == 0 }
            return false
        }
    }

    /// The order of two numbers of any numeric types (-1, 0, 1), or nil when either is not a number or is NaN.
    static func numericOrder(_ a: RuleValue, _ b: RuleValue) -> Int? {
        switch (a, b) {
        case let (.int(x), .int(y)): return x < y ? -1 : (x == y ? 0 : 1)
        case let (.uint(x), .uint(y)): return x < y ? -1 : (x == y ? 0 : 1)
        case let (.double(x), .double(y)):
            if x.isNaN || y.isNaN { return nil }
            return x < y ? -1 : (x == y ? 0 : 1)
        case let (.int(x), .uint(y)): return x < 0 ? -1 : compare(UInt64(x), y)
        case let (.uint(x), .int(y)): return y < 0 ? 1 : compare(x, UInt64(y))
        case let (.int(x), .double(y)): return compare(integer: Int128(x), y)
        case let (.uint(x), .double(y)): return compare(integer: Int128(x), y)
        case let (.double(x), .int(y)): return compare(integer: Int128(y), x).map { -$0 }
        case let (.double(x), .uint(y)): return compare(integer: Int128(y), x).map { -$0 }
        default: return nil
        }
    }

    private static func compare(_ x: UInt64, _ y: UInt64) -> Int { x < y ? -1 : (x == y ? 0 : 1) }

    /// Compares an integer with a double as CEL does: a double beyond the integer type's range orders by sign,
    /// otherwise the integer is converted to double (so 2^63 - 1 equals 2^63.0, as cel-spec's cases require).
    private static func compare(integer x: Int128, _ y: Double) -> Int? {
        if y.isNaN { return nil }
        if y < -0x1p63 { return 1 }
        if y > (x < 0 ? 0x1p63 : 0x1p64) { return -1 }
        let converted = x < 0 ? Double(Int64(x)) : Double(UInt64(x))
        return converted < y ? -1 : (converted == y ? 0 : 1)
    }
}

/// A map value: entries in insertion order plus a hash index by normalized key, so that `1`, `1u` and `1.0` find
/// the same entry (CEL's heterogeneous key equality).
struct RuleMap: Sendable {
    private(set) var entries: [(key: RuleValue, value: RuleValue)] = []
    private var index: [Key: Int] = [:]

    enum Key: Hashable, Sendable {
        case int(Int64)
        case bigUInt(UInt64)
        case bool(Bool)
        case string(String)
    }

    var count: Int { entries.count }

    /// The normalized key of a value usable as a map key, or nil for types that cannot be keys. A double finds an
    /// integral key of equal value.
    static func key(_ value: RuleValue) -> Key? {
        switch value {
        case .int(let i): return .int(i)
        case .uint(let u): return u <= UInt64(Int64.max) ? .int(Int64(u)) : .bigUInt(u)
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .double(let d):
            guard d.rounded(.towardZero) == d else { return nil }
            if let i = Int64(exactly: d) { return .int(i) }
            if let u = UInt64(exactly: d) { return .bigUInt(u) }
            return nil
        default: return nil
        }
    }

    subscript(key: RuleValue) -> RuleValue? {
        guard let normalized = RuleMap.key(key), let position = index[normalized] else { return nil }
        return entries[position].value
    }

    subscript(name: String) -> RuleValue? {
        guard let position = index[.string(name)] else { return nil }
        return entries[position].value
    }

    /// Adds an entry; false when the key is already present or is not a valid key type (int, uint, bool, string).
    mutating func insert(_ key: RuleValue, _ value: RuleValue) -> Bool {
        switch key {
        case .int, .uint, .bool, .string: break
        default: return false
        }
        guard let normalized = RuleMap.key(key), index[normalized] == nil else { return false }
        index[normalized] = entries.count
        entries.append((key, value))
        return true
    }
}
