// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `GET /health` (liveness) and `GET /ready` (readiness).
enum HealthEndpoint {
    static func health(_ context: ServerContext) -> HTTPResponse {
        if let shared = context.shared {
            let models = context.registry.current.modelNames.count
            let (synced, revision) = shared.status
            return .json(200, Array((#"{"status":"ok","models":\#(models),"schemaPersistence":"etcd","#
                + #""registryStore":{"kind":"etcd","synced":\#(synced),"revision":\#(revision)}}"#).utf8))
        }
        let persistence = context.overlayDirectory == nil ? "memory" : "disk"
        let models = context.registry.current.modelNames.count
        return .json(200, Array(#"{"status":"ok","models":\#(models),"schemaPersistence":"\#(persistence)"}"#.utf8))
    }

    static func ready(_ context: ServerContext) -> HTTPResponse {
        if context.isDraining { return ErrorResponse.make(503, "unavailable", "The server is draining.") }
        if !context.isLoaded { return ErrorResponse.make(503, "unavailable", "The schemas are not loaded yet.") }
        if let shared = context.shared, !shared.hasSynced {
            return ErrorResponse.make(503, "unavailable", "The registry has not been read from etcd yet.")
        }
        return .json(200, Array(#"{"status":"ready"}"#.utf8))
    }
}
