// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// Builds the object at `ref` as `declared` (docs/semantics.md, "Building a model: the order"): `willTransform` on
    /// the input object, `classForDictionary` on the result, then the chosen model's properties, unknown keys and
    /// `validate`. Always writes an object (possibly incomplete when the model fails). A model with `unknownKeys: keep`
    /// or `strict` is converted through `convertObjectWithOptions` instead (`convertRootObject`, and the
    /// `.withOptions` values that refer to it), so this path, which every other object takes, pays nothing for them.
    mutating func convertObject(_ ref: ValueRef, as declared: CompiledModel) {
        buildObject(ref, as: declared, withOptions: false)
    }

    /// A root object: through `convertObjectWithOptions` when its model has object options.
    mutating func convertRootObject(_ ref: ValueRef, as model: CompiledModel) {
        if model.hasObjectOptions { convertObjectWithOptions(ref, as: model) } else { convertObject(ref, as: model) }
    }

    /// `convertObject` for a model with `unknownKeys: keep` or `strict`, or one nested in a strict model or
    /// property: warnings are errors as the model's `strict` and the mode say (a nested model does not inherit a
    /// strict scope), and kept keys are written after the properties.
    @inline(never)
    mutating func convertObjectWithOptions(_ ref: ValueRef, as declared: CompiledModel) {
        let outerStrict = diagnostics.strict
        diagnostics.strict = declared.isStrict || modeIsStrict
        defer { diagnostics.strict = outerStrict }
        buildObject(ref, as: declared, withOptions: true)
    }

    /// The body of both: inlined into each with `withOptions` a constant, so that `convertObject` holds no trace
    /// of the options.
    @inline(__always)
    private mutating func buildObject(_ ref: ValueRef, as declared: CompiledModel, withOptions: Bool) {
        let depth = path.depth
        defer { path.truncate(to: depth) }
        var object = ref
        if !fromModel, let steps = declared.willTransform {
            guard let transformed = applyWillTransform(steps, to: ref) else {
                let start = out.count
                out.append(contentsOf: "{}".utf8)
                if writesWire { wrapUnwrapped(declared, from: start) }
                return
            }
            object = transformed
        }
        let start = out.count
        // Two calls rather than one through a `var model`, whose copy of `declared` would cost an atomic retain and
        // release for every object.
        if !declared.classRules.isEmpty, !(keepsRootModel && depth == 0),
            let chosen = chooseModel(declared, for: object),
            chosen !== declared
        {
            if depth == 0 { rootBuilt = chosen }
            if recordsBuilt { builtAt[start] = chosen.id }
            convertProperties(of: chosen, object, requestedAs: declared)
            if chosen.keepsUnknownKeys { writeKeptKeys(of: chosen, requestedAs: declared, object: object, from: start) }
        } else {
            if recordsBuilt { builtAt[start] = declared.id }
            convertProperties(of: declared, object, requestedAs: declared)
            if withOptions, declared.keepsUnknownKeys {
                writeKeptKeys(of: declared, requestedAs: declared, object: object, from: start)
            }
        }
        if writesWire { wrapUnwrapped(declared, from: start) }
    }

    /// The model's properties, then stray keys (stage 3) and `validate` (stage 4).
    @inline(__always)
    private mutating func convertProperties(
        of model: CompiledModel, _ object: ValueRef, requestedAs declared: CompiledModel
    ) {
        // The key index is borrowed from `model`, which holds it for the whole call: a local copy would cost an
        // atomic retain and release per object.
        Unmanaged.passUnretained(fromModel ? model.modelKeys : model.wireKeys).borrowed { keys in
            if model.hasPropertyExpressions {
                convertProperties(of: model, object, requestedAs: declared, keys: keys, WithExpressions.self)
            } else if model.rules != nil {
                convertProperties(of: model, object, requestedAs: declared, keys: keys, WithRules.self)
            } else {
                convertProperties(of: model, object, requestedAs: declared, keys: keys, WithoutExpressions.self)
            }
        }
    }

    /// `convertProperties`, matching input keys through `keys` (the model's wire or model-form key index). `Mode`
    /// is decided once per model: the loop is compiled three times. The copy for models without rules, transforms or
    /// computed properties has none of their checks; the copy for models with `rules` only notes where the values
    /// the rules read are written, inside the branch that `required` properties already take (`PropertyPlan.ruled`).
    private mutating func convertProperties<Mode: ExpressionMode>(
        of model: CompiledModel, _ object: ValueRef, requestedAs declared: CompiledModel, keys: KeyIndex, _: Mode.Type
    ) {
        let document = documents[object.document]
        let frame = slots.push(keys.count, filledWith: -1)
        defer { slots.pop(to: frame) }

        // Stage 0: one pass over the input members fills a slot per known key (the last duplicate wins).
        let unreadFrame = unread.top
        defer { unread.pop(to: unreadFrame) }
        var unusual: UnusualObjectState?  // made only for repeated keys, failed required properties, wire spans
        if object.index == 0 {
            for (key, pointer) in documents.mergedDuplicates(object.document) {
                if let id = keys.id(of: key) {
                    unusual.update {
                        $0.duplicated.insert(id)
                        $0.mergedPointers[id] = pointer
                    }
                } else {
                    unusual.update { $0.strayDuplicates.append((key, pointer)) }
                }
            }
        }
        var index = object.index + 1
        let memberCount = document.tokens[object.index].count
        var previous = -1  // the last known key's id (-1: none yet), after which `keys` looks for the next key
        for _ in 0..<memberCount {
            let keyToken = document.tokens[index]
            if let id = keyID(keyToken, in: document.bytes, keys, after: previous) {
                // `id` is below `keys.count`, the frame's size.
                if slots[unchecked: frame + id] >= 0 { unusual.update { _ = $0.duplicated.insert(id) } }
                slots[unchecked: frame + id] = index
                previous = id
            } else {
                unread.append(index)
            }
            index = document.tokens[index + 1].next
        }

        let objectStart = out.count
        let flat = !writesWire || model.wireIsFlat
        let holdsFrame = holds.push(model.properties.count, filledWith: false)
        defer { holds.pop(to: holdsFrame) }
        out.append(.openBrace)
        var first = true
        let objectDepth = path.depth
        // With no repeated key to report, a property with one plain key is settled here when its key is absent
        // and it has no default (a number's implicit zero, or nothing) or when its value is a common case
        // (writeCommonValue), reading only the property's plan; everything else takes the general path below.
        let hasDuplicates = unusual.map { !$0.duplicated.isEmpty } ?? false
        let shortcuts = options.commonValueShortcuts && flat && !fromModel && !hasDuplicates
        let plans = model.plans
        let fragments = model.fragments
        var expressions = ExpressionState()  // used only with `Mode.rules`
        // popped with `frame`
        if Mode.rules { expressions.spanFrame = slots.push(3 * model.spanCount, filledWith: -1) }
        for i in plans.indices {
            let plan = plans[i]
            if shortcuts, plan.plainKeyID >= 0 {
                let keyToken = slots[unchecked: frame + plan.plainKeyID]  // a key id, below `keys.count`
                if keyToken < 0, !plan.hasDeclaredDefault {
                    // Absent, no default: a number's implicit zero, or nothing at all.
                    if let zero = plan.implicitZero {
                        out.append(fragments, range: plan.fragment(wire: writesWire, first: first))
                        TypeCoercion.writeZero(isBool: zero == .false, into: &out)
                        first = false
                    }
                    continue
                }
                if keyToken >= 0, let form = plan.common {
                    let value = ValueRef(document: object.document, index: keyToken + 1)
                    let propertyStart = Mode.rules ? out.count : 0
                    let written = fragments.withUnsafeBytes { fragments in
                        let fragment = UnsafeRawBufferPointer(
                            rebasing: fragments[plan.fragment(wire: writesWire, first: first)])
                        return writeCommonValue(value, as: form, after: fragment)
                    }
                    switch written {
                    case .value:
                        if plan.ruled {
                            holds[unchecked: holdsFrame + i] = true  // `i` < the property count
                            if Mode.rules, model.readByRules[i] {
                                let valueStart = propertyStart + plan.fragment(wire: writesWire, first: first).count
                                noteSpan(i, of: model, valueStart, out.count, expressions.spanFrame)
                            }
                        }
                        first = false
                        continue
                    case .noValue: continue  // nothing written, and the property holds no value
                    case .notCommon: break  // the general path writes it
                    }
                }
            }
            // The general path. The property is borrowed rather than copied out of the array, which would cost a
            // retain and a release of the property and of its value: `properties` is a `let` of a final class, and
            // `model` is held for the whole call, so the property outlives this closure.
            Unmanaged.passUnretained(model.properties[i]).borrowed { property in
                // A computed property is evaluated after the loop, then inserted here (`insertComputed`).
                if Mode.propertyExpressions, property.expression != nil,
                    deferComputed(property, i, of: model, &expressions)
                {
                    return
                }
                let depth = path.depth
                defer { path.truncate(to: depth) }
                let found = locate(property, frame: frame, in: object)
                if let found, hasDuplicates {
                    // A duplicated key a property uses is reported with that property, at the key itself.
                    let id = fromModel ? property.modelKeyID : property.keyIDs[found.alternative]
                    if unusual.update({ $0.duplicated.contains(id) && $0.reportedDuplicates.insert(id).inserted }) {
                        diagnostics.warn(path.render(documents, depth: objectDepth + 1), .duplicateKey(keys.key(id)))
                    }
                }
                let propertyStart = out.count
                if flat { out.append(fragments, range: plan.fragment(wire: writesWire, first: first)) }
                let valueStart = out.count
                if let found {
                    let (outcome, hadIssue) = convertRecordingIssue(
                        found.value, as: Mode.propertyExpressions ? property.readValue : property.value)
                    if outcome != .value { out.truncate(to: valueStart) }
                    if outcome == .value {
                        holds[holdsFrame + i] = true
                    } else if outcome == .implicitDefault || hadIssue,
                        let fallback = declaredDefault(property, of: model)
                    {
                        out.append(contentsOf: writesWire ? fallback.wireForm : fallback.modelForm)
                        holds[holdsFrame + i] = true
                    } else if outcome == .implicitDefault {
                        TypeCoercion.writeZero(isBool: property.value.zeroIsFalse, into: &out)
                    }
                    if !holds[holdsFrame + i], model.required.contains(i) {
                        let pointer = path.render(documents)
                        unusual.update { $0.failedAt[i] = pointer }
                    }
                } else if let fallback = declaredDefault(property, of: model) {
                    out.append(contentsOf: writesWire ? fallback.wireForm : fallback.modelForm)
                    holds[holdsFrame + i] = true
                } else if property.value.hasImplicitZero {
                    TypeCoercion.writeZero(isBool: property.value.zeroIsFalse, into: &out)
                }
                // (Every property an expression reads is `ruled`.)
                if Mode.propertyExpressions, plan.ruled || property.expression != nil {
                    finishValue(
                        property, i, of: model, object, valueStart: valueStart,
                        holdsFrame: holdsFrame, &expressions)
                } else if Mode.rules, plan.ruled, holds[holdsFrame + i], model.readByRules[i] {
                    noteSpan(i, of: model, valueStart, out.count, expressions.spanFrame)
                }
                if out.count == valueStart {
                    out.truncate(to: propertyStart)
                } else if flat {
                    first = false
                } else {
                    let end = out.count
                    unusual.update { $0.spans.append((i, valueStart, end)) }
                }
            }
        }
        if Mode.propertyExpressions, expressions.hasComputed {
            insertComputed(
                of: model, object, objectStart: objectStart, holdsFrame: holdsFrame, flat: flat,
                &expressions, unusual: &unusual)
        }
        out.append(.closeBrace)

        // (Not through `update`: its closure here cost time through code generation; docs/performance.md.)
        if hasDuplicates, var state = unusual {
            for id in state.duplicated where !state.reportedDuplicates.contains(id) {
                let pointer = state.mergedPointers[id] ?? memberPointer(object.document, slots[frame + id])
                state.strayDuplicates.append((Array(keys.key(id)), pointer))
            }
            unusual = state
        }
        // `unusual` itself is handed on: a part taken out of it here would be a copy to release, even when nil.
        reportStrayKeys(
            of: model, requestedAs: declared, object: object, unreadFrame: unreadFrame, unusual: unusual,
            frame: frame)
        checkRules(of: model, holdsFrame: holdsFrame, unusual: unusual)
        if Mode.rules { evaluateRules(of: model, object, expressions) }
        if !flat { assembleWireObject(model, spans: unusual?.spans ?? [], from: objectStart) }
    }

    /// `convert`, recording the value's issue if it has one: what happened, and whether there was an issue. The
    /// result is taken apart here, out of line, so that `convertProperties` holds no `Issue?`: destroying one,
    /// even nil, is a runtime call (a release), once per property on the general path.
    @inline(never)
    private mutating func convertRecordingIssue(_ ref: ValueRef, as value: CompiledValue)
        -> (outcome: TypeCoercion.Outcome, hadIssue: Bool)
    {
        let result = convert(ref, as: value)
        guard let issue = result.issue else { return (result.outcome, false) }
        warn(issue)
        return (result.outcome, true)
    }

    /// `convertRecordingIssue`'s outcome, for the results of expressions (`Converter+Expressions.swift`); the loop
    /// calls the private one, whose code the compiler is free to shape for it alone.
    mutating func convertExpressionResult(_ ref: ValueRef, as value: CompiledValue) -> TypeCoercion.Outcome {
        convertRecordingIssue(ref, as: value).outcome
    }

    /// The property's declared default, converted on first use while a snapshot is being built (a default is
    /// resolved only when a conversion actually needs it, so data that ends ends the recursion).
    private func declaredDefault(_ property: CompiledProperty, of model: CompiledModel) -> CompiledDefault? {
        guard property.hasDeclaredDefault else { return nil }
        if property.defaultValue == nil { snapshot.defaultResolver?.needed(property, of: model) }
        return property.defaultValue
    }
}

/// What converting one object keeps only for unusual input: repeated keys, required properties that are present but
/// hold no value, the value spans of a wire form that is not flat. It is made on first use, so an ordinary object
/// makes and destroys none of these containers (destroying one, even empty, is a runtime call; six per object
/// showed in the time profile: docs/performance.md, "Design decisions taken on measurements").
struct UnusualObjectState {
    /// Ids of keys that occur more than once (or were merged by a rebuild).
    var duplicated = Set<Int>()
    /// Ids of repeated keys already reported with the property that uses them.
    var reportedDuplicates = Set<Int>()
    /// The pointer of each merged repeated key, by id.
    var mergedPointers = [Int: String]()  // (not `[:]`, which is built through dictionaryLiteral)
    /// Repeated keys that no property uses, reported with the stray keys.
    var strayDuplicates: [(key: [UInt8], pointer: String)] = []
    /// Input pointers of required properties that were present but did not convert (rendered only then).
    var failedAt = [Int: String]()
    /// Where each property's value was written, for `assembleWireObject`.
    var spans: [(property: Int, start: Int, end: Int)] = []
}

/// Which expressions `Converter.convertProperties` evaluates: decided at compile time, per specialisation. `rules`:
/// the model's `rules` run, and the values expressions read are noted; `propertyExpressions`: `transform` and
/// `computed` properties too.
protocol ExpressionMode {
    static var rules: Bool { get }
    static var propertyExpressions: Bool { get }
}
enum WithExpressions: ExpressionMode {
    static var rules: Bool { true }
    static var propertyExpressions: Bool { true }
}
enum WithRules: ExpressionMode {
    static var rules: Bool { true }
    static var propertyExpressions: Bool { false }
}
enum WithoutExpressions: ExpressionMode {
    static var rules: Bool { false }
    static var propertyExpressions: Bool { false }
}

/// What an object's expressions note during its conversion (docs/rules.md); apart from `UnusualObjectState`, so
/// that models without expressions never carry it.
struct ExpressionState {
    /// Whether a computed property was met in the loop (its insertion offset is in `spanFrame`).
    var hasComputed = false
    /// What is left of the object's rule budget once a transform or computed property spent some of it.
    var budget: RuleBudget?
    /// A frame of `Converter.slots` with three entries per property that an expression reads or that has one
    /// (`CompiledModel.spanIndex`): where its value was written (start and end offset in `out`), and where a computed
    /// property is to be inserted; -1 when not noted. Plain values only, so that the state costs nothing to make and
    /// drop.
    var spanFrame = 0
}

extension UnusualObjectState? {
    /// Runs `body` on the state, made first when there is none.
    mutating func update<Result>(_ body: (inout UnusualObjectState) -> Result) -> Result {
        var state = self ?? UnusualObjectState()
        self = nil  // (so that `state` is the only reference to its containers while `body` changes them)
        defer { self = state }
        return body(&state)
    }
}
