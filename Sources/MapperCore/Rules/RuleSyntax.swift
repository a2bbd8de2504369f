// SPDX-License-Identifier: Apache-2.0

/// A parsed expression: CEL's abstract syntax, before names and functions are resolved. Each node knows its byte
/// offset (for error positions) and its depth, which the parser bounds so that nothing later recurses deeper than
/// `RuleParser.maxDepth`.
final class RuleSyntax: Sendable {
    indirect enum Kind: Sendable {
        case literal(RuleValue)
        case identifier(String)
        /// `operand.field`; `test` for the `has(operand.field)` macro.
        case select(RuleSyntax, String, test: Bool)
        /// `function(arguments)` or `target.function(arguments)`; operators are calls named `_+_`, `!_`, `_[_]`, ….
        case call(String, target: RuleSyntax?, [RuleSyntax])
        case list([RuleSyntax])
        case map([(RuleSyntax, RuleSyntax)])
        /// A macro: `range.kind(variables…, arguments…)`.
        case comprehension(RuleMacro, range: RuleSyntax, variables: [String], [RuleSyntax])
    }

    let kind: Kind
    let offset: Int
    let depth: Int

    init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
        var children: [RuleSyntax] = []
        switch kind {
        case .literal, .identifier: break
        case .select(let operand, _, _): children = [operand]
        case .call(_, let target, let arguments): children = (target.map { [$0] } ?? []) + arguments
        case .list(let elements): children = elements
        case .map(let entries): children = entries.flatMap { [$0.0, $0.1] }
        case .comprehension(_, let range, _, let arguments): children = [range] + arguments
        }
        depth = 1 + (children.map(\.depth).max() ?? 0)
    }
}

/// The macros: CEL's list macros and the two-variable forms of its comprehensions extension.
enum RuleMacro: String, Sendable {
    case all, exists
    case existsOne = "exists_one"
    case map, filter
    case transformList, transformMap
}
