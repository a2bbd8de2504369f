// SPDX-License-Identifier: Apache-2.0

/// Trying an expression (docs/rules.md, "Trying an expression"): one expression evaluated against JSON variables,
/// each of them `dyn`.
package enum RuleTrial {
    /// What a trial gives.
    package enum Outcome: Sendable {
        /// The value: `{"value": JSON, "type": "<CEL type>"}`.
        case value(body: [UInt8])
        /// The body is not JSON, not an object, or nested too deep (the conversions' own errors).
        case badBody(MappingError)
        /// The expression (or the request's members) cannot be compiled; `offset` is 0-based in bytes of the
        /// expression.
        case invalidRule(message: String, offset: Int)
        /// A run-time error, the budget included.
        case failed(message: String)
    }

    /// Evaluates `{"expression": "…", "variables": {"name": value, …}}` within `maxSteps` steps and `maxBytes` of
    /// built strings and lists; `maxDepth` bounds the body's nesting.
    package static func evaluate(_ body: UnsafeRawBufferPointer, maxSteps: Int, maxBytes: Int, maxDepth: Int) -> Outcome
    {
        let json: JSONValue
        do throws(JSONSyntaxError) {
            json = try JSONValue.parse(Array(body), maxDepth: maxDepth)
        } catch {
            let location = JSONErrorLocation(error, in: body)
            return .badBody(error.isNestingTooDeep ? .nestingTooDeep(location) : .invalidJSON(location))
        }
        guard case .object(let members) = json else {
            return .badBody(.notAnObject("the body must be an object, not \(json.kindName)"))
        }
        var expression: String?
        var variables: [(name: String, value: RuleValue)] = []
        for member in members {
            switch (member.key, member.value) {
            case ("expression", .string(let text)): expression = text
            case ("variables", .object(let bound)):
                for (name, value) in bound { variables.append((name, RuleJSON.value(value))) }
            case ("variables", .null): break
            case ("expression", _), ("variables", _):
                return .invalidRule(
                    message: "\(member.key) must be \(member.key == "expression" ? "a string" : "an object")", offset: 0
                )
            default:
                return .invalidRule(
                    message: "unknown member \"\(member.key)\"; expected expression and variables", offset: 0)
            }
        }
        guard let expression else { return .invalidRule(message: "the body needs an \"expression\" string", offset: 0) }
        let program: RuleProgram
        do {
            program = try RuleProgram.compile(expression, variables: variables.map { ($0.name, RuleType.dyn) })
        } catch {
            return .invalidRule(
                message: "\(error.message) at column \(error.column(in: expression))", offset: error.offset)
        }
        var budget = RuleBudget(steps: maxSteps, size: maxBytes)
        switch program.evaluate(variables.map(\.value), budget: &budget) {
        case .failure(let failure): return .failed(message: failure.message)
        case .success(let value):
            var out = Array(#"{"value":"#.utf8)
            do {
                try RuleJSON.write(value, into: &out)
            } catch {
                return .failed(message: error.message)
            }
            out += #","type":"#.utf8
            JSONStrings.writeQuoted(Array(value.typeName.rawValue.utf8), into: &out)
            out.append(UInt8(ascii: "}"))
            return .value(body: out)
        }
    }
}
