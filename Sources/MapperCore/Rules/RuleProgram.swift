// SPDX-License-Identifier: Apache-2.0

// Rules: YYModel's code hooks as safe expressions, in a subset of CEL (docs/rules.md).
//
//     "self.start <= self.end"  ──RuleLexer──▶ tokens ──RuleParser──▶ RuleSyntax (depth ≤ 128)
//                               ──RuleCompiler──▶ RuleNode (names → slots, functions → RuleBuiltin, types checked)
//                               ──RuleEvaluator──▶ RuleValue, within a RuleBudget of steps and bytes
//
// Compilation happens once, when a schema is registered (or for each `/rules/evaluate` request); evaluation is a
// walk of the immutable `RuleNode` tree, so a program may run concurrently on any number of threads.

/// What an evaluation may spend (docs/rules.md, "Cost model"): `steps` (one per operator, call, literal and
/// comprehension iteration, more for work in proportion to a string's length) and `size` (bytes of strings and
/// bytes, elements of lists and maps built). Shared by every expression evaluated for one object.
struct RuleBudget: Sendable {
    var steps: Int
    var size: Int
}

/// A compiled expression with its declared variables, ready to evaluate. A class, so that a conversion hands it to
/// the evaluator without copying (retaining) each of its fields.
final class RuleProgram: Sendable {
    let source: String
    let root: RuleNode
    /// The static type of the result (`dyn` when only known at run time).
    let type: RuleType
    let variableCount: Int
    let slotCount: Int
    /// For each variable (by declaration order) the fields the expression selects from it, or nil when it uses the
    /// variable whole; a variable the expression never names has no entry.
    let fieldsUsed: [Int: Set<String>?]
    /// The member slots the caller fills for `evaluate(_:members:budget:)`: variable and field, in slot order.
    let members: [(variable: Int, field: String)]
    /// When the whole program is one binary operator over a member slot and a constant (`self.id > 0u`, the commonest
    /// rule): the operator, the slot, the constant and whether the member is the left operand, so that evaluating it
    /// skips the walk of the tree (`evaluate(in:budget:)`). Nil for every other shape.
    private let fieldOperator: RuleBuiltin?
    private let fieldSlot: Int
    private let fieldConstant: RuleValue
    private let fieldIsLeft: Bool

    init(
        source: String, root: RuleNode, type: RuleType, variableCount: Int, slotCount: Int,
        fieldsUsed: [Int: Set<String>?], members: [(variable: Int, field: String)]
    ) {
        self.source = source
        self.root = root
        self.type = type
        self.variableCount = variableCount
        self.slotCount = slotCount
        self.fieldsUsed = fieldsUsed
        self.members = members
        switch root {
        case .binary(let builtin, .member(let slot, _), .constant(let constant)):
            (fieldOperator, fieldSlot, fieldConstant, fieldIsLeft) = (builtin, slot, constant, true)
        case .binary(let builtin, .constant(let constant), .member(let slot, _)):
            (fieldOperator, fieldSlot, fieldConstant, fieldIsLeft) = (builtin, slot, constant, false)
        default:
            (fieldOperator, fieldSlot, fieldConstant, fieldIsLeft) = (nil, 0, .null, false)
        }
    }

    /// Parses, resolves and type-checks `source` against the declared `variables` (name and static type, in slot
    /// order). Throws with the byte offset of the problem.
    static func compile(
        _ source: String, variables: [(name: String, type: RuleType)],
        checksTypes: Bool = true, memberVariables: Set<Int> = []
    ) throws(RuleSyntaxError) -> RuleProgram {
        let syntax = try RuleParser.parse(source)
        var compiler = RuleCompiler(variables: variables, checksTypes: checksTypes, memberVariables: memberVariables)
        let (root, type) = try compiler.compile(syntax)
        return RuleProgram(
            source: source, root: root, type: type, variableCount: variables.count,
            slotCount: compiler.slotCount, fieldsUsed: compiler.fieldsUsed,
            members: compiler.members)
    }

    /// Evaluates with `values` bound to the declared variables in order, spending from `budget`.
    func evaluate(
        _ values: [RuleValue], members: [RuleValue?] = [],
        budget: inout RuleBudget
    ) -> Result<RuleValue, RuleFailure> {
        var slots = values
        if slotCount > values.count { slots.append(contentsOf: repeatElement(.null, count: slotCount - values.count)) }
        var evaluator = RuleEvaluator(slots: slots, steps: budget.steps, sizeLeft: budget.size)
        evaluator.members = RuleMembers(members)
        return evaluate(in: &evaluator, budget: &budget)
    }

    /// Evaluates in `evaluator`, whose variable slots (at least `slotCount`) and member slots the caller has set;
    /// the evaluator is reused from one evaluation to the next, so that this allocates nothing itself.
    func evaluate(in evaluator: inout RuleEvaluator, budget: inout RuleBudget) -> Result<RuleValue, RuleFailure> {
        evaluator.steps = budget.steps
        evaluator.sizeLeft = budget.size
        defer {
            budget.steps = max(evaluator.steps, 0)
            budget.size = max(evaluator.sizeLeft, 0)
        }
        do {
            // The walk's own steps for such a program: the operator, the member and the constant (one each). An absent
            // member takes the walk, for its error.
            if let fieldOperator, let member = evaluator.members[fieldSlot] {
                try evaluator.charge(3)
                return .success(
                    try evaluator.applyBinary(
                        fieldOperator, fieldIsLeft ? member : fieldConstant,
                        fieldIsLeft ? fieldConstant : member))
            }
            return .success(try evaluator.evaluate(root))
        } catch {
            return .failure(error)
        }
    }

    /// Whether the expression uses the variable in slot `index` at all.
    func uses(_ index: Int) -> Bool { fieldsUsed[index] != nil }
}
