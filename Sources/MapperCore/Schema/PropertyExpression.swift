// SPDX-License-Identifier: Apache-2.0

/// A property's `transform` or `computed` expression, compiled at registration (docs/rules.md, "Transform and
/// computed properties"). Variables: `self` and `input` (member slots, as in `CompiledRules`) and, for a transform,
/// `value`.
final class PropertyExpression: Sendable {
    let program: RuleProgram
    let isComputed: Bool
    /// For a transform on an array, set or dictionary: the element type, as each element is transformed alone.
    let element: CompiledValue?
    /// Per member slot of `program`: the property or input key it reads.
    let sources: [CompiledRules.Source]
    let usesWholeSelf: Bool
    let usesWholeInput: Bool

    /// The variables every property expression sees, in slot order (`value` is `dyn` here; the schema check types it).
    static let variables: [(name: String, type: RuleType)] = [("self", .map), ("input", .map), ("value", .dyn)]

    init?(_ source: String, isComputed: Bool, element: CompiledValue?, indexByName: [String: Int]) {
        guard let program = try? RuleProgram.compile(source, variables: Self.variables, memberVariables: [0, 1]) else {
            return nil
        }
        self.program = program
        self.isComputed = isComputed
        self.element = element
        (sources, _) = CompiledRules.sources(of: program, indexByName: indexByName)
        if case .some(.none) = program.fieldsUsed[0] { usesWholeSelf = true } else { usesWholeSelf = false }
        if case .some(.none) = program.fieldsUsed[1] { usesWholeInput = true } else { usesWholeInput = false }
    }

    /// The properties whose values the expression reads (all of them when it uses `self` whole).
    func readProperties(count: Int) -> Set<Int> {
        if usesWholeSelf { return Set(0..<count) }
        return Set(sources.compactMap { if case .property(let index) = $0 { index } else { nil } })
    }
}
