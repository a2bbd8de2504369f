// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import MapperCore
import Testing

@testable import TransformServer

@Suite struct PrometheusExpositionTests {
    static let fixedProcess = ProcessMetrics(
        residentMemoryBytes: 1_048_576, cpuSeconds: 0.25, openFileDescriptors: 7,
        maxFileDescriptors: 1024, startTimeSeconds: 1_700_000_000.5)

    /// A registry whose process figures are fixed, so its whole exposition is deterministic.
    static func makeRegistry(process: ProcessMetrics? = fixedProcess) -> MetricsRegistry {
        MetricsRegistry(processMetrics: { process })
    }

    static func text(_ registry: MetricsRegistry) -> String {
        String(decoding: registry.render(), as: UTF8.self)
    }

    /// A schema registry holding one trivial model per name.
    static func makeSchemaRegistry(models: [String]) throws -> SchemaRegistry {
        let registry = SchemaRegistry()
        let documents = models.map { #"{"name":"\#($0)","properties":{"id":"string"}}"# }
        try registry.load([
            SchemaFile(name: "models.json", bytes: Array(#"{"models":[\#(documents.joined(separator: ","))]}"#.utf8))
        ])
        return registry
    }

    @Test func rendersASmallRegistryExactly() throws {
        let registry = Self.makeRegistry()
        registry.recordRequest(route: "/convert/{model}", method: "POST", status: 422, seconds: 0.000244140625)
        registry.recordRequest(route: "/convert/{model}", method: "POST", status: 200, seconds: 0.001953125)
        registry.recordRequest(route: "/health", method: "GET", status: 200, seconds: 0.000030517578125)
        registry.connectionOpened()
        registry.connectionOpened()
        registry.connectionClosed()
        registry.recordConversion(model: "User", outcome: "ok")
        registry.recordConversion(model: "User", outcome: "invalid")
        registry.recordConversion(model: "Repo", outcome: "ok")
        registry.recordWarnings(code: "coerced", count: 3)
        registry.recordWarnings(code: "coerced", count: 1)
        registry.recordSchemaReload(accepted: false)
        registry.recordSchemaReload(accepted: true)
        registry.recordSchemaReload(accepted: false)
        registry.observe(registry: try Self.makeSchemaRegistry(models: ["Repo", "User"]))
        #expect(
            Self.text(registry) == """
                # HELP transform_http_requests_total HTTP requests answered, by route template, method and status.
                # TYPE transform_http_requests_total counter
                transform_http_requests_total{method="GET",route="/health",status="200"} 1
                transform_http_requests_total{method="POST",route="/convert/{model}",status="200"} 1
                transform_http_requests_total{method="POST",route="/convert/{model}",status="422"} 1
                # HELP transform_http_request_duration_seconds Time to answer an HTTP request, from its first byte received to its response written, by route template.
                # TYPE transform_http_request_duration_seconds histogram
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.00005"} 0
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.0001"} 0
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.00025"} 1
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.0005"} 1
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.001"} 1
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.0025"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.005"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.01"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.025"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.05"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.1"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.25"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.5"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="1"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="2.5"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="5"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="10"} 2
                transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="+Inf"} 2
                transform_http_request_duration_seconds_sum{route="/convert/{model}"} 0.002197265625
                transform_http_request_duration_seconds_count{route="/convert/{model}"} 2
                transform_http_request_duration_seconds_bucket{route="/health",le="0.00005"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.0001"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.00025"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.0005"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.001"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.0025"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.005"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.01"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.025"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.05"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.1"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.25"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="0.5"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="1"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="2.5"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="5"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="10"} 1
                transform_http_request_duration_seconds_bucket{route="/health",le="+Inf"} 1
                transform_http_request_duration_seconds_sum{route="/health"} 3.0517578125e-05
                transform_http_request_duration_seconds_count{route="/health"} 1
                # HELP transform_connections_active Connections currently open.
                # TYPE transform_connections_active gauge
                transform_connections_active 1
                # HELP transform_connections_total Connections accepted since start.
                # TYPE transform_connections_total counter
                transform_connections_total 2
                # HELP transform_conversions_total Conversions of registered models, by model and outcome (ok, invalid, error).
                # TYPE transform_conversions_total counter
                transform_conversions_total{model="Repo",outcome="ok"} 1
                transform_conversions_total{model="User",outcome="invalid"} 1
                transform_conversions_total{model="User",outcome="ok"} 1
                # HELP transform_warnings_total Report warnings produced by conversions, by diagnostic code.
                # TYPE transform_warnings_total counter
                transform_warnings_total{code="coerced"} 4
                # HELP transform_meta_cache_hits_total Model lookups served from the compiled registry (one per conversion).
                # TYPE transform_meta_cache_hits_total counter
                transform_meta_cache_hits_total 3
                # HELP transform_meta_cache_misses_total Model compilations since start.
                # TYPE transform_meta_cache_misses_total counter
                transform_meta_cache_misses_total 2
                # HELP transform_meta_cache_entries Compiled models held by the current registry snapshot.
                # TYPE transform_meta_cache_entries gauge
                transform_meta_cache_entries 2
                # HELP transform_models_registered Models currently registered.
                # TYPE transform_models_registered gauge
                transform_models_registered 2
                # HELP transform_schema_reloads_total Schema directory reloads attempted (SIGHUP or a changed directory), by outcome (ok, rejected).
                # TYPE transform_schema_reloads_total counter
                transform_schema_reloads_total{outcome="ok"} 1
                transform_schema_reloads_total{outcome="rejected"} 2
                # HELP process_resident_memory_bytes Resident memory size in bytes.
                # TYPE process_resident_memory_bytes gauge
                process_resident_memory_bytes 1048576
                # HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
                # TYPE process_cpu_seconds_total counter
                process_cpu_seconds_total 0.25
                # HELP process_open_fds Number of open file descriptors.
                # TYPE process_open_fds gauge
                process_open_fds 7
                # HELP process_max_fds Maximum number of open file descriptors.
                # TYPE process_max_fds gauge
                process_max_fds 1024
                # HELP process_start_time_seconds Start time of the process since unix epoch in seconds.
                # TYPE process_start_time_seconds gauge
                process_start_time_seconds 1700000000.5

                """)
    }

    @Test func anEmptyRegistryDeclaresEveryFamilyAndZeroesTheUnlabelledOnes() {
        let text = Self.text(Self.makeRegistry(process: nil))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("# TYPE ") }.count == 11)
        #expect(
            lines.filter { !$0.hasPrefix("#") } == [
                "transform_connections_active 0", "transform_connections_total 0",
                "transform_meta_cache_hits_total 0", "transform_meta_cache_misses_total 0",
                "transform_meta_cache_entries 0", "transform_models_registered 0",
                #"transform_schema_reloads_total{outcome="ok"} 0"#,
                #"transform_schema_reloads_total{outcome="rejected"} 0"#,
            ])
        #expect(!text.contains("process_"))
    }

    @Test(arguments: [
        ("plain", #"plain"#),
        (#"back\slash"#, #"back\\slash"#),
        (#"say "hi""#, #"say \"hi\""#),
        ("two\nlines", #"two\nlines"#),
        ("\\\"\n", #"\\\"\n"#),
        ("tab\tand ünïcode {}", "tab\tand ünïcode {}"),
    ])
    func escapesLabelValues(raw: String, escaped: String) {
        let registry = Self.makeRegistry(process: nil)
        registry.recordWarnings(code: raw, count: 1)
        #expect(Self.text(registry).contains("\ntransform_warnings_total{code=\"\(escaped)\"} 1\n"))
    }

    @Test func escapesBackslashAndLineFeedInHelpText() {
        let header = PrometheusExposition.header(name: "x_total", help: "a\\b \"c\"\nd", type: .counter)
        #expect(String(decoding: header, as: UTF8.self) == "# HELP x_total a\\\\b \"c\"\\nd\n# TYPE x_total counter\n")
    }

    @Test func histogramBucketsAreCumulativeAndUpperBoundsInclusive() {
        var histogram = PrometheusExposition.Histogram(name: "h_seconds")
        for value in [0.00005, 0.00005, 0.0003, 0.003, 1, 10, 10.5, -1, .nan, .infinity] { histogram.observe(value) }
        var out: [UInt8] = []
        histogram.emit(into: &out)
        let samples = String(decoding: out, as: UTF8.self).split(separator: "\n").map { line in
            (String(line.split(separator: " ")[0]), String(line.split(separator: " ")[1]))
        }
        let buckets = samples.filter { $0.0.hasPrefix("h_seconds_bucket") }.map { Int($0.1)! }
        #expect(buckets.count == 18)
        #expect(buckets == [5, 5, 5, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 9, 10])  // -1, NaN and ∞ count as 0
        #expect(zip(buckets, buckets.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(samples[0].0 == #"h_seconds_bucket{le="0.00005"}"#)
        #expect(samples[17].0 == #"h_seconds_bucket{le="+Inf"}"#)
        #expect(samples[18] == ("h_seconds_sum", (0.00005 + 0.00005 + 0.0003 + 0.003 + 1 + 10 + 10.5).description))
        #expect(samples[19] == ("h_seconds_count", "10"))
    }

    @Test(arguments: [
        (0.0, "0"), (3.0, "3"), (-2.0, "-2"), (0.25, "0.25"), (0.00005, "5e-05"), (1e20, "1e+20"),
        (1_700_000_000.5, "1700000000.5"), (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"), (Double.nan, "NaN"),
    ])
    func formatsFloatsAsPrometheusParsesThem(value: Double, text: String) {
        var out: [UInt8] = []
        PrometheusExposition.appendFloat(value, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == text)
    }

    @Test(arguments: [0, 7, -7, 1_000_000, Int.max, Int.min])
    func formatsIntegersInDecimal(value: Int) {
        var out: [UInt8] = []
        PrometheusExposition.appendInteger(value, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == String(value))
    }

    @Test func sortsLabelNamesAndPutsLeLast() {
        let series = PrometheusExposition.Series(name: "x_total", labels: [("b", "2"), ("a", "1"), ("c", "3")])
        #expect(String(decoding: series.prefix, as: UTF8.self) == #"x_total{a="1",b="2",c="3"} "#)
        let histogram = PrometheusExposition.Histogram(name: "h_seconds", labels: [("z", "1"), ("a", "2")])
        #expect(
            String(decoding: histogram.bucketPrefixes[0], as: UTF8.self)
                == #"h_seconds_bucket{a="2",z="1",le="0.00005"} "#)
    }

    @Test func readsTheSchemaRegistryAtEachScrape() throws {
        let registry = Self.makeRegistry(process: nil)
        #expect(Self.text(registry).contains("\ntransform_models_registered 0\n"))
        let schemas = try Self.makeSchemaRegistry(models: ["A"])
        registry.observe(registry: schemas)
        #expect(Self.text(registry).contains("\ntransform_models_registered 1\n"))
        try schemas.load([
            SchemaFile(
                name: "m.json",
                bytes: Array(#"{"models":[{"name":"A","properties":{}},{"name":"B","properties":{}}]}"#.utf8))
        ])
        let text = Self.text(registry)
        #expect(text.contains("\ntransform_models_registered 2\n"))
        #expect(text.contains("\ntransform_meta_cache_entries 2\n"))
        #expect(text.contains("\ntransform_meta_cache_misses_total \(schemas.compiledCount)\n"))
        #expect(schemas.compiledCount >= 3)
    }

    @Test func warningsWithACountOfZeroCreateNoSeries() {
        let registry = Self.makeRegistry(process: nil)
        registry.recordWarnings(code: "coerced", count: 0)
        #expect(!Self.text(registry).contains("transform_warnings_total{"))
    }

    @Test func concurrentRecordingFromEightThreadsSumsExactly() {
        let registry = Self.makeRegistry(process: nil)
        let perThread = 2_000
        Self.runThreads(8) { worker in
            for index in 0..<perThread {
                registry.connectionOpened()
                registry.recordRequest(
                    route: "/convert/{model}", method: "POST", status: index.isMultiple(of: 2) ? 200 : 422,
                    seconds: 0.001)
                registry.recordConversion(model: worker.isMultiple(of: 2) ? "User" : "Repo", outcome: "ok")
                registry.recordWarnings(code: "coerced", count: 2)
                registry.connectionClosed()
            }
        }
        let lines = Set(Self.text(registry).split(separator: "\n").map(String.init))
        let expected = [
            #"transform_http_requests_total{method="POST",route="/convert/{model}",status="200"} 8000"#,
            #"transform_http_requests_total{method="POST",route="/convert/{model}",status="422"} 8000"#,
            #"transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.0005"} 0"#,
            #"transform_http_request_duration_seconds_bucket{route="/convert/{model}",le="0.001"} 16000"#,
            #"transform_http_request_duration_seconds_count{route="/convert/{model}"} 16000"#,
            "transform_connections_active 0",
            "transform_connections_total 16000",
            #"transform_conversions_total{model="Repo",outcome="ok"} 8000"#,
            #"transform_conversions_total{model="User",outcome="ok"} 8000"#,
            #"transform_warnings_total{code="coerced"} 32000"#,
            "transform_meta_cache_hits_total 16000",
        ]
        for line in expected { #expect(lines.contains(line), "missing \(line)") }
    }

    @Test(
        .enabled(
            if: PrometheusExpositionTests.promtool != nil,
            "promtool is not on PATH (apt-get install prometheus); skipped"))
    func promtoolFindsNoProblems() throws {
        let registry = MetricsRegistry()  // the real process figures
        registry.recordRequest(route: "/convert/{model}", method: "POST", status: 200, seconds: 0.0123)
        registry.recordRequest(route: MetricsRegistry.unmatchedRoute, method: "GET", status: 404, seconds: 0.00001)
        registry.connectionOpened()
        registry.recordConversion(model: "User", outcome: "error")
        registry.recordWarnings(code: "weird \"code\"\\\n", count: 1)
        registry.observe(registry: try Self.makeSchemaRegistry(models: ["User"]))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.promtool))
        process.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(registry.render()))
        try input.fileHandleForWriting.close()
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "promtool: \(report)")
        #expect(report.isEmpty, "promtool lint: \(report)")
    }

    /// The first `promtool` on PATH, if any.
    static let promtool: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { "\($0)/promtool" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `body(0..<count)` on `count` POSIX threads at once and waits for all of them (pthread_join orders
    /// their effects before the caller reads the registry).
    static func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        var threads: [pthread_t] = []
        for worker in 0..<count {
            let context = Unmanaged.passRetained(ThreadBody { body(worker) }).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(
                &thread, nil,
                { raw in
                    Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
                    return nil
                }, context)
            precondition(status == 0, "pthread_create failed: \(status)")
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
    }
}

/// The closure a thread runs, passed through `pthread_create`'s context pointer.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

@Suite struct ProcessMetricsTests {
    @Test func parsesStatAfterTheLastParenthesisOfTheCommandName() {
        // pid (comm) then fields 3…; comm may hold spaces and ")".
        var fields = (3...52).map { String($0) }
        fields[0] = "S"
        fields[14 - 3] = "150"  // utime
        fields[15 - 3] = "50"  // stime
        fields[22 - 3] = "12345"  // starttime
        fields[24 - 3] = "256"  // rss
        let line = "4242 (a) b (c)) " + fields.joined(separator: " ") + "\n"
        #expect(
            ProcessMetrics.parseStat(Array(line.utf8))
                == ProcessMetrics.Stat(userTicks: 150, systemTicks: 50, startTicks: 12345, residentPages: 256))
    }

    @Test(arguments: [
        "", "4242 no-parenthesis 1 2 3", "4242 (x) S 1 2 3", "4242 (x) " + String(repeating: "x ", count: 30),
    ])
    func rejectsStatLinesThatAreNotOne(line: String) {
        #expect(ProcessMetrics.parseStat(Array(line.utf8)) == nil)
    }

    @Test func readsBootTimeFromItsLine() {
        let stat = "cpu  1 2 3\nintr 1 2 3\nctxt 99\nbtime 1718000000\nprocesses 5\n"
        #expect(ProcessMetrics.parseBootTime(Array(stat.utf8)) == 1_718_000_000)
        #expect(ProcessMetrics.parseBootTime(Array("cpu 1\nbtimex 5\n".utf8)) == nil)
    }

    @Test func samplesThisProcessConsistently() throws {
        let sample = try #require(ProcessMetrics.sample())
        let bootTime = try #require(ProcessMetrics.bootTime)
        #expect(sample.residentMemoryBytes > 0)
        #expect(sample.cpuSeconds >= 0)
        #expect(sample.openFileDescriptors >= 3)  // at least stdin, stdout, stderr
        #expect(sample.openFileDescriptors <= sample.maxFileDescriptors)
        #expect(sample.startTimeSeconds >= Double(bootTime))
        #expect(sample.startTimeSeconds <= Double(time(nil)) + 1)
    }

    @Test func countsOnlyNumberedEntriesAsDescriptors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["0", "1", "2", "9999", "notes", "12x"] {
            #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil))
        }
        #expect(ProcessMetrics.countOpenFileDescriptors(in: directory.path) == 4)
        #expect(ProcessMetrics.countOpenFileDescriptors(in: directory.path + "/missing") == nil)
    }
}
