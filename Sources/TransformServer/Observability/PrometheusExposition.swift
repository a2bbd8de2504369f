// SPDX-License-Identifier: Apache-2.0

/// The Prometheus text exposition format 0.0.4, written straight into bytes.
///
/// Everything fixed is rendered once: a family's `# HELP`/`# TYPE` block when the registry is built, a series'
/// `name{labels} ` prefix when the series is created (label values escaped then), a histogram's `le` labels from
/// a table of hand-written bounds. A scrape only appends values. Label names are sorted (as the Go client does;
/// a histogram's `le` comes last). For example `Series(name: "transform_http_requests_total", labels:
/// [("route", "/health"), ("method", "GET"), ("status", "200")])` holds the bytes
///
///     transform_http_requests_total{method="GET",route="/health",status="200"}␠
///
/// and `emit(into:)` appends `42\n` after them. Values are integers (counts) or floats written the way Go's
/// `strconv.ParseFloat` reads them (`0.25`, `5e-05`, `+Inf`, `NaN`), which is what Prometheus parses.
/// Spec: https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
enum PrometheusExposition {
    /// The `Content-Type` of a `/metrics` response (docs/api.md, "Health, readiness and metrics").
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The `# TYPE` of a metric family.
    enum MetricType: String {
        case counter, gauge, histogram
    }

    /// `# HELP name help\n# TYPE name type\n`, with the help text escaped (`\\`, `\n`).
    static func header(name: String, help: String, type: MetricType) -> [UInt8] {
        var out = Array("# HELP \(name) ".utf8)
        for byte in help.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            default: out.append(byte)
            }
        }
        out += Array("\n# TYPE \(name) \(type.rawValue)\n".utf8)
        return out
    }

    /// `name{label="value",…} ` (or `name ` without labels) in the order given, ready to be followed by a value.
    static func prefix(name: String, labels: [(name: String, value: String)]) -> [UInt8] {
        var out = Array(name.utf8)
        if !labels.isEmpty {
            out.append(UInt8(ascii: "{"))
            for (index, label) in labels.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += label.name.utf8
                out += [UInt8(ascii: "="), UInt8(ascii: "\"")]
                appendLabelValue(label.value, into: &out)
                out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: " "))
        return out
    }

    /// A label value with `\`, `"` and line feed escaped as the format requires.
    static func appendLabelValue(_ value: String, into out: inout [UInt8]) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            default: out.append(byte)
            }
        }
    }

    /// `prefix` then `value` and a line feed: one sample line.
    static func appendSample(_ prefix: [UInt8], _ value: Int, into out: inout [UInt8]) {
        out += prefix
        appendInteger(value, into: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// `prefix` then `value` and a line feed: one sample line.
    static func appendSample(_ prefix: [UInt8], _ value: Double, into out: inout [UInt8]) {
        out += prefix
        appendFloat(value, into: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// Decimal digits, with a leading `-` for negative values; no allocation.
    static func appendInteger(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for the 20 digits of UInt64.max
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    /// A float as Prometheus parses it: `+Inf`, `-Inf`, `NaN`, whole numbers below 2^53 without a fraction (`3`),
    /// everything else as Swift's shortest round-tripping form (`0.25`, `5e-05`, `1e+20`).
    static func appendFloat(_ value: Double, into out: inout [UInt8]) {
        if value.isNaN {
            out += "NaN".utf8
        } else if value.isInfinite {
            out += (value < 0 ? "-Inf" : "+Inf").utf8
        } else if value == value.rounded(.towardZero), value.magnitude < 9_007_199_254_740_992 {
            appendInteger(Int(value), into: &out)
        } else {
            out += value.description.utf8
        }
    }
}

// MARK: - Series

extension PrometheusExposition {
    /// One series of a counter or a gauge: its pre-rendered prefix and its current value.
    struct Series {
        /// `name{labels} `, rendered once when the series is created.
        let prefix: [UInt8]
        /// The current value (a count or a gauge reading).
        var value: Int = 0

        /// `labels` in any order; they are rendered sorted by name.
        init(name: String, labels: [(name: String, value: String)] = []) {
            prefix = PrometheusExposition.prefix(name: name, labels: labels.sorted { $0.name < $1.name })
        }

        /// Appends the sample line `prefix value\n`.
        func emit(into out: inout [UInt8]) {
            PrometheusExposition.appendSample(prefix, value, into: &out)
        }
    }

    /// One series of a histogram with the fixed buckets of `Histogram.bounds`.
    struct Histogram {
        /// The upper bounds in seconds, from 50 µs to 10 s, with the text of their `le` label written out by hand
        /// so the exposition reads `le="0.00005"` rather than `le="5e-05"`. `+Inf` is implicit (the count).
        static let bounds: [(value: Double, label: String)] = [
            (0.00005, "0.00005"), (0.0001, "0.0001"), (0.00025, "0.00025"), (0.0005, "0.0005"),
            (0.001, "0.001"), (0.0025, "0.0025"), (0.005, "0.005"), (0.01, "0.01"), (0.025, "0.025"),
            (0.05, "0.05"), (0.1, "0.1"), (0.25, "0.25"), (0.5, "0.5"), (1, "1"), (2.5, "2.5"), (5, "5"),
            (10, "10"),
        ]

        /// One `name_bucket{labels,le="…"} ` prefix per bound, then the `+Inf` one.
        let bucketPrefixes: [[UInt8]]
        /// `name_sum{labels} `.
        let sumPrefix: [UInt8]
        /// `name_count{labels} `.
        let countPrefix: [UInt8]
        /// Observations per bucket, not cumulative: `buckets[i]` counts values in (bounds[i-1], bounds[i]]; the
        /// last slot counts values above the highest bound. Cumulated when emitted.
        private(set) var buckets: [Int]
        /// The sum of every observed value.
        private(set) var sum: Double = 0
        /// How many values were observed (the `+Inf` bucket).
        private(set) var count: Int = 0

        /// `labels` in any order; they are rendered sorted by name, then `le`.
        init(name: String, labels: [(name: String, value: String)] = []) {
            let labels = labels.sorted { $0.name < $1.name }
            bucketPrefixes = (Self.bounds.map(\.label) + ["+Inf"]).map { bound in
                PrometheusExposition.prefix(name: name + "_bucket", labels: labels + [("le", bound)])
            }
            sumPrefix = PrometheusExposition.prefix(name: name + "_sum", labels: labels)
            countPrefix = PrometheusExposition.prefix(name: name + "_count", labels: labels)
            buckets = Array(repeating: 0, count: Self.bounds.count + 1)
        }

        /// Records one value; a negative or non-finite value counts as 0 so the sum stays meaningful.
        mutating func observe(_ value: Double) {
            let value = value.isFinite && value > 0 ? value : 0
            var index = 0
            while index < Self.bounds.count, value > Self.bounds[index].value { index += 1 }
            buckets[index] += 1
            sum += value
            count += 1
        }

        /// Appends the cumulative `_bucket` lines, then `_sum` and `_count`.
        func emit(into out: inout [UInt8]) {
            var cumulative = 0
            for (prefix, observed) in zip(bucketPrefixes, buckets) {
                cumulative += observed
                PrometheusExposition.appendSample(prefix, cumulative, into: &out)
            }
            PrometheusExposition.appendSample(sumPrefix, sum, into: &out)
            PrometheusExposition.appendSample(countPrefix, count, into: &out)
        }
    }
}
