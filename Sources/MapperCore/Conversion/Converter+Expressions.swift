// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// Stage 5: the model's `rules` (docs/rules.md), after every property is converted and `validate` has run.
    /// `self` holds the converted values (read back from the bytes just written, only those the rules name),
    /// `input` the object as received; a rule that is false, not a bool, or fails adds `rule_failed` at its path.
    /// All rules of one object share one budget of `maxRuleSteps` steps.
    mutating func evaluateRules(of model: CompiledModel, _ object: ValueRef, objectStart: Int, holdsFrame: Int) {
        guard let compiled = model.rules else { return }
        var values = [RuleValue?](repeating: nil, count: model.properties.count)
        while let span = ruleSpans.last, span.object == objectStart {
            ruleSpans.removeLast()
            values[span.property] = selfValue(out.bytes(span.start..<span.end), as: model.properties[span.property].value)
        }
        var input: RuleMap?
        var budget = RuleBudget(steps: options.maxRuleSteps, size: options.maxRuleBytes)
        for rule in compiled.rules {
            var members: [RuleValue?] = []
            members.reserveCapacity(rule.sources.count)
            for source in rule.sources {
                switch source {
                case .property(let index): members.append(values[index])
                case .absent: members.append(nil)
                case .input(let key):
                    if input == nil { input = inputMap(object) }
                    members.append(input?[key])
                }
            }
            var variables: [RuleValue] = [.null, .null]
            if compiled.usesWholeSelf {
                var map = RuleMap()
                for (index, property) in model.properties.enumerated() {
                    if let value = values[index] { _ = map.insert(.string(property.name), value) }
                }
                variables[0] = .map(map)
            }
            if compiled.usesWholeInput {
                if input == nil { input = inputMap(object) }
                variables[1] = .map(input ?? RuleMap())
            }
            let message: String
            switch rule.program.evaluate(variables, members: members, budget: &budget) {
            case .success(.bool(true)): continue
            case .success(.bool(false)): message = rule.message
            case .success(let other): message = "rule yielded \(other.typeName.rawValue), not bool"
            case .failure(let failure): message = failure.message
            }
            diagnostics.record(path.render(documents) + rule.path, .ruleFailed, message, isError: true)
        }
    }

    /// The object as received (after `willTransform`), as a map from its keys.
    private func inputMap(_ object: ValueRef) -> RuleMap {
        let document = documents[object.document]
        var index = object.index
        let json = JSONValue(tokens: document.tokens, index: &index, bytes: document.bytes)
        if case .map(let map) = RuleJSON.value(json) { return map }
        return RuleMap()
    }

    /// A converted value as the rule language sees it (docs/rules.md, "Types"): by the property's type, read back
    /// from the canonical bytes written for it.
    func selfValue(_ bytes: UnsafeRawBufferPointer, as value: CompiledValue) -> RuleValue? {
        // Plain integers, the most common operands, are read without building a JSON tree.
        if case .integer(let range) = value.kind, let first = bytes.first, first == UInt8(ascii: "-") || first.isASCIIDigit {
            let text = String(decoding: bytes, as: UTF8.self)
            if range.lowerBound >= 0 { return UInt64(text).map { .uint($0) } }
            return Int64(text).map { .int($0) }
        }
        guard case .success(let json) = Result(catching: { () throws(JSONSyntaxError) in try JSONValue.parse(Array(bytes)) })
        else { return nil }
        switch (value.kind, json) {
        case (.float, .number(let text)), (.double, .number(let text)), (.number, .number(let text)),
             (.decimal, .number(let text)):
            return .double(Double(text) ?? .nan)
        case (.decimal, .string(let text)):
            return .double(Double(text) ?? .nan)
        case (.date, .string(let text)):
            return RuleTime.parseTimestamp(text).map { .timestamp($0) } ?? .string(text)
        case (.data, .string(let text)):
            return text.utf8.withContiguousStorageIfAvailable { Base64.decode(UnsafeRawBufferPointer($0)) }?.map { .bytes($0) }
                ?? .string(text)
        default:
            return RuleJSON.value(json)
        }
    }
}
