// SPDX-License-Identifier: Apache-2.0

extension SchemaCompiler {
    /// Compiles each of the model's own `rules` to report what does not compile: a syntax error, an unknown name or
    /// function, or a rule whose static type is not `bool` — at the pointer of its `rule` string, with the column.
    mutating func checkExpressions(_ model: ModelSchema) {
        for property in model.properties {
            for (member, source) in [("transform", property.transform), ("computed", property.computed)] {
                guard let source else { continue }
                var variables = PropertyExpression.variables
                if member == "computed" {
                    variables.removeLast()
                } else if case .container(_, let element?) = property.value.type {
                    variables[2].type = Self.ruleType(of: element.type)
                } else {
                    variables[2].type = Self.ruleType(of: property.value.type)
                }
                do {
                    _ = try RuleProgram.compile(source, variables: variables)
                } catch {
                    problem(
                        model, property.pointer + "/" + member, "\(error.message) at column \(error.column(in: source))"
                    )
                }
            }
        }
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

    /// The static type a value of this schema type has in an expression (docs/rules.md, "Types").
    static func ruleType(of type: TypeReference) -> RuleType {
        switch type {
        case .model: return .map
        case .container(let container, _): return container == .dictionary ? .map : .list
        case .builtin(let builtin):
            switch builtin {
            case .bool: return .bool
            case .int8, .int16, .int32, .int64: return .int
            case .uint8, .uint16, .uint32, .uint64: return .uint
            case .float, .double, .decimal, .number: return .double
            // A calendar date reads as its `YYYY-MM-DD` text, which orders as the dates do.
            case .string, .url, .uuid, .calendarDate: return .string
            case .data: return .bytes
            case .date: return .timestamp
            case .any, .array, .set, .dictionary: return .dyn
            }
        }
    }
}
