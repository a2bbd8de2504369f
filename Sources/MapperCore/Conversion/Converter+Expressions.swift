// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// Stage 5: the model's `rules` (docs/rules.md), after every property is converted and `validate` has run.
    /// `self` holds the converted values (read back from the bytes just written, only those the expressions name),
    /// `input` the object as received; a rule that is false, not a bool, or fails adds `rule_failed` at its path.
    /// The rules share the object's budget with its transforms and computed properties.
    mutating func evaluateRules(of model: CompiledModel, _ object: ValueRef, _ expressions: ExpressionState) {
        guard model.rules != nil else { return }
        var input: RuleMap?
        var budget = expressions.budget ?? RuleBudget(steps: options.maxRuleSteps, size: options.maxRuleBytes)
        var evaluator = RuleEvaluator(slots: [], steps: 0, sizeLeft: 0)  // shared by the object's rules
        // Borrowed, through a buffer pointer: a copy of the rules, a rule or its program costs a retain and a release
        // of each of its fields.
        Unmanaged.passUnretained(model.rules!).borrowed { compiled in
            compiled.rules.withUnsafeBufferPointer { rules in
                for rule in rules.indices {
                    bind(
                        rules[rule].sources, wholeSelf: compiled.usesWholeSelf, wholeInput: compiled.usesWholeInput,
                        slotCount: rules[rule].program.slotCount, model, expressions.spanFrame, object, &input,
                        into: &evaluator)
                    let result = Unmanaged.passUnretained(rules[rule].program).borrowed {
                        $0.evaluate(in: &evaluator, budget: &budget)
                    }
                    if case .success(.bool(true)) = result { continue }
                    reportRule(rules[rule], result)
                }
            }
        }
    }

    /// `rule_failed` for a rule that did not yield true.
    @inline(never)
    private mutating func reportRule(_ rule: CompiledRules.Rule, _ result: Result<RuleValue, RuleFailure>) {
        let message: String
        switch result {
        case .success(.bool(true)): return
        case .success(.bool(false)): message = rule.message
        case .success(let other): message = "rule yielded \(other.typeName.rawValue), not bool"
        case .failure(let failure): message = failure.message
        }
        diagnostics.record(path.render(documents) + rule.path, .ruleFailed, message, isError: true)
    }

    /// Notes a computed property's place for `insertComputed`; false for a property that is read.
    @inline(never)
    mutating func deferComputed(
        _ property: CompiledProperty, _ index: Int, of model: CompiledModel,
        _ expressions: inout ExpressionState
    ) -> Bool {
        guard property.expression?.isComputed == true else { return false }
        slots[expressions.spanFrame + 3 * model.spanIndex[index] + 2] = out.count
        expressions.hasComputed = true
        return true
    }

    /// After a read property's value is written (from `valueStart` on): its `transform`, then a note of where the
    /// value is (`noteSpan`) when an expression reads it.
    @inline(never)
    mutating func finishValue(
        _ property: CompiledProperty, _ index: Int, of model: CompiledModel,
        _ object: ValueRef, valueStart: Int, holdsFrame: Int,
        _ expressions: inout ExpressionState
    ) {
        if property.expression != nil, holds[holdsFrame + index] {
            applyTransform(
                property, index, of: model, object, valueStart: valueStart,
                holdsFrame: holdsFrame, &expressions)
        }
        if model.readByRules[index], holds[holdsFrame + index] {
            noteSpan(index, of: model, valueStart, out.count, expressions.spanFrame)
        }
    }

    /// Notes where property `index`'s converted value was written (`ExpressionState.spanFrame`).
    @inline(__always)
    func noteSpan(_ index: Int, of model: CompiledModel, _ start: Int, _ end: Int, _ spanFrame: Int) {
        slots[spanFrame + 3 * model.spanIndex[index]] = start
        slots[spanFrame + 3 * model.spanIndex[index] + 1] = end
    }

    /// `transform` on the value just written at `valueStart` (the property holds one): the expression's result,
    /// written as JSON, is read again as the property's input, at the same path, with the usual warnings and the
    /// constraints. On arrays, sets and dictionaries it applies per element. A failure is `rule_failed`, and the
    /// property then has no value.
    mutating func applyTransform(
        _ property: CompiledProperty, _ index: Int, of model: CompiledModel, _ object: ValueRef,
        valueStart: Int, holdsFrame: Int, _ expressions: inout ExpressionState
    ) {
        let expression = property.expression!
        var budget = expressions.budget ?? RuleBudget(steps: options.maxRuleSteps, size: options.maxRuleBytes)
        defer { expressions.budget = budget }
        let written = out.written(from: valueStart)
        var input: RuleMap?
        var evaluator = RuleEvaluator(slots: [], steps: 0, sizeLeft: 0)
        bind(
            expression.sources, wholeSelf: expression.usesWholeSelf, wholeInput: expression.usesWholeInput,
            slotCount: expression.program.slotCount, model, expressions.spanFrame, object, &input, into: &evaluator)
        func run(_ value: RuleValue) -> Result<RuleValue, RuleFailure> {
            evaluator.slots[2] = value
            return expression.program.evaluate(in: &evaluator, budget: &budget)
        }
        var result: Result<RuleValue, RuleFailure>
        if let element = expression.element, let json = try? JSONValue.parse(written, maxDepth: options.maxDepth) {
            switch json {
            case .array(let items):
                var list: [RuleValue] = []
                result = .success(.null)
                for item in items {
                    switch run(Self.ruleValue(item, as: element)) {
                    case .success(let value): list.append(value)
                    case .failure(let failure): result = .failure(failure)
                    }
                    if case .failure = result { break }
                }
                if case .success = result { result = .success(.list(list)) }
            case .object(let entries):
                var map = RuleMap()
                result = .success(.null)
                for (key, item) in entries {
                    switch run(Self.ruleValue(item, as: element)) {
                    case .success(let value): _ = map.insert(.string(key), value)
                    case .failure(let failure): result = .failure(failure)
                    }
                    if case .failure = result { break }
                }
                if case .success = result { result = .success(.map(map)) }
            default:
                result = run(selfValue(written.withUnsafeBytes { $0 }, as: property.readValue) ?? .null)
            }
        } else {
            result = run(written.withUnsafeBytes { selfValue($0, as: property.readValue) } ?? .null)
        }
        out.truncate(to: valueStart)
        holds[holdsFrame + index] = false
        switch result.flatMap({ value in Self.json(value) }) {
        case .failure(let failure): fail(.ruleFailed, failure.message)
        case .success(let json):
            guard let ref = addDocument(json) else { return }
            let outcome = convertExpressionResult(ref, as: property.value)
            if outcome == .value { holds[holdsFrame + index] = true } else { out.truncate(to: valueStart) }
        }
    }

    /// The computed properties met in the loop, in declaration order: each one's expression over the properties
    /// converted so far (and the computed ones before it), its result read as the property's input at
    /// `/<name>`, and the written value inserted where the property's declaration puts it.
    mutating func insertComputed(
        of model: CompiledModel, _ object: ValueRef, objectStart: Int, holdsFrame: Int,
        flat: Bool, _ expressions: inout ExpressionState, unusual: inout UnusualObjectState?
    ) {
        var budget = expressions.budget ?? RuleBudget(steps: options.maxRuleSteps, size: options.maxRuleBytes)
        var input: RuleMap?
        var evaluator = RuleEvaluator(slots: [], steps: 0, sizeLeft: 0)  // shared by the object's computed properties
        var shift = 0
        var previous: (position: Int, trailingComma: Bool) = (-1, false)
        for index in model.properties.indices
        where model.spanIndex[index] >= 0 && slots[expressions.spanFrame + 3 * model.spanIndex[index] + 2] >= 0 {
            let position = slots[expressions.spanFrame + 3 * model.spanIndex[index] + 2]
            let property = model.properties[index]
            let expression = property.expression!
            bind(
                expression.sources, wholeSelf: expression.usesWholeSelf, wholeInput: expression.usesWholeInput,
                slotCount: expression.program.slotCount, model, expressions.spanFrame, object, &input,
                into: &evaluator)
            let depth = path.depth
            path.push(.literal(Array(property.name.utf8)))
            defer { path.truncate(to: depth) }
            let json: [UInt8]
            switch expression.program.evaluate(in: &evaluator, budget: &budget).flatMap(Self.json) {
            case .failure(let failure):
                fail(.ruleFailed, failure.message)
                continue
            case .success(let bytes): json = bytes
            }
            guard let ref = addDocument(json) else { continue }
            let start = out.count
            let outcome = convertExpressionResult(ref, as: property.value)
            guard outcome == .value else {
                out.truncate(to: start)
                continue
            }
            holds[holdsFrame + index] = true
            guard flat else {
                let end = out.count
                unusual.update { $0.spans.append((index, start, end)) }
                if model.readByRules[index] { noteSpan(index, of: model, start, end, expressions.spanFrame) }
                continue
            }
            let value = out.written(from: start)
            out.truncate(to: start)
            var at = position + shift
            var isFirst = at == objectStart + 1
            if previous.position == position && previous.trailingComma {
                at -= 1  // after the value inserted just before, ahead of its trailing comma
                isFirst = false
            }
            var inserted = Array(model.fragments[model.plans[index].fragment(wire: writesWire, first: isFirst)])
            let valueOffset = inserted.count
            inserted += value
            let trailingComma = isFirst && at < out.count
            if trailingComma { inserted.append(.comma) }
            out.insert(inserted, at: at)
            shift += inserted.count
            previous = (position, trailingComma || (previous.position == position && previous.trailingComma))
            let spanFrame = expressions.spanFrame
            for other in 0..<model.spanCount where slots[spanFrame + 3 * other] >= at {
                slots[spanFrame + 3 * other] += inserted.count
                slots[spanFrame + 3 * other + 1] += inserted.count
            }
            if model.readByRules[index] {
                noteSpan(index, of: model, at + valueOffset, at + valueOffset + value.count, spanFrame)
            }
        }
        expressions.budget = budget
    }

    // MARK: - Variables

    /// The converted value of property `index`, if noted (`noteSpan`).
    private func propertyValue(_ index: Int, _ model: CompiledModel, spanFrame: Int) -> RuleValue? {
        let entry = model.spanIndex[index]
        guard entry >= 0, slots[spanFrame + 3 * entry] >= 0 else { return nil }
        let start = slots[spanFrame + 3 * entry]
        return selfValue(out.bytes(start..<slots[spanFrame + 3 * entry + 1]), as: model.properties[index].value)
    }

    /// Sets `evaluator` up for one expression: its variables (`self` and `input`, as whole maps only when the
    /// expression uses them whole; a transform's `value` is slot 2, set by the caller; `slotCount` slots in all) and
    /// its member slots. Only the properties it names are read back. One evaluator serves an object's
    /// expressions: its slots are allocated at most once per object, and not at all for an expression that reads at
    /// most two fields (held inline, `RuleMembers`), no whole variable and no comprehension.
    private mutating func bind(
        _ sources: [CompiledRules.Source], wholeSelf: Bool, wholeInput: Bool, slotCount: Int,
        _ model: CompiledModel, _ spanFrame: Int, _ object: ValueRef, _ input: inout RuleMap?,
        into evaluator: inout RuleEvaluator
    ) {
        // Member slots are overwritten in place: emptying them first costs more than the evaluation.
        for (slot, source) in sources.enumerated() {
            let value: RuleValue?
            switch source {
            case .property(let index): value = propertyValue(index, model, spanFrame: spanFrame)
            case .absent: value = nil
            case .input(let key):
                if input == nil { input = inputMap(object) }
                value = input?[key]
            }
            evaluator.members[slot] = value
        }
        var selfMap = RuleValue.null
        if wholeSelf {
            var map = RuleMap()
            for (index, property) in model.properties.enumerated() {
                if let value = propertyValue(index, model, spanFrame: spanFrame) {
                    _ = map.insert(.string(property.name), value)
                }
            }
            selfMap = .map(map)
        }
        var inputValue = RuleValue.null
        if wholeInput {
            if input == nil { input = inputMap(object) }
            inputValue = .map(input ?? RuleMap())
        }
        // A rule that names `self` and `input` only through fields, and has no comprehension, reads no slot.
        guard slotCount > 2 || wholeSelf || wholeInput else { return }
        let count = max(slotCount, 3)
        if evaluator.slots.count < count {
            evaluator.slots.append(contentsOf: repeatElement(.null, count: count - evaluator.slots.count))
        }
        evaluator.slots[0] = selfMap
        evaluator.slots[1] = inputValue
    }

    /// The object as received (after `willTransform`), as a map from its keys.
    private func inputMap(_ object: ValueRef) -> RuleMap {
        let document = documents[object.document]
        var index = object.index
        let json = JSONValue(tokens: document.tokens, index: &index, bytes: document.bytes)
        if case .map(let map) = RuleJSON.value(json) { return map }
        return RuleMap()
    }

    /// An expression's result as JSON, or the failure of writing it (map keys that collide as text).
    private static func json(_ value: RuleValue) -> Result<[UInt8], RuleFailure> {
        var out: [UInt8] = []
        do {
            try RuleJSON.write(value, into: &out)
            return .success(out)
        } catch {
            return .failure(error)
        }
    }

    /// `bytes` as a document of its own, to be read as input; nil if it is not JSON (it always is: it was written
    /// by `RuleJSON`).
    private mutating func addDocument(_ bytes: [UInt8]) -> ValueRef? {
        guard case .success(let tape) = JSONTape.scanning(bytes, maxDepth: options.maxDepth) else { return nil }
        let document = documents.add(bytes: bytes, tape: tape, origins: [:], mergedDuplicates: [])
        return ValueRef(document: document, index: 0)
    }

    // MARK: - Values

    /// A converted value as the rule language sees it (docs/rules.md, "Types"): by the property's type, read back
    /// from the canonical bytes written for it.
    func selfValue(_ bytes: UnsafeRawBufferPointer, as value: CompiledValue) -> RuleValue? {
        // Plain integers, the most common operands, are read without building a JSON tree: the bytes are the
        // canonical digits, and up to 18 of them cannot overflow either type, so they are summed directly.
        if case .integer(let range) = value.kind, let first = bytes.first,
            first == UInt8(ascii: "-") || first.isASCIIDigit
        {
            let unsigned = range.lowerBound >= 0
            let negative = first == UInt8(ascii: "-")
            if bytes.count <= 18, !(negative && unsigned) {
                var index = negative ? 1 : 0
                var valid = index < bytes.count
                var magnitude: Int64 = 0
                while index < bytes.count {
                    let digit = bytes.load(fromByteOffset: index, as: UInt8.self) &- UInt8(ascii: "0")
                    valid = valid && digit < 10
                    magnitude = magnitude &* 10 &+ Int64(digit)
                    index &+= 1
                }
                if valid { return unsigned ? .uint(UInt64(magnitude)) : .int(negative ? -magnitude : magnitude) }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if unsigned { return UInt64(text).map { .uint($0) } }
            return Int64(text).map { .int($0) }
        }
        guard let json = try? JSONValue.parse(Array(bytes)) else { return nil }
        return Self.ruleValue(json, as: value)
    }

    /// A JSON value of a property (or element) of type `value`, as the rule language sees it.
    static func ruleValue(_ json: JSONValue, as value: CompiledValue?) -> RuleValue {
        switch (value?.kind, json) {
        case (.integer(let range)?, .number(let text)):
            if range.lowerBound >= 0, let u = UInt64(text) { return .uint(u) }
            return RuleJSON.number(text)
        case (.float?, .number(let text)), (.double?, .number(let text)), (.number?, .number(let text)),
            (.decimal?, .number(let text)), (.decimal?, .string(let text)):
            return .double(Double(text) ?? .nan)
        case (.date?, .string(let text)):
            return RuleTime.parseTimestamp(text).map { .timestamp($0) } ?? .string(text)
        case (.data?, .string(let text)):
            let decoded = Array(text.utf8).withUnsafeBytes { Base64.decode($0) }
            return decoded.map { .bytes($0) } ?? .string(text)
        case (.array(let element)?, .array(let items)), (.set(let element)?, .array(let items)):
            return .list(items.map { ruleValue($0, as: element) })
        case (.dictionary(let element)?, .object(let members)):
            var map = RuleMap()
            for (key, member) in members { _ = map.insert(.string(key), ruleValue(member, as: element)) }
            return .map(map)
        default:
            return RuleJSON.value(json)
        }
    }
}
