// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

/// MapperCore without HTTP: one conversion, timed (docs/performance.md).
///
///     TransformBench convert --schemas DIR --model M --input FILE [--normalize] [--array] [--seconds N]
///                            [--print | --iterations N]
///
/// Prints one JSON line `{"model":…,"input_bytes":…,"ns_per_op":…,"mb_per_s":…}`: the median of the timed rounds
/// that follow a warm-up. `--print` writes the converted output once instead (to check it against a peer's);
/// `--iterations N` runs exactly N conversions untimed (for instruction counts under callgrind).
@main
enum TransformBench {
    struct Arguments {
        var schemas = ""
        var model = ""
        var input = ""
        var normalize = false
        var array = false
        var seconds = 3.0
        var print = false
        var iterations: Int?
    }

    static let usage = """
        usage: TransformBench convert --schemas DIR --model M --input FILE [--normalize] [--array] [--seconds N]
                                      [--print | --iterations N]
        """

    static func main() {
        guard let arguments = parse(Array(CommandLine.arguments.dropFirst())) else {
            BenchmarkTiming.fail(usage, status: 2)
        }
        let registry = SchemaRegistry()
        do {
            try registry.load(try schemaFiles(in: arguments.schemas))
        } catch {
            BenchmarkTiming.fail("TransformBench: the schemas in \(arguments.schemas) do not load: \(error)", status: 2)
        }
        guard let input = FileManager.default.contents(atPath: arguments.input).map({ [UInt8]($0) }) else {
            BenchmarkTiming.fail("TransformBench: cannot read \(arguments.input)", status: 2)
        }
        let snapshot = registry.current
        var options = ConversionOptions()
        options.output = arguments.normalize ? .wire : .model
        let convert = { () -> Converted? in
            input.withUnsafeBytes { body in
                let result = arguments.array
                    ? snapshot.convertArray(body, model: arguments.model, options: options)
                    : snapshot.convert(body, model: arguments.model, options: options)
                return try? result.get()
            }
        }
        guard let first = convert() else {
            let failure = input.withUnsafeBytes { snapshot.convert($0, model: arguments.model, options: options) }
            BenchmarkTiming.fail(
                "TransformBench: \(arguments.input) does not convert as \(arguments.model): \(failure)", status: 1)
        }
        BenchmarkTiming.run(output: first.body, print: arguments.print, iterations: arguments.iterations,
                            seconds: arguments.seconds, model: arguments.model, inputBytes: input.count) {
            BenchmarkTiming.blackHole(convert())
        }
    }

    static func parse(_ arguments: [String]) -> Arguments? {
        guard arguments.first == "convert" else { return nil }
        var result = Arguments()
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--normalize": result.normalize = true
            case "--array": result.array = true
            case "--print": result.print = true
            case "--schemas": guard let value = iterator.next() else { return nil }; result.schemas = value
            case "--model": guard let value = iterator.next() else { return nil }; result.model = value
            case "--input": guard let value = iterator.next() else { return nil }; result.input = value
            case "--seconds":
                guard let value = iterator.next().flatMap(Double.init), value > 0 else { return nil }
                result.seconds = value
            case "--iterations":
                guard let value = iterator.next().flatMap({ Int($0) }), value >= 0 else { return nil }
                result.iterations = value
            default: return nil
            }
        }
        guard !result.schemas.isEmpty, !result.model.isEmpty, !result.input.isEmpty else { return nil }
        return result
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
