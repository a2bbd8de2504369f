// SPDX-License-Identifier: Apache-2.0

/// The type conversions `int()`, `uint()`, `double()`, `string()`, `bool()`, `bytes()`, `timestamp()` and
/// `duration()` (docs/rules.md, "Conversions"), with CEL's range checks: a conversion that cannot be exact in range
/// is an error, never a wrapped or clamped value.
enum RuleConversion {
    static func toInt(_ value: RuleValue) throws(RuleFailure) -> RuleValue {
        switch value {
        case .int: return value
        case .uint(let u):
            guard u <= UInt64(Int64.max) else { throw RuleFailure("range error converting \(u) to int") }
            return .int(Int64(u))
        case .double(let d):
            // Doubles in (-2^63 - 1, 2^63) truncate toward zero; everything else (NaN and infinities too) is out of range.
            guard d > -9_223_372_036_854_775_809.0 && d < 9_223_372_036_854_775_808.0 else {
                throw RuleFailure("range error converting \(text(of: value)) to int")
            }
            return .int(Int64(d.rounded(.towardZero)))
        case .string(let s):
            guard let i = Int64(s) else { throw RuleFailure("cannot convert '\(s)' to int") }
            return .int(i)
        case .timestamp(let nanos):
            return .int(Int64(RuleTime.floorDivide(nanos, RuleTime.nanosPerSecond).quotient))
        default: throw RuleFailure.noOverload("int", [value])
        }
    }

    static func toUInt(_ value: RuleValue) throws(RuleFailure) -> RuleValue {
        switch value {
        case .uint: return value
        case .int(let i):
            guard i >= 0 else { throw RuleFailure("range error converting \(i) to uint") }
            return .uint(UInt64(i))
        case .double(let d):
            guard d > -1.0 && d < 18_446_744_073_709_551_616.0 else {
                throw RuleFailure("range error converting \(text(of: value)) to uint")
            }
            return .uint(UInt64(d.rounded(.towardZero)))
        case .string(let s):
            guard let u = UInt64(s) else { throw RuleFailure("cannot convert '\(s)' to uint") }
            return .uint(u)
        default: throw RuleFailure.noOverload("uint", [value])
        }
    }

    static func toDouble(_ value: RuleValue) throws(RuleFailure) -> RuleValue {
        switch value {
        case .double: return value
        case .int(let i): return .double(Double(i))
        case .uint(let u): return .double(Double(u))
        case .string(let s):
            guard let d = Double(s) else { throw RuleFailure("cannot convert '\(s)' to double") }
            return .double(d)
        default: throw RuleFailure.noOverload("double", [value])
        }
    }

    static func toBool(_ value: RuleValue) throws(RuleFailure) -> RuleValue {
        switch value {
        case .bool: return value
        case .string(let s):
            switch s {
            case "1", "t", "true", "TRUE", "True": return .bool(true)
            case "0", "f", "false", "FALSE", "False": return .bool(false)
            default: throw RuleFailure("cannot convert '\(s)' to bool")
            }
        default: throw RuleFailure.noOverload("bool", [value])
        }
    }

    static func toString(_ value: RuleValue) throws(RuleFailure) -> RuleValue {
        switch value {
        case .string: return value
        case .int, .uint, .double, .bool, .timestamp, .duration: return .string(text(of: value))
        case .bytes(let b):
            guard let s = String(validating: b, as: UTF8.self) else {
                throw RuleFailure("invalid UTF-8 in bytes converted to string")
            }
            return .string(s)
        default: throw RuleFailure.noOverload("string", [value])
        }
    }

    /// CEL's `string(x)` of a scalar; also how map keys are written as JSON member names.
    static func text(of value: RuleValue) -> String {
        switch value {
        case .int(let i): return String(i)
        case .uint(let u): return String(u)
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return s
        case .double(let d):
            if d.isNaN { return "NaN" }
            if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
            var out: [UInt8] = []
            FloatFormatting.write(d, into: &out)
            return String(decoding: out, as: UTF8.self)
        case .timestamp(let nanos): return RuleTime.format(timestamp: nanos, trimmed: true)
        case .duration(let nanos): return RuleTime.format(duration: nanos)
        case .null: return "null"
        case .type(let name): return name.rawValue
        case .bytes(let b): return String(decoding: b, as: UTF8.self)
        case .list, .map: return value.typeName.rawValue
        }
    }

    static func toTimestamp(_ value: RuleValue) throws(RuleFailure) -> RuleValue {
        switch value {
        case .timestamp: return value
        case .string(let s):
            guard let nanos = RuleTime.parseTimestamp(s) else {
                throw RuleFailure("cannot parse '\(s)' as a timestamp")
            }
            return try RuleEvaluator.timestamp(nanos)
        case .int(let seconds): return try RuleEvaluator.timestamp(Int128(seconds) * RuleTime.nanosPerSecond)
        default: throw RuleFailure.noOverload("timestamp", [value])
        }
    }

    static func toDuration(_ value: RuleValue) throws(RuleFailure) -> RuleValue {
        switch value {
        case .duration: return value
        case .string(let s):
            guard let nanos = RuleTime.parseDuration(s) else { throw RuleFailure("cannot parse '\(s)' as a duration") }
            return try RuleEvaluator.duration(nanos)
        default: throw RuleFailure.noOverload("duration", [value])
        }
    }
}
