// SPDX-License-Identifier: Apache-2.0

/// The operators and functions of the language, resolved by name at compile time; the raw value is CEL's name.
/// `signatures` is what the compiler checks calls against (docs/rules.md, "Functions").
enum RuleBuiltin: String, Sendable, CaseIterable {
    case add = "_+_", subtract = "_-_", multiply = "_*_", divide = "_/_", remainder = "_%_"
    case negate = "-_", not = "!_"
    case equal = "_==_", notEqual = "_!=_", less = "_<_", lessOrEqual = "_<=_", greater = "_>_", greaterOrEqual = "_>=_"
    case `in` = "@in", index = "_[_]"
    case size, contains, startsWith, endsWith, matches
    case int, uint, double, string, bool, bytes, type, dyn, timestamp, duration
    case getFullYear, getMonth, getDayOfYear, getDayOfMonth, getDate, getDayOfWeek
    case getHours, getMinutes, getSeconds, getMilliseconds
    case lowerAscii, upperAscii, trim, split, join, replace, substring, indexOf, lastIndexOf, charAt

    /// How a function may be called: `f(x)`, `x.f()`, or both.
    enum Style { case global, receiver, both }

    struct Signature {
        let parameters: [RuleType]
        let result: RuleType
    }

    var style: Style {
        switch self {
        case .size, .matches: .both
        case .contains, .startsWith, .endsWith, .lowerAscii, .upperAscii, .trim, .split, .join, .replace, .substring,
            .indexOf, .lastIndexOf, .charAt, .getFullYear, .getMonth, .getDayOfYear, .getDayOfMonth, .getDate,
            .getDayOfWeek, .getHours, .getMinutes, .getSeconds, .getMilliseconds:
            .receiver
        default: .global
        }
    }

    var signatures: [Signature] {
        func s(_ parameters: RuleType..., to result: RuleType) -> Signature {
            Signature(parameters: parameters, result: result)
        }
        let numbers: [RuleType] = [.int, .uint, .double]
        let ordered: [Signature] =
            numbers.flatMap { a in numbers.map { s(a, $0, to: .bool) } }
            + [RuleType.string, .bytes, .bool, .timestamp, .duration].map { s($0, $0, to: .bool) }
        switch self {
        case .add:
            return [
                s(.int, .int, to: .int), s(.uint, .uint, to: .uint), s(.double, .double, to: .double),
                s(.string, .string, to: .string), s(.bytes, .bytes, to: .bytes), s(.list, .list, to: .list),
                s(.timestamp, .duration, to: .timestamp), s(.duration, .timestamp, to: .timestamp),
                s(.duration, .duration, to: .duration),
            ]
        case .subtract:
            return [
                s(.int, .int, to: .int), s(.uint, .uint, to: .uint), s(.double, .double, to: .double),
                s(.timestamp, .timestamp, to: .duration), s(.timestamp, .duration, to: .timestamp),
                s(.duration, .duration, to: .duration),
            ]
        case .multiply, .divide:
            return [s(.int, .int, to: .int), s(.uint, .uint, to: .uint), s(.double, .double, to: .double)]
        case .remainder: return [s(.int, .int, to: .int), s(.uint, .uint, to: .uint)]
        case .negate: return [s(.int, to: .int), s(.double, to: .double)]
        case .not: return [s(.bool, to: .bool)]
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return ordered
        case .equal, .notEqual, .in, .index: return []  // checked by the compiler itself
        case .size: return [s(.string, to: .int), s(.bytes, to: .int), s(.list, to: .int), s(.map, to: .int)]
        case .contains, .startsWith, .endsWith, .matches: return [s(.string, .string, to: .bool)]
        case .int: return [RuleType.int, .uint, .double, .string, .timestamp].map { s($0, to: .int) }
        case .uint: return [RuleType.int, .uint, .double, .string].map { s($0, to: .uint) }
        case .double: return [RuleType.int, .uint, .double, .string].map { s($0, to: .double) }
        case .string:
            return [RuleType.int, .uint, .double, .string, .bool, .bytes, .timestamp, .duration].map {
                s($0, to: .string)
            }
        case .bool: return [s(.bool, to: .bool), s(.string, to: .bool)]
        case .bytes: return [s(.bytes, to: .bytes), s(.string, to: .bytes)]
        case .type: return [s(.dyn, to: .type)]
        case .dyn: return [s(.dyn, to: .dyn)]
        case .timestamp: return [s(.string, to: .timestamp), s(.timestamp, to: .timestamp), s(.int, to: .timestamp)]
        case .duration: return [s(.string, to: .duration), s(.duration, to: .duration)]
        case .getFullYear, .getMonth, .getDayOfYear, .getDayOfMonth, .getDate, .getDayOfWeek:
            return [s(.timestamp, to: .int), s(.timestamp, .string, to: .int)]
        case .getHours, .getMinutes, .getSeconds, .getMilliseconds:
            return [s(.timestamp, to: .int), s(.timestamp, .string, to: .int), s(.duration, to: .int)]
        case .lowerAscii, .upperAscii, .trim: return [s(.string, to: .string)]
        case .split: return [s(.string, .string, to: .list), s(.string, .string, .int, to: .list)]
        case .join: return [s(.list, to: .string), s(.list, .string, to: .string)]
        case .replace:
            return [s(.string, .string, .string, to: .string), s(.string, .string, .string, .int, to: .string)]
        case .substring: return [s(.string, .int, to: .string), s(.string, .int, .int, to: .string)]
        case .indexOf, .lastIndexOf: return [s(.string, .string, to: .int), s(.string, .string, .int, to: .int)]
        case .charAt: return [s(.string, .int, to: .string)]
        }
    }

    static let byName: [String: RuleBuiltin] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
}
