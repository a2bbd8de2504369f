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

/// A compiled expression with its declared variables, ready to evaluate.
struct RuleProgram: Sendable {
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

    /// Parses, resolves and type-checks `source` against the declared `variables` (name and static type, in slot
    /// order). Throws with the byte offset of the problem.
    static func compile(_ source: String, variables: [(name: String, type: RuleType)],
                        checksTypes: Bool = true, memberVariables: Set<Int> = []) throws(RuleSyntaxError) -> RuleProgram {
        let syntax = try RuleParser.parse(source)
        var compiler = RuleCompiler(variables: variables, checksTypes: checksTypes, memberVariables: memberVariables)
        let (root, type) = try compiler.compile(syntax)
        return RuleProgram(source: source, root: root, type: type, variableCount: variables.count,
                           slotCount: compiler.slotCount, fieldsUsed: compiler.fieldsUsed,
                           members: compiler.members)
    }

    /// Evaluates with `values` bound to the declared variables in order, spending from `budget`.
    func evaluate(_ values: [RuleValue], members: [RuleValue?] = [],
                  budget: inout RuleBudget) -> Result<RuleValue, RuleFailure> {
        var slots = values
        if slotCount > values.count { slots.append(contentsOf: repeatElement(.null, count: slotCount - values.count)) }
        var evaluator = RuleEvaluator(slots: slots, steps: budget.steps, sizeLeft: budget.size)
        evaluator.members = members
        return evaluate(in: &evaluator, budget: &budget)
    }

    /// Evaluates in `evaluator`, whose variable slots (at least `slotCount`) and member slots the caller has set;
    /// the evaluator's arrays are reused from one evaluation to the next, so that this allocates nothing itself.
    func evaluate(in evaluator: inout RuleEvaluator, budget: inout RuleBudget) -> Result<RuleValue, RuleFailure> {
        evaluator.steps = budget.steps
        evaluator.sizeLeft = budget.size
        defer {
            budget.steps = max(evaluator.steps, 0)
            budget.size = max(evaluator.sizeLeft, 0)
        }
        do {
            return .success(try evaluator.evaluate(root))
        } catch {
            return .failure(error)
        }
    }

    /// Whether the expression uses the variable in slot `index` at all.
    func uses(_ index: Int) -> Bool { fieldsUsed[index] != nil }
}
