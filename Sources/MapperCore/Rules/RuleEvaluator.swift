// SPDX-License-Identifier: Apache-2.0

/// Walks a compiled expression (docs/rules.md, "Cost model"). Every node evaluated costs one step of `steps`;
/// comprehension iterations and work proportional to a string's length cost more; every string, bytes or list
/// built takes its length from `sizeLeft`. Running out of either is a `RuleFailure`, never a hang or an unbounded
/// allocation. Recursion follows the expression's depth, which the parser bounds.
struct RuleEvaluator {
    var slots: [RuleValue]
    /// The member slots of `RuleNode.member` (see `RuleProgram.members`).
    var members = RuleMembers()
    var steps: Int
    var sizeLeft: Int

    init(slots: [RuleValue], steps: Int, sizeLeft: Int) {
        self.slots = slots
        self.steps = steps
        self.sizeLeft = sizeLeft
    }

    static let budgetMessage = "cost budget exceeded"
    static let sizeMessage = "size limit exceeded"

    /// Takes `count` steps from the budget.
    @inline(__always)
    mutating func charge(_ count: Int = 1) throws(RuleFailure) {
        steps -= count
        if steps < 0 { throw RuleFailure(RuleEvaluator.budgetMessage) }
    }

    /// Takes `count` bytes or elements from the size budget, and steps in proportion.
    mutating func allocate(_ count: Int) throws(RuleFailure) {
        sizeLeft -= count
        if sizeLeft < 0 { throw RuleFailure(RuleEvaluator.sizeMessage) }
        try charge(count >> 6)
    }

    mutating func evaluate(_ node: RuleNode) throws(RuleFailure) -> RuleValue {
        try charge()
        switch node {
        case .constant(let value):
            return value
        case .failure(let message):
            throw RuleFailure(message)
        case .variable(let slot):
            return slots[slot]
        case .member(let index, let field):
            guard let value = members[index] else { throw RuleFailure("no such key: \(field)") }
            return value
        case .memberTest(let index):
            return .bool(members[index] != nil)
        case .select(let operand, let field):
            let value = try evaluate(operand)
            guard case .map(let map) = value else {
                throw RuleFailure("no such field '\(field)' on \(value.typeName.rawValue)")
            }
            guard let found = map[field] else { throw RuleFailure("no such key: \(field)") }
            return found
        case .test(let operand, let field):
            let value = try evaluate(operand)
            guard case .map(let map) = value else {
                throw RuleFailure("has() needs a map, not \(value.typeName.rawValue)")
            }
            return .bool(map[field] != nil)
        case .and(let left, let right):
            return try logical(left, right, absorbing: false)
        case .or(let left, let right):
            return try logical(left, right, absorbing: true)
        case .conditional(let condition, let then, let otherwise):
            switch try evaluate(condition) {
            case .bool(true): return try evaluate(then)
            case .bool(false): return try evaluate(otherwise)
            case let other: throw RuleFailure.noOverload("_?_:_", [other])
            }
        case .unary(let builtin, let operand):
            return try applyUnary(builtin, try evaluate(operand))
        case .binary(let builtin, let left, let right):
            let a = try evaluate(left)
            return try applyBinary(builtin, a, try evaluate(right))
        case .call(let builtin, let arguments):
            var values: [RuleValue] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try evaluate(argument)) }
            return try apply(builtin, values)
        case .matches(let operand, let pattern):
            let value = try evaluate(operand)
            guard case .string(let text) = value else { throw RuleFailure.noOverload("matches", [value]) }
            try charge(text.utf8.count >> 6)
            return .bool(pattern.matches(text))
        case .list(let elements):
            try allocate(elements.count)
            var values: [RuleValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try evaluate(element)) }
            return .list(values)
        case .map(let entries):
            try allocate(entries.count)
            var map = RuleMap()
            for (keyNode, valueNode) in entries {
                let key = try evaluate(keyNode)
                let value = try evaluate(valueNode)
                guard map.insert(key, value) else {
                    if RuleMap.key(key) == nil || key.typeName == .double {
                        throw RuleFailure("unsupported key type: \(key.typeName.rawValue)")
                    }
                    throw RuleFailure("Failed with repeated key")
                }
            }
            return .map(map)
        case .comprehension(let macro, let range, let first, let second, let arguments):
            return try comprehension(macro, range: try evaluate(range), first: first, second: second, arguments)
        }
    }

    /// `&&` (`absorbing` false) and `||` (true), commutative over errors: `false && error` is `false`, and so is
    /// `error && false`; `true || error` is `true` either way round.
    private mutating func logical(_ left: RuleNode, _ right: RuleNode, absorbing: Bool) throws(RuleFailure) -> RuleValue
    {
        let name = absorbing ? "_||_" : "_&&_"
        var pending: RuleFailure?
        do {
            switch try evaluate(left) {
            case .bool(let b) where b == absorbing: return .bool(absorbing)
            case .bool: break
            case let other: pending = RuleFailure.noOverload(name, [other])
            }
        } catch {
            if error.message == RuleEvaluator.budgetMessage || error.message == RuleEvaluator.sizeMessage {
                throw error
            }
            pending = error
        }
        switch try evaluate(right) {
        case .bool(let b) where b == absorbing: return .bool(absorbing)
        case .bool(let b):
            if let pending { throw pending }
            return .bool(b)
        case let other:
            throw pending ?? RuleFailure.noOverload(name, [other])
        }
    }
}

/// The member slots of an evaluation (`RuleNode.member`): the first two held inline, so that binding a rule that
/// reads one or two fields, the common case, allocates nothing. A slot never set reads as absent.
struct RuleMembers {
    private var first: RuleValue?
    private var second: RuleValue?
    private var rest: [RuleValue?] = []

    init() {}

    init(_ values: [RuleValue?]) {
        for (index, value) in values.enumerated() { self[index] = value }
    }

    subscript(index: Int) -> RuleValue? {
        get {
            switch index {
            case 0: first
            case 1: second
            default: index - 2 < rest.count ? rest[index - 2] : nil
            }
        }
        set {
            switch index {
            case 0: first = newValue
            case 1: second = newValue
            default:
                if rest.count <= index - 2 {
                    rest.append(contentsOf: repeatElement(nil, count: index - 1 - rest.count))
                }
                rest[index - 2] = newValue
            }
        }
    }
}
