// SPDX-License-Identifier: Apache-2.0

extension Log {
    /// Every event the server logs: the vocabulary of `Log.event`, so a name is written once and cannot drift from
    /// the lists in docs/operations.md ("Events") and docs/cluster.md, which a test holds it to.
    enum Event: String, CaseIterable {
        // Start-up and shutdown (docs/operations.md).
        case configurationWarning = "configuration_warning"
        case startupFailed = "startup_failed"
        case signalsNotRegistered = "signals_not_registered"
        /// A lifecycle transition (`draining`).
        case state
        case drainForcedClose = "drain_forced_close"
        case stopped
        // Connections.
        case acceptPaused = "accept_paused"
        case acceptResumed = "accept_resumed"
        case writeTimeout = "write_timeout"
        // The schema directory and the registry file.
        case schemasReloaded = "schemas_reloaded"
        case schemasReloadRejected = "schemas_reload_rejected"
        case registryPersistFailed = "registry_persist_failed"
        // The shared registry (docs/cluster.md).
        case etcdAuthenticationFailed = "etcd_authentication_failed"
        case registrySynced = "registry_synced"
        case registryApplyFailed = "registry_apply_failed"
        case registryReadFailed = "registry_read_failed"
        case registryWatchCompacted = "registry_watch_compacted"
        case registryWatchFailed = "registry_watch_failed"
    }
}
