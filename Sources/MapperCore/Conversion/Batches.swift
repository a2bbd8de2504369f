// SPDX-License-Identifier: Apache-2.0

extension RegistrySnapshot {
    /// `POST /convert|/normalize/{Model}/array` with a JSON array (YYModel's `modelArrayWithClass`): elements that
    /// are not objects or that fail are left out, one `element_dropped` counted for each; in strict mode any failure
    /// is a 422 report for the whole batch with paths prefixed by the element's index.
    public func convertArray(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        -> Result<Converted, MappingError>
    {
        guard let model = model(named: name) else { return .failure(.unknownModel(name)) }
        return withTape(body, options) { tokens in
            guard tokens[0].kind == .array else { return .failure(.notAnArray(Self.shapeMessage(tokens[0], "an array"))) }
            var elements: [(key: Int?, index: Int)] = []
            var index = 1
            for i in 0..<tokens[0].count {
                elements.append((i, index))
                index = tokens[index].next
            }
            return batch(model, body, tokens, elements: elements, options: options, object: false)
        }
    }

    /// `POST /convert|/normalize/{Model}/dictionary`: an object whose values are objects; keys kept.
    public func convertDictionary(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        -> Result<Converted, MappingError>
    {
        guard let model = model(named: name) else { return .failure(.unknownModel(name)) }
        return withTape(body, options) { tokens in
            guard tokens[0].kind == .object else { return .failure(.notAnObject(Self.shapeMessage(tokens[0], "an object"))) }
            var elements: [(key: Int?, index: Int)] = []
            var converter = Converter(snapshot: self, options: options, input: body, tokens: tokens)
            for member in converter.resolvedMembers(ValueRef(document: 0, index: 0)) {
                elements.append((member.key, member.key + 1))
            }
            return batch(model, body, tokens, elements: elements, options: options, object: true,
                         duplicates: converter.diagnostics)
        }
    }

    /// `POST /validate/{Model}/array` with a JSON array: one report over every element.
    public func validateArray(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        -> Result<ValidationReport, MappingError>
    {
        guard let model = model(named: name) else { return .failure(.unknownModel(name)) }
        var modelOptions = options
        modelOptions.output = .model
        return withTape(body, options) { tokens in
            guard tokens[0].kind == .array else { return .failure(.notAnArray(Self.shapeMessage(tokens[0], "an array"))) }
            var all = Diagnostics(strict: options.mode == .strict)
            var result: [UInt8] = [.openBracket]
            var index = 1
            for i in 0..<tokens[0].count {
                if i > 0 { result.append(.comma) }
                if tokens[index].kind != .object {
                    all.record("/\(i)", .wrongType, Self.elementShapeMessage(tokens[index]), isError: true)
                    result.append(contentsOf: "null".utf8)
                } else {
                    let run = run(model, body, tokens, index: index, options: modelOptions)
                    all.append(run.diagnostics, prefix: "/\(i)")
                    result.append(contentsOf: run.diagnostics.errorCount > 0 ? Array("null".utf8) : run.out)
                }
                index = tokens[index].next
            }
            result.append(.closeBracket)
            let report = ValidationReport(model: model.name, built: nil, result: result, entries: all.entries,
                                          maxEntries: options.maxReportEntries)
            return report.isValid ? .success(report) : .failure(.validationFailed(report))
        }
    }

    /// Converts batch elements (array indexes, or dictionary key tokens) and assembles the output or the report
    /// (the report's `result`, built only in strict mode, the one mode that can answer with it).
    private func batch(_ model: CompiledModel, _ body: UnsafeRawBufferPointer, _ tokens: UnsafeBufferPointer<JSONToken>,
                       elements: [(key: Int?, index: Int)], options: ConversionOptions, object: Bool,
                       duplicates: Diagnostics? = nil) -> Result<Converted, MappingError> {
        let strict = options.mode == .strict
        var all = duplicates ?? Diagnostics(strict: strict)
        var output: [UInt8] = [object ? .openBrace : .openBracket]
        output.reserveCapacity(body.count / 2)
        var strictResult: [UInt8] = [object ? .openBrace : .openBracket]
        var failed = false
        var warnings = all.entries.count
        for (n, element) in elements.enumerated() {
            var keyBytes: [UInt8] = []
            // The element's pointer, the prefix of its entries' paths (built only when it has entries).
            let prefix: () -> String
            if object {
                var decoded: [UInt8] = []
                JSONStrings.decode(tokens[element.key!], in: body, into: &decoded)
                prefix = { "/" + JSONPointer.escape(decoded) }
                JSONStrings.writeQuoted(decoded, into: &keyBytes)
                keyBytes.append(.colon)
            } else {
                prefix = { "/\(element.key!)" }
            }
            if strict {
                if n > 0 { strictResult.append(.comma) }
                strictResult.append(contentsOf: keyBytes)
            }
            guard tokens[element.index].kind == .object else {
                failed = true
                warnings += 1
                let message = Self.elementShapeMessage(tokens[element.index])
                if strict {
                    all.record(prefix(), .wrongType, message, isError: true)
                    strictResult.append(contentsOf: "null".utf8)
                } else {
                    all.record(prefix(), .elementDropped, "element dropped: " + message, isError: false)
                }
                continue
            }
            let run = run(model, body, tokens, index: element.index, options: options)
            if run.diagnostics.errorCount > 0 {
                failed = true
                warnings += 1
                if strict {
                    all.append(run.diagnostics, prefix: prefix())
                    strictResult.append(contentsOf: "null".utf8)
                } else {
                    all.record(prefix(), .elementDropped, "element dropped: \(run.diagnostics.errorCount) error(s)", isError: false)
                }
                continue
            }
            if !run.diagnostics.isEmpty { all.append(run.diagnostics, prefix: prefix()) }
            warnings += run.diagnostics.entries.count
            if output.count > 1 { output.append(.comma) }
            output.append(contentsOf: keyBytes)
            output.append(contentsOf: run.out)
            if strict {
                strictResult.append(contentsOf: modelForm(run, model, body, tokens, index: element.index, options: options))
            }
        }
        output.append(object ? .closeBrace : .closeBracket)
        strictResult.append(object ? .closeBrace : .closeBracket)
        if strict, failed || all.errorCount > 0 {
            return .failure(.validationFailed(ValidationReport(model: model.name, built: nil, result: strictResult,
                                                               entries: all.entries, maxEntries: options.maxReportEntries)))
        }
        return .success(Converted(body: output, warnings: warnings, modelHash: nil, diagnostics: all.entries))
    }
}
