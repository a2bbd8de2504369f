// SPDX-License-Identifier: Apache-2.0

extension RuleEvaluator {
    /// The macros. Over a list the variables are (element) or (index, element); over a map (key) or (key, value).
    /// `all` and `exists` are commutative over errors like `&&` and `||`; the others stop at the first error.
    mutating func comprehension(
        _ macro: RuleMacro, range: RuleValue, first: Int, second: Int?,
        _ arguments: [RuleNode]
    ) throws(RuleFailure) -> RuleValue {
        let count: Int
        switch range {
        case .list(let elements): count = elements.count
        case .map(let map): count = map.count
        default: throw RuleFailure.noOverload(macro.rawValue, [range])
        }
        let predicate: RuleNode? =
            switch macro {
            case .all, .exists, .existsOne, .filter: arguments[0]
            case .map, .transformList, .transformMap: arguments.count == 2 ? arguments[0] : nil
            }
        let transform = arguments.last!
        var pending: RuleFailure?
        var matched = 0
        var results: [RuleValue] = []
        var resultMap = RuleMap()
        for position in 0..<count {
            try charge()
            let key: RuleValue
            let element: RuleValue
            switch range {
            case .list(let elements):
                key = .int(Int64(position))
                element = elements[position]
            case .map(let map):
                key = map.entries[position].key
                element = map.entries[position].value
            default: return .null
            }
            if let second {
                slots[first] = key
                slots[second] = element
            } else {
                slots[first] = { if case .map = range { key } else { element } }()
            }
            switch macro {
            case .all, .exists:
                let wanted = macro == .exists
                do {
                    switch try evaluate(predicate!) {
                    case .bool(let b) where b == wanted: return .bool(wanted)
                    case .bool: break
                    case let other: pending = RuleFailure.noOverload(macro.rawValue, [other])
                    }
                } catch {
                    if error.message == RuleEvaluator.budgetMessage || error.message == RuleEvaluator.sizeMessage {
                        throw error
                    }
                    pending = error
                }
            case .existsOne:
                switch try evaluate(predicate!) {
                case .bool(true): matched += 1
                case .bool(false): break
                case let other: throw RuleFailure.noOverload(macro.rawValue, [other])
                }
            case .filter, .map, .transformList, .transformMap:
                if let predicate {
                    switch try evaluate(predicate) {
                    case .bool(true): break
                    case .bool(false): continue
                    case let other: throw RuleFailure.noOverload(macro.rawValue, [other])
                    }
                }
                let value = macro == .filter ? slots[first] : try evaluate(transform)
                try allocate(1)
                if macro == .transformMap {
                    guard resultMap.insert(key, value) else { throw RuleFailure("transformMap: repeated key") }
                } else {
                    results.append(value)
                }
            }
        }
        switch macro {
        case .all, .exists:
            if let pending { throw pending }
            return .bool(macro == .all)
        case .existsOne: return .bool(matched == 1)
        case .transformMap: return .map(resultMap)
        default: return .list(results)
        }
    }
}
