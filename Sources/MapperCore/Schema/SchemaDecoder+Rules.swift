// SPDX-License-Identifier: Apache-2.0

extension SchemaDecoder {
    /// `rules`: an array of `{"rule": "<bool expression>", "message": "…", "path": "/pointer"?}` (docs/rules.md).
    /// The expressions are compiled later, with the whole set (`SchemaCompiler.checkExpressions`).
    mutating func decodeRules(_ value: JSONValue, at pointer: String) -> [RuleEntry]? {
        guard case .array(let items) = value else {
            problem(
                pointer, "rules must be an array of {\"rule\", \"message\", \"path\"} objects, not \(value.kindName)")
            return nil
        }
        var entries: [RuleEntry] = []
        for (i, item) in items.enumerated() {
            let at = JSONPointer.appending(pointer, i)
            guard case .object(let members) = item else {
                problem(at, "a rule must be an object with \"rule\" and \"message\", not \(item.kindName)")
                continue
            }
            var entry = RuleEntry(rule: "", message: "", path: "", pointer: at)
            var valid = true
            for member in members {
                let memberAt = JSONPointer.appending(at, member.key)
                switch (member.key, member.value) {
                case ("rule", .string(let text)) where !text.isEmpty: entry.rule = text
                case ("message", .string(let text)) where !text.isEmpty: entry.message = text
                case ("path", .string(let text)) where JSONPointer.isValid(text): entry.path = text
                case ("path", _):
                    problem(memberAt, "path must be a JSON Pointer such as \"/end\" (empty for the object itself)")
                    valid = false
                case ("rule", _), ("message", _):
                    problem(memberAt, "\(member.key) must be a non-empty string")
                    valid = false
                default:
                    problem(memberAt, "unknown rule member \"\(member.key)\"")
                    valid = false
                }
            }
            for required in ["rule", "message"] where item[required] == nil {
                problem(at, "a rule needs \"\(required)\"")
                valid = false
            }
            if valid { entries.append(entry) }
        }
        return entries
    }
}
