// SPDX-License-Identifier: Apache-2.0

/// A compiled expression: names resolved to variable slots, functions to `RuleBuiltin`s, constant patterns
/// compiled. This is what the evaluator walks; its depth is the syntax tree's, bounded by the parser.
indirect enum RuleNode: Sendable {
    case constant(RuleValue)
    /// An unknown name in an unchecked expression (cel-spec's `disable_check` cases only): an error when evaluated.
    case failure(String)
    case variable(Int)
    case select(RuleNode, String)
    /// `v.field` of a member variable: the caller's member slot (nil when absent), with the field for the error.
    case member(Int, String)
    /// `has(v.field)` of a member variable.
    case memberTest(Int)
    /// `has(operand.field)`.
    case test(RuleNode, String)
    case and(RuleNode, RuleNode)
    case or(RuleNode, RuleNode)
    case conditional(RuleNode, RuleNode, RuleNode)
    case unary(RuleBuiltin, RuleNode)
    case binary(RuleBuiltin, RuleNode, RuleNode)
    case call(RuleBuiltin, [RuleNode])
    /// `text.matches('constant')`, with the pattern compiled once.
    case matches(RuleNode, Pattern)
    case list([RuleNode])
    case map([(RuleNode, RuleNode)])
    /// A macro over `range`; `first` (and `second`) are the slots of its variables; `arguments` as the parser gave.
    case comprehension(RuleMacro, range: RuleNode, first: Int, second: Int?, [RuleNode])
}
