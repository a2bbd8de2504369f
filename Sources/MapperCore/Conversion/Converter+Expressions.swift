// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// Stage 5: the model's `rules` (docs/rules.md), after every property is converted and `validate` has run.
    /// `self` holds the converted values (read back from the bytes just written, only those the expressions name),
    /// `input` the object as received; a rule that is false, not a bool, or fails adds `rule_failed` at its path.
    /// The rules share the object's budget with its transforms and computed properties. Removes the object's
    /// `ruleSpans`.
    mutating func evaluateRules(of model: CompiledModel, _ object: ValueRef, objectStart: Int, budget: RuleBudget?) {
        defer { while let span = ruleSpans.last, span.object == objectStart { ruleSpans.removeLast() } }
        guard let compiled = model.rules else { return }
        var input: RuleMap?
        var budget = budget ?? RuleBudget(steps: options.maxRuleSteps, size: options.maxRuleBytes)
        for rule in compiled.rules {
            let (variables, members) = bindings(rule.sources, wholeSelf: compiled.usesWholeSelf,
                                                wholeInput: compiled.usesWholeInput, count: 2, model, objectStart,
                                                object, &input)
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

    /// Notes a computed property's place for `insertComputed`; false for a property that is read.
    @inline(never)
    mutating func deferComputed(_ property: CompiledProperty, _ index: Int, unusual: inout UnusualObjectState?) -> Bool {
        guard property.expression?.isComputed == true else { return false }
        let position = out.count
        unusual.update { $0.computed.append((index, position)) }
        return true
    }

    /// After a read property's value is written (from `valueStart` on): its `transform`, then a note of where the
    /// value is (`ruleSpans`) when an expression reads it.
    @inline(never)
    mutating func finishValue(_ property: CompiledProperty, _ index: Int, _ plan: PropertyPlan, of model: CompiledModel,
                              _ object: ValueRef, objectStart: Int, valueStart: Int, holdsFrame: Int,
                              unusual: inout UnusualObjectState?) {
        if plan.hasExpression, holds[holdsFrame + index] {
            applyTransform(property, index, of: model, object, objectStart: objectStart, valueStart: valueStart,
                           holdsFrame: holdsFrame, unusual: &unusual)
        }
        if plan.readByRules, holds[holdsFrame + index] { ruleSpans.append((objectStart, index, valueStart, out.count)) }
    }

    /// `transform` on the value just written at `valueStart` (the property holds one): the expression's result,
    /// written as JSON, is read again as the property's input, at the same path, with the usual warnings and the
    /// constraints. On arrays, sets and dictionaries it applies per element. A failure is `rule_failed`, and the
    /// property then has no value.
    mutating func applyTransform(_ property: CompiledProperty, _ index: Int, of model: CompiledModel, _ object: ValueRef,
                                 objectStart: Int, valueStart: Int, holdsFrame: Int, unusual: inout UnusualObjectState?) {
        let expression = property.expression!
        var budget = unusual?.ruleBudget ?? RuleBudget(steps: options.maxRuleSteps, size: options.maxRuleBytes)
        defer { unusual.update { $0.ruleBudget = budget } }
        let written = out.written(from: valueStart)
        var input: RuleMap?
        var (variables, members) = bindings(expression.sources, wholeSelf: expression.usesWholeSelf,
                                            wholeInput: expression.usesWholeInput, count: 3, model, objectStart,
                                            object, &input)
        func run(_ value: RuleValue) -> Result<RuleValue, RuleFailure> {
            variables[2] = value
            return expression.program.evaluate(variables, members: members, budget: &budget)
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
            let (outcome, _) = convertRecordingIssue(ref, as: property.value)
            if outcome == .value { holds[holdsFrame + index] = true } else { out.truncate(to: valueStart) }
        }
    }

    /// The computed properties met in the loop, in declaration order: each one's expression over the properties
    /// converted so far (and the computed ones before it), its result read as the property's input at
    /// `/<name>`, and the written value inserted where the property's declaration puts it.
    mutating func insertComputed(_ computed: [(property: Int, position: Int)], of model: CompiledModel, _ object: ValueRef,
                                 objectStart: Int, holdsFrame: Int, flat: Bool, unusual: inout UnusualObjectState?) {
        var budget = unusual?.ruleBudget ?? RuleBudget(steps: options.maxRuleSteps, size: options.maxRuleBytes)
        var input: RuleMap?
        var shift = 0
        var previous: (position: Int, trailingComma: Bool) = (-1, false)
        for (index, position) in computed {
            let property = model.properties[index]
            let expression = property.expression!
            let (variables, members) = bindings(expression.sources, wholeSelf: expression.usesWholeSelf,
                                                wholeInput: expression.usesWholeInput, count: 3, model, objectStart,
                                                object, &input)
            let depth = path.depth
            path.push(.literal(Array(property.name.utf8)))
            defer { path.truncate(to: depth) }
            let json: [UInt8]
            switch expression.program.evaluate(variables, members: members, budget: &budget).flatMap(Self.json) {
            case .failure(let failure):
                fail(.ruleFailed, failure.message)
                continue
            case .success(let bytes): json = bytes
            }
            guard let ref = addDocument(json) else { continue }
            let start = out.count
            let (outcome, _) = convertRecordingIssue(ref, as: property.value)
            guard outcome == .value else {
                out.truncate(to: start)
                continue
            }
            holds[holdsFrame + index] = true
            guard flat else {
                let end = out.count
                unusual.update { $0.spans.append((index, start, end)) }
                if model.plans[index].readByRules { ruleSpans.append((objectStart, index, start, end)) }
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
            for i in ruleSpans.indices.reversed() {
                guard ruleSpans[i].object == objectStart else { break }
                if ruleSpans[i].start >= at {
                    ruleSpans[i].start += inserted.count
                    ruleSpans[i].end += inserted.count
                }
            }
            if model.plans[index].readByRules {
                ruleSpans.append((objectStart, index, at + valueOffset, at + valueOffset + value.count))
            }
        }
        unusual.update { $0.ruleBudget = budget }
    }

    // MARK: - Variables

    /// The converted value of property `index` of the object at `objectStart`, if noted (`ruleSpans`).
    private func propertyValue(_ index: Int, _ model: CompiledModel, objectStart: Int) -> RuleValue? {
        for span in ruleSpans.reversed() {
            guard span.object == objectStart else { return nil }
            if span.property == index {
                return selfValue(out.bytes(span.start..<span.end), as: model.properties[index].value)
            }
        }
        return nil
    }

    /// The variable values (`self`, `input`, and a placeholder for a transform's `value`: `count` of them) and the
    /// member slots of one expression; only the properties it names are read back.
    private func bindings(_ sources: [CompiledRules.Source], wholeSelf: Bool, wholeInput: Bool, count: Int,
                          _ model: CompiledModel, _ objectStart: Int, _ object: ValueRef, _ input: inout RuleMap?)
        -> (variables: [RuleValue], members: [RuleValue?])
    {
        var members: [RuleValue?] = []
        members.reserveCapacity(sources.count)
        for source in sources {
            switch source {
            case .property(let index): members.append(propertyValue(index, model, objectStart: objectStart))
            case .absent: members.append(nil)
            case .input(let key):
                if input == nil { input = inputMap(object) }
                members.append(input?[key])
            }
        }
        var variables = [RuleValue](repeating: .null, count: count)
        if wholeSelf {
            var map = RuleMap()
            for (index, property) in model.properties.enumerated() {
                if let value = propertyValue(index, model, objectStart: objectStart) {
                    _ = map.insert(.string(property.name), value)
                }
            }
            variables[0] = .map(map)
        }
        if wholeInput {
            if input == nil { input = inputMap(object) }
            variables[1] = .map(input ?? RuleMap())
        }
        return (variables, members)
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
        // Plain integers, the most common operands, are read without building a JSON tree.
        if case .integer(let range) = value.kind, let first = bytes.first, first == UInt8(ascii: "-") || first.isASCIIDigit {
            let text = String(decoding: bytes, as: UTF8.self)
            if range.lowerBound >= 0 { return UInt64(text).map { .uint($0) } }
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
