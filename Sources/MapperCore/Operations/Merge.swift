// SPDX-License-Identifier: Apache-2.0

// `POST /merge/{Model}` (docs/api.md): YYModel's `modelSetWithDictionary:` on an existing instance. The body is
// `{"target": {…model form…}, "patch": {…wire form…}}`, and the merge is three conversions:
//
//     target  from=model as the model asked for: its classForDictionary decides the model M that is built
//     patch   wire form as M (M's willTransform and unknownKeys apply, its classForDictionary does not); each
//             property any of whose keys (or key paths, or fallback keys) the patch holds takes the patch's result,
//             even no value; every other property keeps the target's
//     result  the merged model form, read as M: required, constraints and validate hold for the whole, and it is
//             written in the form asked for (`keys`, `mode`, `hash` as /convert)
//
//     target {"id": 1, "name": "a", "tags": ["x"]}  patch {"name": "b", "tags": null}  →  {"id":1,"name":"b"}
//
// Report paths start with `/target` (property names) or `/patch` (wire keys): the target's entries at properties
// the patch replaces are dropped, and `missing_required` and `rule_failed` come from the result, at the patch's key
// when the patch gave the property, else at the target's name.

extension RegistrySnapshot {
    public func merge(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        throws(MappingError) -> Converted
    {
        guard let declared = model(named: name) else { throw .unknownModel(name) }
        return try withTape(body, options) { tokens in
            let sides: [String: Int]
            switch Self.members(["target", "patch"], of: tokens, in: body) {
            case .failure(let error): return .failure(error)
            case .success(let found): sides = found
            }
            var targetOptions = options
            (targetOptions.input, targetOptions.output) = (.model, .model)
            let target = run(declared, body, tokens, index: sides["target"]!, options: targetOptions)
            let model = target.built ?? declared
            let patch = runPatch(model, body, tokens, index: sides["patch"]!, options: options)
            let targetStart = tokens[sides["target"]!].start
            let targetKeys = Set(ModelFormMembers(Array(body[targetStart..<tokens[sides["target"]!].end])).keys)
            let targetMembers = ModelFormMembers(target.out)
            let patchMembers = ModelFormMembers(patch.run.out)
            let implicit = (
                target: Self.implicitZeros(model, targetMembers, target.diagnostics.entries) { i in
                    let name = model.properties[i].name
                    return targetKeys.contains(Array(name.utf8)) ? "/" + JSONPointer.escape(name) : nil
                },
                patch: Self.implicitZeros(model, patchMembers, patch.run.diagnostics.entries) { i in
                    patch.sources[i].map { String($0.dropFirst("/patch".count)) }
                }
            )
            let merged = Self.mergedObject(
                model, target: targetMembers, patch: patchMembers, taken: patch.sources,
                implicit: implicit)

            var report = Diagnostics(strict: options.mode == .strict)
            let results = merged.withUnsafeBytes { bytes in
                withTape(bytes, options) { mergedTokens in
                    var resultOptions = options
                    resultOptions.input = .model
                    let result = runKeepingModel(model, bytes, mergedTokens, options: resultOptions)
                    resultOptions.output = .model
                    // The hash is that of the identity form, as from /convert: a model-form run that records
                    // which model each nested object was built as.
                    let identityRun =
                        options.hash
                        ? runKeepingModel(model, bytes, mergedTokens, options: resultOptions, recordingBuilt: true)
                        : nil
                    let modelForm = options.output == .model || identityRun == nil ? result.out : identityRun!.out
                    let hash = identityRun.map {
                        SHA256.hexDigest(IdentityForm.of($0.out, as: model, builtAt: $0.builtAt, in: self))
                    }
                    return .success((result, modelForm, hash))
                }
            }
            let result: Run
            let modelForm: [UInt8]
            let hash: String?
            switch results {
            case .failure(let error): return .failure(error)
            case .success(let all): (result, modelForm, hash) = all
            }
            Self.report(target.diagnostics, of: model, taken: patch.sources, into: &report)
            let takenPaths = Set(patch.sources.compactMap { $0 })
            for entry in patch.run.diagnostics.entries {
                // A property the patch gave that holds no value is missing; the patch's other rule entries judge
                // only the patch, which the result's replace.
                let path = "/patch" + entry.path
                guard !Self.isRule(entry.code) || (entry.code == .missingRequired && takenPaths.contains(path)) else {
                    continue
                }
                report.record(path, entry.code, entry.message, isError: entry.isError)
            }
            for entry in result.diagnostics.entries where Self.isRule(entry.code) {
                report.record(
                    Self.resultPath(entry.path, of: model, taken: patch.sources), entry.code, entry.message,
                    isError: entry.isError)
            }
            if report.errorCount > 0 {
                return .failure(
                    .validationFailed(
                        ValidationReport(
                            model: declared.name, built: model === declared ? nil : model.name, result: modelForm,
                            entries: report.entries, maxEntries: options.maxReportEntries)))
            }
            return .success(
                Converted(
                    body: result.out, warnings: report.count,
                    modelHash: hash, report: report))
        }.get()
    }

    /// The members `names` of the body, each an object, and nothing else (`400 not_an_object` naming the member).
    static func members(_ names: [String], of tokens: UnsafeBufferPointer<JSONToken>, in body: UnsafeRawBufferPointer)
        -> Result<[String: Int], MappingError>
    {
        let shape = names.map { "\"\($0)\": {…}" }.joined(separator: ", ")
        guard tokens[0].kind == .object else { return .failure(.notAnObject("the body must be an object {\(shape)}")) }
        var found: [String: Int] = [:]
        var index = 1
        for _ in 0..<tokens[0].count {
            let name = String(decoding: JSONStrings.decoded(tokens[index], in: body), as: UTF8.self)
            guard names.contains(name) else {
                let allowed = names.map { "\"\($0)\"" }.joined(separator: " and ")
                return .failure(.notAnObject("the body may hold only \(allowed), not \"\(name)\""))
            }
            guard tokens[index + 1].kind == .object else {
                return .failure(.notAnObject("member \"\(name)\" must be an object"))
            }
            found[name] = index + 1
            index = tokens[index + 1].next
        }
        for name in names where found[name] == nil {
            return .failure(.notAnObject("member \"\(name)\" must be an object"))
        }
        return .success(found)
    }

    /// The patch converted as `model` into model form, and for each property the wire pointer (under `/patch`) of
    /// its first present key, nil when the patch holds none of its keys.
    private func runPatch(
        _ model: CompiledModel, _ body: UnsafeRawBufferPointer,
        _ tokens: UnsafeBufferPointer<JSONToken>, index: Int, options: ConversionOptions
    )
        -> (run: Run, sources: [String?])
    {
        var patchOptions = options
        (patchOptions.input, patchOptions.output) = (.wire, .model)
        var finder = Converter(snapshot: self, options: patchOptions, input: body, tokens: tokens)
        var object: ValueRef? = ValueRef(document: 0, index: index)
        if let steps = model.willTransform { object = finder.applyWillTransform(steps, to: object!) }
        let base = "/patch" + finder.path.render(finder.documents)
        let sources: [String?] = model.properties.map { property in
            guard let object, let key = property.keys.first(where: { finder.value(at: $0, in: object) != nil })
            else { return nil }
            return key.pointer(under: base)
        }
        finder.recycleScratch()
        return (runKeepingModel(model, body, tokens, index: index, options: patchOptions), sources)
    }

    /// `run`, building `model` itself whatever its `classForDictionary` says.
    private func runKeepingModel(
        _ model: CompiledModel, _ body: UnsafeRawBufferPointer,
        _ tokens: UnsafeBufferPointer<JSONToken>, index: Int = 0,
        options: ConversionOptions, recordingBuilt: Bool = false
    ) -> Run {
        var converter = Converter(snapshot: self, options: options, input: body, tokens: tokens)
        converter.keepsRootModel = true
        converter.recordsBuilt = recordingBuilt
        converter.convertRootObject(ValueRef(document: 0, index: index), as: model)
        let out = converter.out.array
        converter.recycleScratch()
        return Run(out: out, diagnostics: converter.diagnostics, built: nil, builtAt: converter.builtAt)
    }

    /// The properties whose member in a run's model-form output is a numeric type's implicit `0` / `false`, not a
    /// value: the input (`inputPath` gives its pointer, nil when absent) had none, or had one that left the
    /// default with `null_to_default`, `not_a_number`, `wrong_type` or `out_of_range`. The merged object leaves
    /// them out, so that the result writes them again as no value (not checked by constraints, not `required`).
    private static func implicitZeros(
        _ model: CompiledModel, _ members: ModelFormMembers, _ entries: [Diagnostic],
        inputPath: (Int) -> String?
    ) -> Set<Int> {
        let leftAtDefault: Set<DiagnosticCode> = [.nullToDefault, .notANumber, .wrongType, .outOfRange]
        var implicit = Set<Int>()
        for (i, property) in model.properties.enumerated()
        where property.value.hasImplicitZero && !property.hasDeclaredDefault {
            guard let value = members.value(of: Array(property.name.utf8)),
                value.elementsEqual("0".utf8) || value.elementsEqual("false".utf8)
            else { continue }
            guard let path = inputPath(i) else {
                implicit.insert(i)
                continue
            }
            if entries.contains(where: { $0.path == path && leftAtDefault.contains($0.code) }) { implicit.insert(i) }
        }
        return implicit
    }

    /// The model form of the merge: each property's member from the patch's output when the patch gave it (none
    /// when that gave no value), else from the target's (implicit zeros left out); then kept unknown keys, the
    /// target's and the patch's (the patch's value wins).
    private static func mergedObject(
        _ model: CompiledModel, target targetMembers: ModelFormMembers,
        patch patchMembers: ModelFormMembers, taken: [String?],
        implicit: (target: Set<Int>, patch: Set<Int>)
    ) -> [UInt8] {
        var out: [UInt8] = [.openBrace]
        func write(_ key: [UInt8], _ value: ArraySlice<UInt8>) {
            if out.count > 1 { out.append(.comma) }
            JSONStrings.writeQuoted(key, into: &out)
            out.append(.colon)
            out.append(contentsOf: value)
        }
        var names = Set<[UInt8]>()
        for (i, property) in model.properties.enumerated() {
            let name = Array(property.name.utf8)
            names.insert(name)
            let fromPatch = taken[i] != nil
            if (fromPatch ? implicit.patch : implicit.target).contains(i) { continue }
            if let value = (fromPatch ? patchMembers : targetMembers).value(of: name) { write(name, value) }
        }
        let patchExtras = Set(patchMembers.keys.filter { !names.contains($0) })
        for key in targetMembers.keys where !names.contains(key) && !patchExtras.contains(key) {
            write(key, targetMembers.value(of: key)!)
        }
        for key in patchMembers.keys where patchExtras.contains(key) { write(key, patchMembers.value(of: key)!) }
        out.append(.closeBrace)
        return out
    }

    /// The target's entries, under `/target`, except those at properties the patch replaced and the rules' entries
    /// (the result's decide).
    private static func report(
        _ target: Diagnostics, of model: CompiledModel, taken: [String?],
        into report: inout Diagnostics
    ) {
        let replaced = Set(
            model.properties.indices.filter { taken[$0] != nil }.map {
                "/" + JSONPointer.escape(model.properties[$0].name)
            })
        for entry in target.entries where !isRule(entry.code) {
            let first = entry.path.isEmpty ? "" : "/" + (entry.path.dropFirst().split(separator: "/").first ?? "")
            if replaced.contains(first) { continue }
            report.record("/target" + entry.path, entry.code, entry.message, isError: entry.isError)
        }
    }

    /// `missing_required` and `rule_failed`, which the merged result decides.
    private static func isRule(_ code: DiagnosticCode) -> Bool { code == .missingRequired || code == .ruleFailed }

    /// A result entry's path (a model-form pointer) as a path of the body: the patch's key when the patch gave the
    /// property, else the target's name; the object's own entries at `/target`.
    private static func resultPath(_ path: String, of model: CompiledModel, taken: [String?]) -> String {
        for (i, property) in model.properties.enumerated() where path == "/" + JSONPointer.escape(property.name) {
            return taken[i] ?? "/target" + path
        }
        return "/target" + path
    }
}

/// The members of a canonical model-form object, by decoded key, in their order.
private struct ModelFormMembers {
    var keys: [[UInt8]] = []
    private var values: [[UInt8]: ArraySlice<UInt8>] = [:]

    init(_ object: [UInt8]) {
        guard case .success(let tape) = JSONTape.scanning(object, maxDepth: Int.max), tape.tokens[0].kind == .object
        else { return }
        object.withUnsafeBytes { bytes in
            var index = 1
            for _ in 0..<tape.tokens[0].count {
                let key = JSONStrings.decoded(tape.tokens[index], in: bytes)
                let value = tape.tokens[index + 1]
                keys.append(key)
                values[key] = object[value.rawRange]
                index = value.next
            }
        }
    }

    func value(of key: [UInt8]) -> ArraySlice<UInt8>? { values[key] }
}
