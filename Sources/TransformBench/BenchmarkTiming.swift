// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

// Shared by TransformBench and the Codable peer (Benchmarks/Codable links this file), so that both are timed and
// report in exactly the same way.

/// How a benchmark executable times work and reports.
enum BenchmarkTiming {
    /// Nanoseconds per call of `work`: a warm-up of a tenth of the budget sizes the batch, then the median of nine
    /// rounds of equal batches.
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

    /// What both executables do once their first conversion succeeded: write its `output` (`--print`), run `work`
    /// exactly `iterations` times untimed (`--iterations`, for callgrind), or time it and print the result line.
    static func run(
        output: @autoclosure () -> [UInt8], print printing: Bool, iterations: Int?, seconds: Double,
        model: String, inputBytes: Int, _ work: () -> Void
    ) {
        if printing {
            write(output(), to: 1)
        } else if let iterations {
            for _ in 0..<iterations { work() }
        } else {
            print(resultLine(model: model, inputBytes: inputBytes, nanoseconds: measure(seconds: seconds, work)))
        }
    }

    /// The result line: `{"model":…,"input_bytes":…,"ns_per_op":…,"mb_per_s":…}`.
    static func resultLine(model: String, inputBytes: Int, nanoseconds: Double) -> String {
        let megabytesPerSecond = Double(inputBytes) / nanoseconds * 1_000
        return "{\"model\":\"\(model)\",\"input_bytes\":\(inputBytes),"
            + "\"ns_per_op\":\(rounded(nanoseconds)),\"mb_per_s\":\(rounded(megabytesPerSecond))}"
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    /// Keeps the optimiser from dropping a result that nothing reads.
    @inline(never)
    static func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

    /// One decimal.
    static func rounded(_ value: Double) -> String {
        String(Double(Int(value * 10 + 0.5)) / 10)
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

/// The options both executables take after `convert`: `--model M --input FILE [--array] [--seconds N]
/// [--print | --iterations N]`, and the caller's own through `extra`, which gets each option this does not know
/// and a way to read its value, and returns whether it understood the option (and found its value).
struct BenchmarkArguments {
    var model = ""
    var input = ""
    var array = false
    var seconds = 3.0
    var print = false
    var iterations: Int?

    /// The arguments, or nil for anything unknown, a missing or invalid value, or no model or input.
    static func parse(
        _ arguments: [String],
        extra: (_ option: String, _ value: () -> String?) -> Bool = { _, _ in false }
    )
        -> BenchmarkArguments?
    {
        guard arguments.first == "convert" else { return nil }
        var result = BenchmarkArguments()
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--array": result.array = true
            case "--print": result.print = true
            case "--model": guard let value = iterator.next() else { return nil }; result.model = value
            case "--input": guard let value = iterator.next() else { return nil }; result.input = value
            case "--seconds":
                guard let value = iterator.next().flatMap(Double.init), value > 0 else { return nil }
                result.seconds = value
            case "--iterations":
                guard let value = iterator.next().flatMap({ Int($0) }), value >= 0 else { return nil }
                result.iterations = value
            default:
                guard extra(argument, { iterator.next() }) else { return nil }
            }
        }
        guard !result.model.isEmpty, !result.input.isEmpty else { return nil }
        return result
    }
}
