// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `TransformServer convert <Model> …`: standard input to standard output with the engine and bytes of the HTTP
/// API. Exit 0 on success (lax warnings summarised on standard error), 1 on invalid JSON or an invalid model (the
/// report on standard error), 2 on usage errors, a bad configuration value, an unknown model or a broken schema
/// directory.
enum ConvertCommand {
    struct Arguments: Equatable {
        enum Batch: Equatable { case single, array, dictionary, ndjson }
        var model = ""
        var options = ConversionOptions()
        var batch = Batch.single
        /// `--merge`: standard input is `{"target": …, "patch": …}`, as the body of `POST /merge/{Model}`.
        var merge = false
        var config: String?
        var schemas: String?
    }

    enum UsageError: Error, Equatable, CustomStringConvertible {
        case missingModel, unknownFlag(String), missingValue(String), badValue(String, String), conflicting(String)

        var description: String {
            switch self {
            case .missingModel: "convert needs a model name."
            case .unknownFlag(let flag): "unknown option '\(flag)'."
            case .missingValue(let flag): "option '\(flag)' needs a value."
            case .badValue(let flag, let value): "option '\(flag)' does not take '\(value)'."
            case .conflicting(let why): why
            }
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
        var result = Arguments()
        var normalize = false
        var batches = 0
        var iterator = arguments.makeIterator()
        func value(_ flag: String) throws(UsageError) -> String {
            guard let value = iterator.next() else { throw .missingValue(flag) }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--normalize": normalize = true
            case "--strict": result.options.mode = .strict
            case "--from":
                let form = try value(argument)
                guard let parsed = ConversionOptions.Form(rawValue: form) else { throw .badValue(argument, form) }
                result.options.input = parsed
            case "--merge": result.merge = true
            case "--array": result.batch = .array; batches += 1
            case "--dictionary": result.batch = .dictionary; batches += 1
            case "--ndjson": result.batch = .ndjson; batches += 1
            case "--config": result.config = try value(argument)
            case "--schemas": result.schemas = try value(argument)
            default:
                guard !argument.hasPrefix("-"), result.model.isEmpty else { throw .unknownFlag(argument) }
                result.model = argument
            }
        }
        guard !result.model.isEmpty else { throw .missingModel }
        guard batches <= 1 else { throw .conflicting("--array, --dictionary and --ndjson exclude each other.") }
        guard !result.merge || (batches == 0 && result.options.input == .wire) else {
            throw .conflicting(
                "--merge takes one {\"target\", \"patch\"} object: no --from, --array, --dictionary or --ndjson.")
        }
        result.options.output = normalize ? .wire : .model
        return result
    }

    static func run(_ arguments: [String]) -> Int32 {
        let parsed: Arguments
        do throws(UsageError) {
            parsed = try parse(arguments)
        } catch {
            StandardIO.error(
                "TransformServer convert: \(error.description)\n"
                    + "usage: TransformServer convert <Model> [options]; 'TransformServer convert --help' lists them.")
            return 2
        }
        // The configuration's nesting, NDJSON-line and report limits apply, but no body limit (docs/operations.md,
        // "Limits"): from `<config>/server.json` and the TRANSFORM_* environment, as `serve` reads them. So does
        // `batchWorkers`.
        let configuration: ServerConfiguration
        switch ServerConfiguration.load(arguments: parsed.config.map { ["--config=\($0)"] } ?? []) {
        case .success(let (loaded, warnings)):
            // As `serve` does: a TRANSFORM_* variable that names no setting is probably a typo.
            for warning in warnings { StandardIO.error("TransformServer convert: \(warning)") }
            configuration = loaded
        case .failure(let error):
            StandardIO.error("TransformServer convert: \(error.description)")
            return 2
        }
        var options = parsed.options
        options.maxDepth = configuration.maxNestingDepth
        options.maxReportEntries = configuration.maxReportEntries
        options.maxRuleSteps = configuration.maxRuleSteps
        options.maxRuleBytes = configuration.maxBodyBytes
        options.batchWorkers = configuration.resolvedBatchWorkers
        options.keepsEntries = false  // a success is summarised by its count
        let maxLineBytes = configuration.maxNdjsonLineBytes
        let source = SchemaSource.resolve(config: parsed.config, schemas: parsed.schemas)
        let registry = SchemaRegistry()
        do {
            try registry.load(try source.files(), overlay: try source.overlay())
        } catch let error as SchemaSetError {
            for problem in error.problems { StandardIO.error(problem.description) }
            return 2
        } catch {
            StandardIO.error("TransformServer convert: \(error)")
            return 2
        }
        let snapshot = registry.current
        guard snapshot.contains(parsed.model) else {
            StandardIO.error("TransformServer convert: no model named \"\(parsed.model)\" in \(source.label).")
            return 2
        }
        if parsed.batch == .ndjson { return streamNDJSON(snapshot, parsed.model, options, maxLineBytes: maxLineBytes) }
        let input = StandardIO.readAll()
        let result = input.withUnsafeBytes { body in
            Result { () throws(MappingError) -> Converted in
                switch parsed.batch {
                case .single where parsed.merge: return try snapshot.merge(body, model: parsed.model, options: options)
                case .single: return try snapshot.convert(body, model: parsed.model, options: options)
                case .array: return try snapshot.convertArray(body, model: parsed.model, options: options)
                case .dictionary: return try snapshot.convertDictionary(body, model: parsed.model, options: options)
                case .ndjson: preconditionFailure("streamed above")
                }
            }
        }
        switch result {
        case .success(let converted):
            // A terminal or a shell pipeline expects a last newline; the HTTP body stays without one.
            StandardIO.write(
                converted.body.last == UInt8(ascii: "\n") ? converted.body : converted.body + [UInt8(ascii: "\n")])
            if converted.warnings > 0 {
                StandardIO.error("\(converted.warnings) warning\(converted.warnings == 1 ? "" : "s")")
            }
            return 0
        case .failure(let error):
            StandardIO.write(ErrorResponse.body(error, requestId: nil) + [UInt8(ascii: "\n")], to: 2)
            return 1
        }
    }

    /// NDJSON flows through in bounded memory: each chunk read is fed to the converter and completed lines are
    /// written at once.
    private static func streamNDJSON(
        _ snapshot: RegistrySnapshot, _ model: String, _ options: ConversionOptions,
        maxLineBytes: Int
    ) -> Int32 {
        var converter = NDJSONConverter(
            snapshot: snapshot, model: model, options: options, maxLineBytes: maxLineBytes,
            records: ErrorResponse.writeRecord)
        StandardIO.readChunks { chunk in
            StandardIO.write(converter.feed(chunk))
            return !converter.isFinished
        }
        StandardIO.write(converter.finish())
        if converter.warnings > converter.errorLines {
            let warnings = converter.warnings - converter.errorLines
            StandardIO.error("\(warnings) warning\(warnings == 1 ? "" : "s")")
        }
        return converter.errorLines > 0 ? 1 : 0
    }
}
