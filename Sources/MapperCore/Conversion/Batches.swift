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
            converter.recycleScratch()  // `batch` takes its own
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
    ///
    /// One converter serves every element and writes straight into the output; an element that fails is cut off
    /// again. Its report starts empty for each element, so elements are judged one by one as before.
    private func batch(_ model: CompiledModel, _ body: UnsafeRawBufferPointer, _ tokens: UnsafeBufferPointer<JSONToken>,
                       elements: [(key: Int?, index: Int)], options: ConversionOptions, object: Bool,
                       duplicates: Diagnostics? = nil) -> Result<Converted, MappingError> {
        let strict = options.mode == .strict
        var all = duplicates ?? Diagnostics(strict: strict)
        var converter = Converter(snapshot: self, options: options, input: body, tokens: tokens)
        converter.out.reserveCapacity(body.count / 2)
        converter.out.append(object ? .openBrace : .openBracket)
        var strictResult: [UInt8] = [object ? .openBrace : .openBracket]
        var failed = false
        var warnings = all.count
        for (n, element) in elements.enumerated() {
            var keyBytes: [UInt8] = []
            var decoded: [UInt8] = []
            if object {
                JSONStrings.decode(tokens[element.key!], in: body, into: &decoded)
                JSONStrings.writeQuoted(decoded, into: &keyBytes)
                keyBytes.append(.colon)
            }
            // The element's pointer, the prefix of its entries' paths (built only when it has entries; a local
            // function, not a closure value, so that no context is allocated per element).
            func prefix() -> String { object ? "/" + JSONPointer.escape(decoded) : "/\(element.key!)" }
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
            let elementStart = converter.out.count
            if elementStart > 1 { converter.out.append(.comma) }
            if object { converter.out.append(contentsOf: keyBytes) }
            let valueStart = converter.out.count
            converter.startObject()
            converter.convertObject(ValueRef(document: 0, index: element.index), as: model)
            let diagnostics = converter.diagnostics
            if diagnostics.errorCount > 0 {
                converter.out.removeSubrange(elementStart...)
                failed = true
                warnings += 1
                if strict {
                    all.append(diagnostics, prefix: prefix())
                    strictResult.append(contentsOf: "null".utf8)
                } else {
                    all.record(prefix(), .elementDropped, "element dropped: \(diagnostics.errorCount) error(s)", isError: false)
                }
                continue
            }
            if !diagnostics.isEmpty { all.append(diagnostics, prefix: prefix()) }
            warnings += diagnostics.count
            if strict {
                if options.output == .model {
                    strictResult.append(contentsOf: converter.out[valueStart...])
                } else {
                    var modelOptions = options
                    modelOptions.output = .model
                    strictResult.append(contentsOf: run(model, body, tokens, index: element.index, options: modelOptions).out)
                }
            }
        }
        converter.out.append(object ? .closeBrace : .closeBracket)
        converter.recycleScratch()
        strictResult.append(object ? .closeBrace : .closeBracket)
        if strict, failed || all.errorCount > 0 {
            return .failure(.validationFailed(ValidationReport(model: model.name, built: nil, result: strictResult,
                                                               entries: all.entries, maxEntries: options.maxReportEntries)))
        }
        return .success(Converted(body: converter.out, warnings: warnings, modelHash: nil, report: all))
    }
}
