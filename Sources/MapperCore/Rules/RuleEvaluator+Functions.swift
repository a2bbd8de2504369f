// SPDX-License-Identifier: Apache-2.0

extension RuleEvaluator {
    /// A function call; `arguments` starts with the receiver for `x.f(…)`. Overloads are chosen by run-time type.
    mutating func apply(_ builtin: RuleBuiltin, _ arguments: [RuleValue]) throws(RuleFailure) -> RuleValue {
        let first = arguments[0]
        switch builtin {
        case .size:
            switch first {
            case .string(let s):
                try charge(s.utf8.count >> 6)
                return .int(Int64(s.unicodeScalars.count))
            case .bytes(let b): return .int(Int64(b.count))
            case .list(let l): return .int(Int64(l.count))
            case .map(let m): return .int(Int64(m.count))
            default: throw RuleFailure.noOverload("size", arguments)
            }
        case .int: return try RuleConversion.toInt(first)
        case .uint: return try RuleConversion.toUInt(first)
        case .double: return try RuleConversion.toDouble(first)
        case .bool: return try RuleConversion.toBool(first)
        case .string:
            let result = try RuleConversion.toString(first)
            if case .string(let s) = result { try allocate(s.utf8.count) }
            return result
        case .bytes:
            switch first {
            case .bytes: return first
            case .string(let s):
                try allocate(s.utf8.count)
                return .bytes(Array(s.utf8))
            default: throw RuleFailure.noOverload("bytes", arguments)
            }
        case .type: return .type(first.typeName)
        case .dyn: return first
        case .timestamp: return try RuleConversion.toTimestamp(first)
        case .duration: return try RuleConversion.toDuration(first)
        case .getFullYear, .getMonth, .getDayOfYear, .getDayOfMonth, .getDate, .getDayOfWeek,
            .getHours, .getMinutes, .getSeconds, .getMilliseconds:
            switch (first, arguments.count) {
            case (.timestamp(let nanos), 1): return .int(try RuleTime.field(builtin, of: nanos, zone: nil))
            case (.timestamp(let nanos), 2):
                guard case .string(let zone) = arguments[1] else {
                    throw RuleFailure.noOverload(builtin.rawValue, arguments)
                }
                return .int(try RuleTime.field(builtin, of: nanos, zone: zone))
            case (.duration(let nanos), 1)
            where ![.getFullYear, .getMonth, .getDayOfYear, .getDayOfMonth, .getDate, .getDayOfWeek].contains(builtin):
                return .int(RuleTime.field(builtin, ofDuration: nanos))
            default: throw RuleFailure.noOverload(builtin.rawValue, arguments)
            }
        case .matches:
            guard case .string(let text) = first, case .string(let source) = arguments[1] else {
                throw RuleFailure.noOverload("matches", arguments)
            }
            try charge(1 + (text.utf8.count + source.utf8.count) >> 6)
            do {
                return .bool(try Pattern(source).matches(text))
            } catch {
                throw RuleFailure("invalid pattern: \(error)")
            }
        case .join:
            guard case .list(let elements) = first else { throw RuleFailure.noOverload("join", arguments) }
            var separator = ""
            if arguments.count == 2 {
                guard case .string(let s) = arguments[1] else { throw RuleFailure.noOverload("join", arguments) }
                separator = s
            }
            var parts: [String] = []
            var length = 0
            for element in elements {
                guard case .string(let s) = element else {
                    throw RuleFailure("join: list element is \(element.typeName.rawValue), not string")
                }
                parts.append(s)
                length += s.utf8.count + separator.utf8.count
            }
            try allocate(length)
            return .string(parts.joined(separator: separator))
        default:
            return try applyStringFunction(builtin, arguments)
        }
    }
}
