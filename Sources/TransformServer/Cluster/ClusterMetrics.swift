// SPDX-License-Identifier: Apache-2.0

/// The shared registry's figures (docs/metrics.md), appended to `/metrics` only when `registryStore` is `etcd`.
struct ClusterMetrics {
    /// `transform_registry_watch_restarts_total`: times the watch ended and was started again.
    var watchRestarts = 0
    /// `transform_registry_write_conflicts_total`: commits refused because another write came first (then retried).
    var writeConflicts = 0
    /// `transform_registry_apply_failures_total`: store states that did not validate here and were not served.
    var applyFailures = 0
    /// `transform_registry_apply_lag_seconds`: from a write's commit time (stored with it) to its adoption here.
    var applyLag = PrometheusExposition.Histogram(name: MetricName.registryApplyLag.rawValue)

    /// Appends the six families; `synced` and `revision` are read at scrape time.
    func emit(synced: Bool, revision: Int, into out: inout [UInt8]) {
        out += Header.up
        PrometheusExposition.appendSample(Prefix.up, synced ? 1 : 0, into: &out)
        out += Header.revision
        PrometheusExposition.appendSample(Prefix.revision, revision, into: &out)
        out += Header.watchRestarts
        PrometheusExposition.appendSample(Prefix.watchRestarts, watchRestarts, into: &out)
        out += Header.writeConflicts
        PrometheusExposition.appendSample(Prefix.writeConflicts, writeConflicts, into: &out)
        out += Header.applyLag
        applyLag.emit(into: &out)
        out += Header.applyFailures
        PrometheusExposition.appendSample(Prefix.applyFailures, applyFailures, into: &out)
    }

    enum Header {
        static let up = MetricName.registryStoreUp.header(
            help: "1 while the registry is synced with etcd (first read done, watch running), else 0.", type: .gauge)
        static let revision = MetricName.registryRevision.header(
            help: "The etcd revision of the registry this replica serves.", type: .gauge)
        static let watchRestarts = MetricName.registryWatchRestarts.header(
            help: "Times the etcd watch ended and was started again.", type: .counter)
        static let writeConflicts = MetricName.registryWriteConflicts.header(
            help: "Registry commits refused because another write came first (each was retried).", type: .counter)
        static let applyLag = MetricName.registryApplyLag.header(
            help: "Time from a registry write's commit in etcd to its adoption by this replica.", type: .histogram)
        static let applyFailures = MetricName.registryApplyFailures.header(
            help: "Registry states from etcd that did not validate on this replica and were not served.",
            type: .counter)
    }

    enum Prefix {
        static let up = MetricName.registryStoreUp.prefix()
        static let revision = MetricName.registryRevision.prefix()
        static let watchRestarts = MetricName.registryWatchRestarts.prefix()
        static let writeConflicts = MetricName.registryWriteConflicts.prefix()
        static let applyFailures = MetricName.registryApplyFailures.prefix()
    }
}
