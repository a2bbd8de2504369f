// SPDX-License-Identifier: Apache-2.0

import Foundation

/// TransformBench's work done with Swift Codable: JSONDecoder into the structs of GithubUser.swift and Weibo.swift,
/// then JSONEncoder back to JSON, for scripts/bench-core.sh.
///
///     CodableBench convert --model GithubUser|WeiboTimeline --input FILE [--array] [--seconds N]
///                          [--print | --iterations N]
///
/// Prints the same JSON line as TransformBench, `{"model":…,"input_bytes":…,"ns_per_op":…,"mb_per_s":…}`, timed
/// the same way (the median of nine rounds after a warm-up); `--print` writes the converted output once instead,
/// and `--iterations N` runs exactly N conversions untimed (for instruction counts under callgrind).
@main
enum CodableBench {
    static let usage = """
        usage: CodableBench convert --model GithubUser|WeiboTimeline --input FILE [--array] [--seconds N]
                                    [--print | --iterations N]
        """

    static func main() {
        guard let arguments = BenchmarkArguments.parse(Array(CommandLine.arguments.dropFirst())) else {
            BenchmarkTiming.fail(usage, status: 2)
        }
        guard let input = FileManager.default.contents(atPath: arguments.input) else {
            BenchmarkTiming.fail("CodableBench: cannot read \(arguments.input)", status: 2)
        }
        // Sendable, as in TransformBench: the timed closure then makes no main-actor check on each call.
        let convert: @Sendable (Data) throws -> Data
        switch arguments.model {
        case "GithubUser":
            convert = converter(for: GithubUser.self, array: arguments.array, dates: .iso8601)
        case "WeiboTimeline":
            convert = converter(for: WeiboTimeline.self, array: arguments.array, dates: .formatted(weiboDates()))
        default:
            BenchmarkTiming.fail(
                "CodableBench: unknown model \(arguments.model) (GithubUser or WeiboTimeline)", status: 2)
        }
        let first: Data
        do {
            first = try convert(input)
        } catch {
            BenchmarkTiming.fail(
                "CodableBench: \(arguments.input) does not convert as \(arguments.model): \(error)", status: 1)
        }
        BenchmarkTiming.run(
            output: Array(first), print: arguments.print, iterations: arguments.iterations,
            seconds: arguments.seconds, model: arguments.model, inputBytes: input.count
        ) { @Sendable in
            BenchmarkTiming.blackHole(try? convert(input))
        }
    }

    /// One conversion of `Model` (or an array of them): decode, then encode. The decoder and encoder are made
    /// once and reused, as a program would.
    static func converter<Model: Codable & SendableMetatype>(
        for model: Model.Type, array: Bool, dates: JSONDecoder.DateDecodingStrategy
    ) -> @Sendable (Data) throws -> Data {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dates
        let encoder = JSONEncoder()
        // TransformServer writes dates as RFC 3339 in UTC, and slashes unescaped.
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .withoutEscapingSlashes
        if array {
            return { try encoder.encode(try decoder.decode([Model].self, from: $0)) }
        }
        return { try encoder.encode(try decoder.decode(Model.self, from: $0)) }
    }

    /// Weibo's `Fri Sep 04 00:12:21 +0800 2015`, with the fixed POSIX locale such formats need.
    static func weiboDates() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        return formatter
    }
}
