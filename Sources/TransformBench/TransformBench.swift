// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

/// MapperCore without HTTP: one conversion, timed (docs/performance.md).
///
///     TransformBench convert --schemas DIR --model M --input FILE [--normalize] [--array] [--hash] [--workers N]
///                            [--seconds N] [--print | --iterations N]
///
/// Prints one JSON line `{"model":…,"input_bytes":…,"ns_per_op":…,"mb_per_s":…}`: the median of the timed rounds
/// that follow a warm-up. `--print` writes the converted output once instead (to check it against a peer's);
/// `--iterations N` runs exactly N conversions untimed (for instruction counts under callgrind). `--hash` adds the
/// model hash, as `?hash=true` does. `--workers N` converts a batch on up to N threads (`batchWorkers`; default 1).
/// The options are the server's otherwise: a success keeps its warnings' count and codes only (`keepsEntries`).
@main
enum TransformBench {
    static let usage = """
        usage: TransformBench convert --schemas DIR --model M --input FILE [--normalize] [--array] [--hash]
                                      [--workers N] [--seconds N] [--print | --iterations N]
        """

    static func main() {
        var schemas = ""
        var normalize = false
        var hash = false
        var workers = 1
        let parsed = BenchmarkArguments.parse(Array(CommandLine.arguments.dropFirst())) { option, value in
            switch option {
            case "--normalize": normalize = true; return true
            case "--hash": hash = true; return true
            case "--schemas": schemas = value() ?? ""; return !schemas.isEmpty
            case "--workers":
                guard let count = value().flatMap({ Int($0) }), count >= 1 else { return false }
                workers = count
                return true
            default: return false
            }
        }
        guard let arguments = parsed, !schemas.isEmpty else { BenchmarkTiming.fail(usage, status: 2) }
        let registry = SchemaRegistry()
        do {
            try registry.load(try schemaFiles(in: schemas))
        } catch {
            BenchmarkTiming.fail("TransformBench: the schemas in \(schemas) do not load: \(error)", status: 2)
        }
        guard let input = FileManager.default.contents(atPath: arguments.input).map({ [UInt8]($0) }) else {
            BenchmarkTiming.fail("TransformBench: cannot read \(arguments.input)", status: 2)
        }
        let snapshot = registry.current
        var options = ConversionOptions()
        options.output = normalize ? .wire : .model
        options.hash = hash
        options.batchWorkers = workers
        options.keepsEntries = false  // as the server's `/convert` and `/normalize`
        // Sendable closures, so that the timed work carries no main-actor check on each call (about 250
        // instructions, which `main`'s own closures would pay).
        let convert = { @Sendable [options] () -> Converted? in
            input.withUnsafeBytes { body in
                try? arguments.array
                    ? snapshot.convertArray(body, model: arguments.model, options: options)
                    : snapshot.convert(body, model: arguments.model, options: options)
            }
        }
        guard let first = convert() else {
            let failure = input.withUnsafeBytes { body in
                Result { () throws(MappingError) in try snapshot.convert(body, model: arguments.model, options: options)
                }
            }
            BenchmarkTiming.fail(
                "TransformBench: \(arguments.input) does not convert as \(arguments.model): \(failure)", status: 1)
        }
        BenchmarkTiming.run(
            output: first.body, print: arguments.print, iterations: arguments.iterations,
            seconds: arguments.seconds, model: arguments.model, inputBytes: input.count
        ) { @Sendable in
            BenchmarkTiming.blackHole(convert())
        }
    }

    /// The top-level `*.json` files of `directory`, as the server reads them.
    static func schemaFiles(in directory: String) throws -> [SchemaFile] {
        try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .sorted()
            .map { name in
                guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                    throw CocoaError(.fileReadUnknown)
                }
                return SchemaFile(name: name, bytes: [UInt8](data))
            }
    }
}
