// SPDX-License-Identifier: Apache-2.0

extension SchemaCompiler {
    /// Compiles each of the model's own `rules` to report what does not compile: a syntax error, an unknown name or
    /// function, or a rule whose static type is not `bool` — at the pointer of its `rule` string, with the column.
    mutating func checkExpressions(_ model: ModelSchema) {
        guard case .set(let entries) = model.rules else { return }
        for entry in entries {
            let pointer = entry.pointer + "/rule"
            do {
                let program = try RuleProgram.compile(entry.rule, variables: CompiledRules.variables)
                if program.type != .bool && program.type != .dyn {
                    problem(model, pointer, "a rule must be a bool expression, not \(program.type.celName) (column 1)")
                }
            } catch {
                problem(model, pointer, "\(error.message) at column \(error.column(in: entry.rule))")
            }
        }
    }
}
