// SPDX-License-Identifier: Apache-2.0

extension RuleEvaluator {
    /// The valid range of timestamps (years 0001 to 9999) and durations (a signed 64-bit count of nanoseconds, about
    /// ±292 years, as cel-go and the conformance suite have it), in nanoseconds.
    static let minTimestamp: Int128 = -62_135_596_800 * 1_000_000_000
    static let maxTimestamp: Int128 = 253_402_300_799 * 1_000_000_000 + 999_999_999
    static let maxDuration = Int128(Int64.max)

    static func timestamp(_ nanos: Int128) throws(RuleFailure) -> RuleValue {
        guard nanos >= minTimestamp, nanos <= maxTimestamp else { throw RuleFailure("timestamp out of range") }
        return .timestamp(nanos)
    }

    static func duration(_ nanos: Int128) throws(RuleFailure) -> RuleValue {
        guard nanos >= Int128(Int64.min), nanos <= maxDuration else { throw RuleFailure("duration out of range") }
        return .duration(nanos)
    }

    mutating func applyUnary(_ builtin: RuleBuiltin, _ value: RuleValue) throws(RuleFailure) -> RuleValue {
        switch (builtin, value) {
        case (.not, .bool(let b)): return .bool(!b)
        case (.negate, .int(let i)):
            guard i != .min else { throw RuleFailure("integer overflow") }
            return .int(-i)
        case (.negate, .double(let d)): return .double(-d)
        case (.size, _): return try apply(.size, [value])
        default: throw RuleFailure.noOverload(builtin.rawValue, [value])
        }
    }

    mutating func applyBinary(_ builtin: RuleBuiltin, _ a: RuleValue, _ b: RuleValue) throws(RuleFailure) -> RuleValue {
        switch builtin {
        case .equal: return .bool(a.isEqual(to: b))
        case .notEqual: return .bool(!a.isEqual(to: b))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let order: Int
            // Two integers of one type, the commonest comparison, without the general cases' tuple of values.
            if case .int(let x) = a, case .int(let y) = b {
                order = x < y ? -1 : (x == y ? 0 : 1)
            } else if case .uint(let x) = a, case .uint(let y) = b {
                order = x < y ? -1 : (x == y ? 0 : 1)
            } else {
                order = try RuleEvaluator.order(a, b, builtin)
            }
            switch builtin {
            case .less: return .bool(order == -1)
            case .lessOrEqual: return .bool(order == -1 || order == 0)
            case .greater: return .bool(order == 1)
            default: return .bool(order == 1 || order == 0)
            }
        case .add: return try add(a, b)
        case .subtract: return try subtract(a, b)
        case .multiply, .divide, .remainder: return try RuleEvaluator.arithmetic(builtin, a, b)
        case .in: return try membership(a, b)
        case .index: return try index(a, b)
        default: return try apply(builtin, [a, b])
        }
    }

    /// The order of two values (-1, 0, 1), or 2 for "unordered" (a NaN operand, which makes every comparison false).
    private static func order(_ a: RuleValue, _ b: RuleValue, _ builtin: RuleBuiltin) throws(RuleFailure) -> Int {
        func compare<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
        switch (a, b) {
        case let (.string(x), .string(y)): return x == y ? 0 : (x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1)
        case let (.bytes(x), .bytes(y)): return x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
        case let (.bool(x), .bool(y)): return x == y ? 0 : (!x ? -1 : 1)
        case let (.timestamp(x), .timestamp(y)), let (.duration(x), .duration(y)): return compare(x, y)
        default:
            if let order = RuleValue.numericOrder(a, b) { return order }
            if a.typeName.isNumeric && b.typeName.isNumeric { return 2 }  // NaN
            throw RuleFailure.noOverload(builtin.rawValue, [a, b])
        }
    }

    private mutating func add(_ a: RuleValue, _ b: RuleValue) throws(RuleFailure) -> RuleValue {
        switch (a, b) {
        case let (.int(x), .int(y)):
            let (sum, overflow) = x.addingReportingOverflow(y)
            if overflow { throw RuleFailure("integer overflow") }
            return .int(sum)
        case let (.uint(x), .uint(y)):
            let (sum, overflow) = x.addingReportingOverflow(y)
            if overflow { throw RuleFailure("unsigned integer overflow") }
            return .uint(sum)
        case let (.double(x), .double(y)): return .double(x + y)
        case let (.string(x), .string(y)):
            try allocate(x.utf8.count + y.utf8.count)
            return .string(x + y)
        case let (.bytes(x), .bytes(y)):
            try allocate(x.count + y.count)
            return .bytes(x + y)
        case let (.list(x), .list(y)):
            try allocate(x.count + y.count)
            return .list(x + y)
        case let (.timestamp(t), .duration(d)), let (.duration(d), .timestamp(t)):
            return try RuleEvaluator.timestamp(t + d)
        case let (.duration(x), .duration(y)): return try RuleEvaluator.duration(x + y)
        default: throw RuleFailure.noOverload("_+_", [a, b])
        }
    }

    private func subtract(_ a: RuleValue, _ b: RuleValue) throws(RuleFailure) -> RuleValue {
        switch (a, b) {
        case let (.int(x), .int(y)):
            let (difference, overflow) = x.subtractingReportingOverflow(y)
            if overflow { throw RuleFailure("integer overflow") }
            return .int(difference)
        case let (.uint(x), .uint(y)):
            let (difference, overflow) = x.subtractingReportingOverflow(y)
            if overflow { throw RuleFailure("unsigned integer overflow") }
            return .uint(difference)
        case let (.double(x), .double(y)): return .double(x - y)
        case let (.timestamp(x), .timestamp(y)): return try RuleEvaluator.duration(x - y)
        case let (.timestamp(t), .duration(d)): return try RuleEvaluator.timestamp(t - d)
        case let (.duration(x), .duration(y)): return try RuleEvaluator.duration(x - y)
        default: throw RuleFailure.noOverload("_-_", [a, b])
        }
    }

    private static func arithmetic(_ builtin: RuleBuiltin, _ a: RuleValue, _ b: RuleValue) throws(RuleFailure)
        -> RuleValue
    {
        switch (a, b) {
        case let (.int(x), .int(y)):
            switch builtin {
            case .multiply:
                let (product, overflow) = x.multipliedReportingOverflow(by: y)
                if overflow { throw RuleFailure("integer overflow") }
                return .int(product)
            case .divide:
                if y == 0 { throw RuleFailure("division by zero") }
                if x == .min && y == -1 { throw RuleFailure("integer overflow") }
                return .int(x / y)
            default:
                if y == 0 { throw RuleFailure("modulus by zero") }
                if x == .min && y == -1 { throw RuleFailure("integer overflow") }
                return .int(x % y)
            }
        case let (.uint(x), .uint(y)):
            switch builtin {
            case .multiply:
                let (product, overflow) = x.multipliedReportingOverflow(by: y)
                if overflow { throw RuleFailure("unsigned integer overflow") }
                return .uint(product)
            case .divide:
                if y == 0 { throw RuleFailure("division by zero") }
                return .uint(x / y)
            default:
                if y == 0 { throw RuleFailure("modulus by zero") }
                return .uint(x % y)
            }
        case let (.double(x), .double(y)) where builtin != .remainder:
            return .double(builtin == .multiply ? x * y : x / y)
        default:
            throw RuleFailure.noOverload(builtin.rawValue, [a, b])
        }
    }

    private mutating func membership(_ element: RuleValue, _ container: RuleValue) throws(RuleFailure) -> RuleValue {
        switch container {
        case .list(let elements):
            try charge(elements.count >> 4)
            return .bool(elements.contains { $0.isEqual(to: element) })
        case .map(let map):
            return .bool(map[element] != nil)
        default:
            throw RuleFailure.noOverload("@in", [element, container])
        }
    }

    private func index(_ container: RuleValue, _ key: RuleValue) throws(RuleFailure) -> RuleValue {
        switch container {
        case .list(let elements):
            let position: Int64
            switch key {
            case .int(let i): position = i
            case .uint(let u): position = u > UInt64(Int64.max) ? -1 : Int64(u)
            case .double(let d):
                guard let i = Int64(exactly: d) else { throw RuleFailure("unsupported index value \(d)") }
                position = i
            default: throw RuleFailure.noOverload("_[_]", [container, key])
            }
            guard position >= 0, position < elements.count else {
                throw RuleFailure("index out of bounds: \(position)")
            }
            return elements[Int(position)]
        case .map(let map):
            switch key {
            case .int, .uint, .double, .bool, .string: break
            default: throw RuleFailure("unsupported key type: \(key.typeName.rawValue)")
            }
            guard let found = map[key] else { throw RuleFailure("no such key: \(RuleConversion.text(of: key))") }
            return found
        default:
            throw RuleFailure.noOverload("_[_]", [container, key])
        }
    }
}

extension RuleTypeName {
    var isNumeric: Bool { self == .int || self == .uint || self == .double }
}
