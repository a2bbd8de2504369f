// SPDX-License-Identifier: Apache-2.0

/// A model's `rules`, compiled at registration (docs/rules.md): each expression with its message and path, and
/// where each `self.x` / `input.x` it reads comes from, so that a conversion hands over only those values instead of
/// building the whole object as a map.
final class CompiledRules: Sendable {
    struct Rule: Sendable {
        let program: RuleProgram
        let message: String
        /// Relative to the object; empty for the object itself.
        let path: String
        /// Per member slot of `program`: the property (index) or input key it reads.
        let sources: [Source]
    }

    enum Source: Sendable {
        case property(Int)
        case input(String)
        /// `self.x` where the model has no property `x`: always absent.
        case absent
    }

    let rules: [Rule]
    /// Whether some rule uses `self` or `input` as a whole value (not only through `.field`).
    let usesWholeSelf: Bool
    let usesWholeInput: Bool
    /// Properties whose converted value some rule reads: the conversion notes where each is written.
    let readProperties: Set<Int>

    /// Where each member slot of `program` reads from, and the properties among them.
    static func sources(of program: RuleProgram, indexByName: [String: Int]) -> ([Source], Set<Int>) {
        var read = Set<Int>()
        let sources: [Source] = program.members.map { member in
            if member.variable == 1 { return .input(member.field) }
            guard let index = indexByName[member.field] else { return .absent }
            read.insert(index)
            return .property(index)
        }
        return (sources, read)
    }

    /// The variables every rule sees, in slot order.
    static let variables: [(name: String, type: RuleType)] = [("self", .map), ("input", .map)]

    /// Compiles `entries` against the model's effective property names; nil when there is none. Entries that do not
    /// compile are left out (the schema checks report them, and such a set is never published).
    init?(_ entries: [RuleEntry], propertyNames: [String]) {
        let indexByName = Dictionary(propertyNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var rules: [Rule] = []
        var wholeSelf = false
        var wholeInput = false
        var read = Set<Int>()
        for entry in entries {
            guard
                let program = try? RuleProgram.compile(entry.rule, variables: Self.variables, memberVariables: [0, 1])
            else { continue }
            if case .some(.none) = program.fieldsUsed[0] { wholeSelf = true }
            if case .some(.none) = program.fieldsUsed[1] { wholeInput = true }
            let (sources, properties) = Self.sources(of: program, indexByName: indexByName)
            read.formUnion(properties)
            rules.append(Rule(program: program, message: entry.message, path: entry.path, sources: sources))
        }
        guard !rules.isEmpty else { return nil }
        if wholeSelf { read = Set(propertyNames.indices) }
        self.rules = rules
        usesWholeSelf = wholeSelf
        usesWholeInput = wholeInput
        readProperties = read
    }
}
