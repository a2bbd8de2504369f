// SPDX-License-Identifier: Apache-2.0

import MapperCore

#if canImport(Glibc)
    import Glibc
#endif

/// `GET /health` (liveness) and `GET /ready` (readiness).
enum HealthEndpoint {
    static func health(_ context: ServerContext) -> HTTPResponse {
        if let shared = context.shared {
            let models = context.registry.current.modelNames.count
            let (synced, revision) = shared.status
            return .json(
                .ok,
                Array(
                    (#"{"status":"ok","models":\#(models),"schemaPersistence":"etcd","#
                        + #""registryStore":{"kind":"etcd","synced":\#(synced),"revision":\#(revision)}}"#).utf8))
        }
        let persistence = context.overlayDirectory == nil ? "memory" : "disk"
        let snapshot = context.registry.current
        let loadedAt = timestamp(milliseconds: snapshot.createdAtMilliseconds)
        return .json(
            .ok,
            Array(
                (#"{"status":"ok","models":\#(snapshot.entries.count),"#
                    + #""schemaPersistence":"\#(persistence)","schemaSet":"\#(context.schemaSet(of: snapshot))","#
                    + #""schemasLoadedAt":"\#(loadedAt)"}"#).utf8))
    }

    /// UTC RFC 3339 with milliseconds and `Z`: `2026-11-27T13:24:13.042Z`.
    static func timestamp(milliseconds: Int) -> String {
        var seconds = time_t(milliseconds / 1_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: some BinaryInteger, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(digits(1900 + parts.tm_year, 4))-\(digits(parts.tm_mon + 1, 2))-\(digits(parts.tm_mday, 2))T"
            + "\(digits(parts.tm_hour, 2)):\(digits(parts.tm_min, 2)):\(digits(parts.tm_sec, 2))."
            + "\(digits(milliseconds % 1_000, 3))Z"
    }

    static func ready(_ context: ServerContext) -> HTTPResponse {
        if context.isDraining { return RequestError.notReady("The server is draining.").response }
        if !context.isLoaded { return RequestError.notReady("The schemas are not loaded yet.").response }
        if let shared = context.shared, !shared.hasSynced {
            return RequestError.notReady("The registry has not been read from etcd yet.").response
        }
        return .json(.ok, Array(#"{"status":"ready"}"#.utf8))
    }
}
