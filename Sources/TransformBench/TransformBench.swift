// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

#if canImport(Glibc)
import Glibc
#endif

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
            fail(usage, status: 2)
        }
        let registry = SchemaRegistry()
        do {
            try registry.load(try schemaFiles(in: arguments.schemas))
        } catch {
            fail("TransformBench: the schemas in \(arguments.schemas) do not load: \(error)", status: 2)
        }
        guard let input = FileManager.default.contents(atPath: arguments.input).map({ [UInt8]($0) }) else {
            fail("TransformBench: cannot read \(arguments.input)", status: 2)
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
            fail("TransformBench: \(arguments.input) does not convert as \(arguments.model): \(failure)", status: 1)
        }
        if arguments.print {
            write(first.body, to: 1)
            return
        }
        if let iterations = arguments.iterations {
            for _ in 0..<iterations { blackHole(convert()) }
            return
        }
        let nanoseconds = measure(seconds: arguments.seconds) { blackHole(convert()) }
        let megabytesPerSecond = Double(input.count) / nanoseconds * 1_000
        print("{\"model\":\"\(arguments.model)\",\"input_bytes\":\(input.count),"
            + "\"ns_per_op\":\(rounded(nanoseconds)),\"mb_per_s\":\(rounded(megabytesPerSecond))}")
    }

    /// Nanoseconds per call of `work`: a warm-up of a tenth of the budget sizes the batch, then the median of
    /// nine rounds of equal batches.
    static func measure(seconds: Double, _ work: () -> Void) -> Double {
        let rounds = 9
        let warmUp = seconds / 10
        var calls = 0
        let warmStart = now()
        while now() - warmStart < warmUp * 1e9 || calls == 0 {
            work()
            calls += 1
        }
        let perCall = (now() - warmStart) / Double(calls)
        let batch = max(1, Int(seconds * 0.9 * 1e9 / Double(rounds) / perCall))
        var samples: [Double] = []
        for _ in 0..<rounds {
            let start = now()
            for _ in 0..<batch { work() }
            samples.append((now() - start) / Double(batch))
        }
        return samples.sorted()[rounds / 2]
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    /// Keeps the optimiser from dropping a result that nothing reads.
    @inline(never)
    static func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

    static func rounded(_ value: Double) -> String {
        String(Double(Int(value * 10 + 0.5)) / 10)
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

    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        write(Array((message + "\n").utf8), to: 2)
        exit(status)
    }
}
