// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Synchronization

/// Every metric the server exposes on `GET /metrics` (docs/api.md, "Health, readiness and metrics"; `docs/metrics.md`
/// lists them).
///
/// Shared by all connection queues. The small shared state is split into coherent structs, each behind its own
/// `Mutex` whose critical section is a dictionary lookup and an increment: `HTTPFamilies` (the request counter and
/// the duration histogram, recorded together) and `ConversionFamilies` (conversions, warnings and meta-cache
/// hits). The connection counts are two `Atomic`s. A series is created the first time its label set is seen, with
/// its `name{labels} ` prefix rendered then (`PrometheusExposition`); later records only add. The schema
/// registry's figures are read from it at scrape time (`observe(registry:)`).
///
/// A scrape copies each struct out of its lock (a retain of copy-on-write storage), then sorts and writes
/// outside it, so recording never waits for rendering. Families appear in a fixed order, series sorted by their
/// label text, so the output is deterministic.
///
/// Cardinality is bounded by the callers' contract: `route` is a route template (never a raw path),
/// `recordConversion` is called only with registered model names, `code` only with diagnostic codes.
final class MetricsRegistry: Sendable {
    /// The `route` label of requests that matched no route (404s, and framing errors answered before routing).
    static let unmatchedRoute = "unmatched"

    private let http = Mutex(HTTPFamilies())
    private let conversions = Mutex(ConversionFamilies())
    /// The schema registry whose figures a scrape reads; set once at start-up.
    private let schemaRegistry = Mutex<SchemaRegistry?>(nil)
    /// The shared registry whose figures a scrape appends (`registryStore: etcd` only); set once at start-up.
    private let sharedRegistry = Mutex<SharedRegistry?>(nil)
    private let connectionsActive = Atomic<Int>(0)
    private let connectionsTotal = Atomic<Int>(0)
    /// `transform_schema_reloads_total`: attempts accepted and rejected (SIGHUP, or a changed schema directory).
    private let schemaReloadsAccepted = Atomic<Int>(0)
    private let schemaReloadsRejected = Atomic<Int>(0)
    /// Reads the `process_*` figures at scrape time; `nil` leaves those families out.
    private let processMetrics: @Sendable () -> ProcessMetrics?

    /// `processMetrics` is injectable so tests can render fixed figures.
    init(processMetrics: @escaping @Sendable () -> ProcessMetrics? = { ProcessMetrics.sample() }) {
        self.processMetrics = processMetrics
    }

    // MARK: - Recording

    /// Counts one answered request and observes its duration. `route` is the matched route template such as
    /// `"/convert/{model}"` (or `MetricsRegistry.unmatchedRoute`), never the raw path.
    func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        http.withLock { state in
            state.requests[
                RequestKey(route: route, method: method, status: status),
                default: .init(
                    name: MetricName.httpRequests.rawValue,
                    labels: [("route", route), ("method", method), ("status", String(status))])
            ].value += 1
            state.durations[
                route,
                default: .init(
                    name: MetricName.httpRequestDuration.rawValue, labels: [("route", route)])
            ].observe(seconds)
        }
    }

    /// An accepted connection: active and total both grow by one.
    func connectionOpened() {
        connectionsActive.wrappingAdd(1, ordering: .relaxed)
        connectionsTotal.wrappingAdd(1, ordering: .relaxed)
    }

    /// A connection closed, for whatever reason: active shrinks by one.
    func connectionClosed() {
        connectionsActive.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Counts one conversion of `model` with `outcome` `"ok"`, `"invalid"` (422) or `"error"` (bad JSON and the
    /// like), and one meta-cache hit (the conversion used the model compiled at registration). Call it only with
    /// names of registered models: each name creates series, so an unknown name from a request must never reach
    /// here (those are `404 unknown_model`, counted by `recordRequest` alone).
    func recordConversion(model: String, outcome: String) {
        conversions.withLock { state in
            state.metaCacheHits += 1
            state.conversions[
                ConversionKey(model: model, outcome: outcome),
                default: .init(
                    name: MetricName.conversions.rawValue, labels: [("model", model), ("outcome", outcome)])
            ].value += 1
        }
    }

    /// Adds `count` report warnings with diagnostic `code` (such as `"coerced"`); a count of 0 changes nothing.
    func recordWarnings(code: String, count: Int) {
        guard count > 0 else { return }
        conversions.withLock { state in
            state.warnings[code, default: .init(name: MetricName.warnings.rawValue, labels: [("code", code)])]
                .value += count
        }
    }

    /// Counts one schema reload attempt: `accepted` when the new set took effect, else rejected (the running
    /// registry stayed).
    func recordSchemaReload(accepted: Bool) {
        if accepted {
            schemaReloadsAccepted.wrappingAdd(1, ordering: .relaxed)
        } else {
            schemaReloadsRejected.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// Makes every scrape read `registry`: its compilations since start (`transform_meta_cache_misses_total`)
    /// and the models of its current snapshot (`transform_meta_cache_entries`, `transform_models_registered`).
    /// Until it is called those read 0.
    func observe(registry: SchemaRegistry) {
        schemaRegistry.withLock { $0 = registry }
    }

    /// Makes every scrape append the shared registry's families (docs/metrics.md, "Cluster").
    func observe(shared: SharedRegistry) {
        sharedRegistry.withLock { $0 = shared }
    }

    // MARK: - Rendering

    /// The whole exposition, ready to be the body of a `/metrics` response (`PrometheusExposition.contentType`).
    func render() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(8192)
        render(into: &out)
        return out
    }

    /// Appends the whole exposition to `out`.
    func render(into out: inout [UInt8]) {
        let http = http.withLock { $0 }
        let conversions = conversions.withLock { $0 }
        let registry = schemaRegistry.withLock { $0 }
        // Every registered model is held compiled in the snapshot, so entries and registered models are one count.
        let models = registry?.current.entries.count ?? 0

        out += Header.requests
        for series in http.requests.values.sorted(by: Self.prefixOrder) { series.emit(into: &out) }
        out += Header.duration
        for series in http.durations.values.sorted(by: { $0.sumPrefix.lexicographicallyPrecedes($1.sumPrefix) }) {
            series.emit(into: &out)
        }
        out += Header.connectionsActive
        let active = connectionsActive.load(ordering: .relaxed), total = connectionsTotal.load(ordering: .relaxed)
        PrometheusExposition.appendSample(Prefix.connectionsActive, active, into: &out)
        out += Header.connectionsTotal
        PrometheusExposition.appendSample(Prefix.connectionsTotal, total, into: &out)
        out += Header.conversions
        for series in conversions.conversions.values.sorted(by: Self.prefixOrder) { series.emit(into: &out) }
        out += Header.warnings
        for series in conversions.warnings.values.sorted(by: Self.prefixOrder) { series.emit(into: &out) }
        out += Header.metaCacheHits
        PrometheusExposition.appendSample(Prefix.metaCacheHits, conversions.metaCacheHits, into: &out)
        out += Header.metaCacheMisses
        PrometheusExposition.appendSample(Prefix.metaCacheMisses, registry?.compiledCount ?? 0, into: &out)
        out += Header.metaCacheEntries
        PrometheusExposition.appendSample(Prefix.metaCacheEntries, models, into: &out)
        out += Header.modelsRegistered
        PrometheusExposition.appendSample(Prefix.modelsRegistered, models, into: &out)
        if let shared = sharedRegistry.withLock({ $0 }) {
            let (synced, revision) = shared.status
            shared.metrics.withLock { $0 }.emit(synced: synced, revision: revision, into: &out)
        }
        out += Header.schemaReloads
        PrometheusExposition.appendSample(
            Prefix.schemaReloadsOK, schemaReloadsAccepted.load(ordering: .relaxed),
            into: &out)
        PrometheusExposition.appendSample(
            Prefix.schemaReloadsRejected, schemaReloadsRejected.load(ordering: .relaxed),
            into: &out)
        processMetrics()?.emit(into: &out)
    }

    private static func prefixOrder(_ a: PrometheusExposition.Series, _ b: PrometheusExposition.Series) -> Bool {
        a.prefix.lexicographicallyPrecedes(b.prefix)
    }
}

// MARK: - State

extension MetricsRegistry {
    /// The label set of one `transform_http_requests_total` series.
    struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    /// The label set of one `transform_conversions_total` series.
    struct ConversionKey: Hashable {
        var model: String
        var outcome: String
    }

    /// Recorded together for every answered request, so behind one lock.
    struct HTTPFamilies {
        /// `transform_http_requests_total`, one series per (route, method, status) seen.
        var requests: [RequestKey: PrometheusExposition.Series] = [:]
        /// `transform_http_request_duration_seconds`, one histogram per route template seen.
        var durations: [String: PrometheusExposition.Histogram] = [:]
    }

    /// Recorded when a conversion finishes.
    struct ConversionFamilies {
        /// `transform_conversions_total`, one series per (registered model, outcome) seen.
        var conversions: [ConversionKey: PrometheusExposition.Series] = [:]
        /// `transform_warnings_total`, one series per diagnostic code seen.
        var warnings: [String: PrometheusExposition.Series] = [:]
        /// `transform_meta_cache_hits_total`: one per conversion (each looked up its compiled model).
        var metaCacheHits = 0
    }

    /// The `# HELP`/`# TYPE` block of every family, rendered once.
    enum Header {
        static let requests = MetricName.httpRequests.header(
            help: "HTTP requests answered, by route template, method and status.", type: .counter)
        static let duration = MetricName.httpRequestDuration.header(
            help: "Time to answer an HTTP request, from its first byte received to its response written, "
                + "by route template.", type: .histogram)
        static let connectionsActive = MetricName.connectionsActive.header(
            help: "Connections currently open.", type: .gauge)
        static let connectionsTotal = MetricName.connectionsTotal.header(
            help: "Connections accepted since start.", type: .counter)
        static let conversions = MetricName.conversions.header(
            help: "Conversions of registered models, by model and outcome (ok, invalid, error).", type: .counter)
        static let warnings = MetricName.warnings.header(
            help: "Report warnings produced by conversions, by diagnostic code.", type: .counter)
        static let metaCacheHits = MetricName.metaCacheHits.header(
            help: "Model lookups served from the compiled registry (one per conversion).", type: .counter)
        static let metaCacheMisses = MetricName.metaCacheMisses.header(
            help: "Model compilations since start.", type: .counter)
        static let metaCacheEntries = MetricName.metaCacheEntries.header(
            help: "Compiled models held by the current registry snapshot.", type: .gauge)
        static let modelsRegistered = MetricName.modelsRegistered.header(
            help: "Models currently registered.", type: .gauge)
        static let schemaReloads = MetricName.schemaReloads.header(
            help: "Schema directory reloads attempted (SIGHUP or a changed directory), by outcome (ok, rejected).",
            type: .counter)
    }

    /// The prefixes of the families without labels, rendered once.
    enum Prefix {
        static let connectionsActive = MetricName.connectionsActive.prefix()
        static let connectionsTotal = MetricName.connectionsTotal.prefix()
        static let metaCacheHits = MetricName.metaCacheHits.prefix()
        static let metaCacheMisses = MetricName.metaCacheMisses.prefix()
        static let metaCacheEntries = MetricName.metaCacheEntries.prefix()
        static let modelsRegistered = MetricName.modelsRegistered.prefix()
        static let schemaReloadsOK = MetricName.schemaReloads.prefix(labels: [("outcome", "ok")])
        static let schemaReloadsRejected = MetricName.schemaReloads.prefix(labels: [("outcome", "rejected")])
    }
}
