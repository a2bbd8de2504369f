// SPDX-License-Identifier: Apache-2.0

/// MapperCore's public entry points: bytes in, bytes out, `throws(MappingError)`; thread-safe, no I/O.
///
///     let registry = SchemaRegistry()
///     try registry.load([SchemaFile(name: "user.json", bytes: …)])
///     let converted = try registry.current.convert(body, model: "User", options: ConversionOptions())

/// A successful conversion.
public struct Converted: Sendable {
    /// The response body.
    public var body: [UInt8]
    /// Entries counted in `X-Transform-Warnings`.
    public var warnings: Int
    /// `X-Model-Hash`, when asked for.
    public var modelHash: String?
    /// The entries, as bytes until read; nil when there are none (the usual case: nothing to copy or release).
    let report: Diagnostics?
    /// `ConversionOptions.keepsEntries` of the conversion.
    private let keptEntries: Bool

    /// Every entry; the strings are made on each read. Empty when the conversion did not keep them
    /// (`ConversionOptions.keepsEntries` off), whether or not its paths were rendered.
    public var diagnostics: [Diagnostic] { keptEntries ? report?.entries ?? [] : [] }
    /// The code of every entry, in report order (for metrics; makes no strings).
    public var diagnosticCodes: [DiagnosticCode] { report?.codes ?? [] }

    init(body: [UInt8], warnings: Int, modelHash: String?, report: Diagnostics, keptEntries: Bool = true) {
        self.body = body
        self.warnings = warnings
        self.modelHash = modelHash
        self.report = report.isEmpty ? nil : report
        self.keptEntries = keptEntries
    }
}

/// One converted object: its output, entries, and the model built.
struct Run {
    var out: [UInt8]
    var diagnostics: Diagnostics
    var built: CompiledModel?
    var builtAt: [Int: Int]
}

extension RegistrySnapshot {
    /// Scans `body` and hands the tape to `work`, mapping JSON syntax failures to errors.
    func withTape<R>(
        _ body: UnsafeRawBufferPointer, _ options: ConversionOptions,
        _ work: (UnsafeBufferPointer<JSONToken>) -> Result<R, MappingError>
    ) -> Result<R, MappingError> {
        var tape = JSONTape.pool.take() ?? JSONTape()
        let result: Result<R, MappingError>
        do throws(JSONSyntaxError) {
            try JSONScanner.scan(body, into: &tape, maxDepth: options.maxDepth)
            result = tape.tokens.withUnsafeBufferPointer { work($0) }
        } catch {
            let location = JSONErrorLocation(error, in: body)
            result = .failure(error.isNestingTooDeep ? .nestingTooDeep(location) : .invalidJSON(location))
        }
        JSONTape.pool.give(tape)  // its last use: handed over, not copied
        return result
    }

    /// Converts the object at token `index` of the body as `model`.
    func run(
        _ model: CompiledModel, _ body: UnsafeRawBufferPointer, _ tokens: UnsafeBufferPointer<JSONToken>,
        index: Int, options: ConversionOptions, recordingBuilt: Bool = false,
        keepingEntries: Bool = true
    ) -> Run {
        // Output is rarely larger than its input object: one allocation instead of a doubling series.
        var converter = Converter(
            snapshot: self, options: options, input: body, tokens: tokens,
            outputCapacity: tokens[index].end - tokens[index].start + 64)
        converter.recordsBuilt = recordingBuilt
        if !keepingEntries { converter.diagnostics.deferPointers(to: converter.documents[0]) }
        converter.convertRootObject(ValueRef(document: 0, index: index), as: model)
        let out = converter.out.array
        converter.recycleScratch()
        converter.diagnostics.stopDeferring()
        return Run(
            out: out, diagnostics: converter.diagnostics, built: converter.rootBuilt,
            builtAt: converter.builtAt)
    }

    /// The same conversion in model form (report results and hashes), reusing `run` when it already is.
    func modelForm(
        _ run: Run, _ model: CompiledModel, _ body: UnsafeRawBufferPointer,
        _ tokens: UnsafeBufferPointer<JSONToken>, index: Int, options: ConversionOptions
    ) -> [UInt8] {
        if options.output == .model { return run.out }
        var modelOptions = options
        modelOptions.output = .model
        return self.run(model, body, tokens, index: index, options: modelOptions).out
    }

    /// `X-Model-Hash`: the SHA-256 of the identity form (`IdentityForm`) of the model form, from `run` when it is
    /// that form (converted with `recordingBuilt`), else from a model-form conversion made for it.
    func identityHash(
        _ run: Run, _ model: CompiledModel, _ body: UnsafeRawBufferPointer,
        _ tokens: UnsafeBufferPointer<JSONToken>, index: Int, options: ConversionOptions
    ) -> String {
        var modelOptions = options
        modelOptions.output = .model
        let form =
            options.output == .model
            ? run : self.run(model, body, tokens, index: index, options: modelOptions, recordingBuilt: true)
        return SHA256.hexDigest(IdentityForm.of(form.out, as: model, builtAt: form.builtAt, in: self))
    }

    /// Converts one object to `model`, in the output form `options` asks for.
    public func convert(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        throws(MappingError) -> Converted
    {
        guard let model = model(named: name) else { throw .unknownModel(name) }
        return try withTape(body, options) { tokens in
            guard tokens[0].kind == .object else {
                return .failure(.notAnObject(Self.shapeMessage(tokens[0], "an object")))
            }
            let run = run(
                model, body, tokens, index: 0, options: options, recordingBuilt: options.hash,
                keepingEntries: options.keepsEntries)
            if run.diagnostics.errorCount > 0 {
                let result = modelForm(run, model, body, tokens, index: 0, options: options)
                return .failure(
                    .validationFailed(
                        ValidationReport(
                            model: model.name, built: run.built?.name, result: result, entries: run.diagnostics.entries,
                            maxEntries: options.maxReportEntries)))
            }
            let hash = options.hash ? identityHash(run, model, body, tokens, index: 0, options: options) : nil
            return .success(
                Converted(
                    body: run.out, warnings: run.diagnostics.count, modelHash: hash,
                    report: run.diagnostics, keptEntries: options.keepsEntries))
        }.get()
    }

    /// Validates one object as `model`: the report when it is valid, else the `validationFailed` failure.
    public func validate(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        throws(MappingError) -> (report: ValidationReport, modelHash: String?)
    {
        guard let model = model(named: name) else { throw .unknownModel(name) }
        var modelOptions = options
        modelOptions.output = .model
        return try withTape(body, options) { tokens in
            guard tokens[0].kind == .object else {
                return .failure(.notAnObject(Self.shapeMessage(tokens[0], "an object")))
            }
            let run = run(model, body, tokens, index: 0, options: modelOptions, recordingBuilt: options.hash)
            let report = ValidationReport(
                model: model.name, built: run.built?.name, result: run.out,
                entries: run.diagnostics.entries, maxEntries: options.maxReportEntries)
            guard report.isValid else { return .failure(.validationFailed(report)) }
            return .success(
                (report, options.hash ? identityHash(run, model, body, tokens, index: 0, options: modelOptions) : nil))
        }.get()
    }

    static func shapeMessage(_ token: JSONToken, _ expected: String) -> String {
        "the body must be \(expected), not \(kindPhrase(token))"
    }

    /// `expected an object, got an array` for a batch element that is not an object.
    static func elementShapeMessage(_ token: JSONToken) -> String { "expected an object, got \(kindPhrase(token))" }

    static func kindPhrase(_ token: JSONToken) -> String {
        let found: String
        switch token.kind {
        case .object: found = "an object"
        case .array: found = "an array"
        case .string: found = "a string"
        case .number: found = "a number"
        case .true, .false: found = "a boolean"
        case .null: found = "null"
        }
        return found
    }
}
