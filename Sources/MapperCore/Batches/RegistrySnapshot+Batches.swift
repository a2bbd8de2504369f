// SPDX-License-Identifier: Apache-2.0

import Dispatch

extension RegistrySnapshot {
    /// Converts a JSON array of objects (YYModel's `modelArrayWithClass`): elements that are not objects or that
    /// fail are left out, one `element_dropped` counted for each; in strict mode any failure is one
    /// `validationFailed` report for the whole batch with paths prefixed by the element's index.
    public func convertArray(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        throws(MappingError) -> Converted
    {
        guard let model = model(named: name) else { throw .unknownModel(name) }
        return try withTape(body, options) { tokens in
            guard tokens[0].kind == .array else {
                return .failure(.notAnArray(Self.shapeMessage(tokens[0], "an array")))
            }
            var elements: [(key: Int?, index: Int)] = []
            var index = 1
            for i in 0..<tokens[0].count {
                elements.append((i, index))
                index = tokens[index].next
            }
            return batch(model, body, tokens, elements: elements, options: options, object: false)
        }.get()
    }

    /// Converts an object whose values are objects; keys kept.
    public func convertDictionary(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        throws(MappingError) -> Converted
    {
        guard let model = model(named: name) else { throw .unknownModel(name) }
        return try withTape(body, options) { tokens in
            guard tokens[0].kind == .object else {
                return .failure(.notAnObject(Self.shapeMessage(tokens[0], "an object")))
            }
            var elements: [(key: Int?, index: Int)] = []
            var converter = Converter(snapshot: self, options: options, input: body, tokens: tokens, outputCapacity: 0)
            for member in converter.resolvedMembers(ValueRef(document: 0, index: 0)) {
                elements.append((member.key, member.key + 1))
            }
            converter.recycleScratch()  // `batch` takes its own
            return batch(
                model, body, tokens, elements: elements, options: options, object: true,
                duplicates: converter.diagnostics)
        }.get()
    }

    /// Validates a JSON array of objects: one report over every element.
    public func validateArray(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        throws(MappingError) -> ValidationReport
    {
        guard let model = model(named: name) else { throw .unknownModel(name) }
        var modelOptions = options
        modelOptions.output = .model
        return try withTape(body, options) { tokens in
            guard tokens[0].kind == .array else {
                return .failure(.notAnArray(Self.shapeMessage(tokens[0], "an array")))
            }
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
            let report = ValidationReport(
                model: model.name, built: nil, result: result, entries: all.entries,
                maxEntries: options.maxReportEntries)
            return report.isValid ? .success(report) : .failure(.validationFailed(report))
        }.get()
    }

    /// Converts batch elements (array indexes, or dictionary key tokens) and assembles the output or the report
    /// (the report's `result`, built only in strict mode, the one mode that can answer with it).
    ///
    /// A large batch is cut into runs of consecutive elements (`batchRuns`), converted at the same time on up to
    /// `options.batchWorkers` threads and joined in order: the joined parts are the bytes and entries one thread
    /// makes, element by element. Each worker takes the next run not yet taken, so a worker on a slower core
    /// takes fewer runs instead of holding the others up.
    private func batch(
        _ model: CompiledModel, _ body: UnsafeRawBufferPointer, _ tokens: UnsafeBufferPointer<JSONToken>,
        elements: [(key: Int?, index: Int)], options: ConversionOptions, object: Bool,
        duplicates: Diagnostics? = nil
    ) -> Result<Converted, MappingError> {
        let runs = Self.batchRuns(count: elements.count, workers: options.batchWorkers)
        let opening: UInt8 = object ? .openBrace : .openBracket
        let strict = options.mode == .strict
        // The first run's part holds the opening bracket and room for the whole output, which the others join.
        let capacity = body.count / 2
        let report = duplicates ?? Diagnostics(strict: strict)
        var part: BatchPart
        if runs.count == 1 {
            part = BatchPart(opening: opening, reserving: capacity, all: report)
            batchPart(&part, model, body, tokens, elements[...], options: options, object: object)
        } else {
            let parts = Locked([BatchPart?](repeating: nil, count: runs.count))
            let taken = Locked(0)  // runs handed out so far
            let shared = SharedInput(body: body, tokens: tokens)
            DispatchQueue.concurrentPerform(iterations: min(options.batchWorkers, runs.count)) { _ in
                while true {
                    let run = taken.withLock { count in
                        defer { count += 1 }
                        return count
                    }
                    guard run < runs.count else { return }
                    var mine =
                        run == 0
                        ? BatchPart(opening: opening, reserving: capacity, all: report)
                        : BatchPart(opening: nil, reserving: capacity / runs.count, all: Diagnostics(strict: strict))
                    batchPart(
                        &mine, model, shared.body, shared.tokens, elements[runs[run]], options: options,
                        object: object)
                    parts.withLock { $0[run] = mine }
                }
            }
            // Moved out of the lock and out of their optionals, so that each part's arrays stay uniquely owned (the
            // outputs are `OutputBuffer`s, which the first part's grows in place to join the others).
            var finished = parts.withLock { stored in
                var taken: [BatchPart?] = []
                swap(&taken, &stored)
                return taken
            }
            part = finished[0].take()!
            for index in 1..<finished.count { part.join(finished[index].take()!) }
        }
        part.out.append(object ? .closeBrace : .closeBracket)
        if strict, part.failed || part.all.errorCount > 0 {
            let result = [opening] + part.strictResult + [object ? .closeBrace : .closeBracket]
            return .failure(
                .validationFailed(
                    ValidationReport(
                        model: model.name, built: nil, result: result,
                        entries: part.all.entries, maxEntries: options.maxReportEntries)))
        }
        return .success(Converted(body: part.out.array, warnings: part.warnings, modelHash: nil, report: part.all))
    }

    /// Batch elements per run at the least: a run is handed to another thread only when it is at least this long
    /// (about 100 µs of work for GitHub users), so that the hand-over cost stays small beside it.
    static let minimumElementsPerRun = 64

    /// Runs per worker at the most: enough that a worker on a slower core (these machines share theirs) leaves
    /// runs to the others, few enough that joining them stays cheap.
    static let runsPerWorker = 4

    /// The runs of consecutive elements a batch of `count` elements is cut into for up to `workers` threads, of
    /// sizes differing by at most one: `runsPerWorker` per worker, each at least `minimumElementsPerRun` long,
    /// or the whole batch as one run (on the calling thread) when fewer than two such runs fit or `workers` is 1.
    static func batchRuns(count: Int, workers: Int) -> [Range<Int>] {
        let fitting = count / minimumElementsPerRun
        let parts = workers > 1 && fitting > 1 ? min(fitting, workers * runsPerWorker) : 1
        return (0..<parts).map { count * $0 / parts..<count * ($0 + 1) / parts }
    }

    /// Converts a run of batch elements, adding to `part`. One converter serves every element and writes straight
    /// into the output; an element that fails is cut off again. Its report starts empty for each element, so
    /// elements are judged one by one.
    private func batchPart(
        _ part: inout BatchPart, _ model: CompiledModel, _ body: UnsafeRawBufferPointer,
        _ tokens: UnsafeBufferPointer<JSONToken>, _ elements: ArraySlice<(key: Int?, index: Int)>,
        options: ConversionOptions, object: Bool
    ) {
        let strict = options.mode == .strict
        var converter = Converter(
            snapshot: self, options: options, input: body, tokens: tokens,
            outputCapacity: 0)  // (it writes into the part's buffer, swapped in)
        swap(&converter.out, &part.out)
        let contentStart = converter.out.count  // after the opening bracket, in the first part
        for element in elements {
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
                if !part.strictResult.isEmpty { part.strictResult.append(.comma) }
                part.strictResult.append(contentsOf: keyBytes)
            }
            guard tokens[element.index].kind == .object else {
                part.failed = true
                part.warnings += 1
                let message = Self.elementShapeMessage(tokens[element.index])
                if strict {
                    part.all.record(prefix(), .wrongType, message, isError: true)
                    part.strictResult.append(contentsOf: "null".utf8)
                } else {
                    part.all.record(prefix(), .elementDropped, "element dropped: " + message, isError: false)
                }
                continue
            }
            let elementStart = converter.out.count
            if elementStart > contentStart { converter.out.append(.comma) }
            if object { converter.out.append(contentsOf: keyBytes) }
            let valueStart = converter.out.count
            converter.startObject()
            converter.convertRootObject(ValueRef(document: 0, index: element.index), as: model)
            let diagnostics = converter.diagnostics
            if diagnostics.errorCount > 0 {
                converter.out.truncate(to: elementStart)
                part.failed = true
                part.warnings += 1
                if strict {
                    part.all.append(diagnostics, prefix: prefix())
                    part.strictResult.append(contentsOf: "null".utf8)
                } else {
                    part.all.record(
                        prefix(), .elementDropped, "element dropped: \(diagnostics.errorCount) error(s)",
                        isError: false)
                }
                continue
            }
            if !diagnostics.isEmpty { part.all.append(diagnostics, prefix: prefix()) }
            part.warnings += diagnostics.count
            if strict {
                if options.output == .model {
                    part.strictResult.append(bytes: converter.out.bytes(valueStart..<converter.out.count))
                } else {
                    var modelOptions = options
                    modelOptions.output = .model
                    part.strictResult.append(
                        contentsOf: run(model, body, tokens, index: element.index, options: modelOptions).out)
                }
            }
        }
        swap(&converter.out, &part.out)  // (before recycling: the converter's own buffer goes back to the pool)
        converter.recycleScratch()
    }
}

/// What converting a run of consecutive batch elements made: the output (comma-separated elements, after the
/// opening bracket in the first run), strict mode's report result (comma-separated, no brackets), the entries and
/// counts. The parts of a batch, joined in order, are what one run over every element makes.
private struct BatchPart: Sendable {
    var out: OutputBuffer
    var strictResult: [UInt8] = []
    var all: Diagnostics
    var failed = false
    var warnings: Int

    init(opening: UInt8?, reserving capacity: Int, all: Diagnostics) {
        out = OutputBuffer(capacity: capacity + 1)
        if let opening { out.append(opening) }
        self.all = all
        warnings = all.count
    }

    /// Appends the next run's part (its entries are checked for repeats against these, as one run would).
    mutating func join(_ next: BatchPart) {
        if !next.out.isEmpty {
            if out.count > 1 { out.append(.comma) }
            out.append(bytes: next.out.bytes(0..<next.out.count))
        }
        if !next.strictResult.isEmpty {
            if !strictResult.isEmpty { strictResult.append(.comma) }
            strictResult.append(contentsOf: next.strictResult)
        }
        all.append(next.all, prefix: "")
        failed = failed || next.failed
        warnings += next.warnings
    }
}

/// The request body and its tape, read by every batch worker while the caller waits for them all.
private struct SharedInput: @unchecked Sendable {
    let body: UnsafeRawBufferPointer
    let tokens: UnsafeBufferPointer<JSONToken>
}
