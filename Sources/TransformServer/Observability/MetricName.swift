// SPDX-License-Identifier: Apache-2.0

/// The name of every metric family on `GET /metrics`, written once: the registry's, the shared registry's and the
/// process's families render their headers and series from these, and docs/metrics.md lists them all (a test
/// holds the two together). Names follow Prometheus conventions: `snake_case`, `_total` on counters, base units.
enum MetricName: String, CaseIterable {
    // HTTP and connections (`MetricsRegistry`).
    case httpRequests = "transform_http_requests_total"
    case httpRequestDuration = "transform_http_request_duration_seconds"
    case connectionsActive = "transform_connections_active"
    case connectionsTotal = "transform_connections_total"
    // Conversions and the registry (`MetricsRegistry`).
    case conversions = "transform_conversions_total"
    case warnings = "transform_warnings_total"
    case metaCacheHits = "transform_meta_cache_hits_total"
    case metaCacheMisses = "transform_meta_cache_misses_total"
    case metaCacheEntries = "transform_meta_cache_entries"
    case modelsRegistered = "transform_models_registered"
    case schemaReloads = "transform_schema_reloads_total"
    // The shared registry, with `registryStore: etcd` (`ClusterMetrics`).
    case registryStoreUp = "transform_registry_store_up"
    case registryRevision = "transform_registry_revision"
    case registryWatchRestarts = "transform_registry_watch_restarts_total"
    case registryWriteConflicts = "transform_registry_write_conflicts_total"
    case registryApplyLag = "transform_registry_apply_lag_seconds"
    case registryApplyFailures = "transform_registry_apply_failures_total"
    // The process (`ProcessMetrics`), under the names every Prometheus client library uses.
    case processResidentMemory = "process_resident_memory_bytes"
    case processCPU = "process_cpu_seconds_total"
    case processOpenFileDescriptors = "process_open_fds"
    case processMaxFileDescriptors = "process_max_fds"
    case processStartTime = "process_start_time_seconds"
}

extension MetricName {
    /// The family's `# HELP`/`# TYPE` block (`PrometheusExposition.header`).
    func header(help: String, type: PrometheusExposition.MetricType) -> [UInt8] {
        PrometheusExposition.header(name: rawValue, help: help, type: type)
    }

    /// The `name{labels} ` prefix of one of the family's series (`PrometheusExposition.prefix`).
    func prefix(labels: [(name: String, value: String)] = []) -> [UInt8] {
        PrometheusExposition.prefix(name: rawValue, labels: labels)
    }
}
