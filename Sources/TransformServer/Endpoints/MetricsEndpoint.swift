// SPDX-License-Identifier: Apache-2.0

/// `GET /metrics`: Prometheus text exposition 0.0.4 (docs/metrics.md lists every metric).
enum MetricsEndpoint {
    static func handle(_ context: ServerContext) -> HTTPResponse {
        HTTPResponse(
            status: .ok, headers: [(HTTPHeader.contentType, PrometheusExposition.contentType)],
            body: context.metrics.render())
    }
}
