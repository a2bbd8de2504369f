// SPDX-License-Identifier: Apache-2.0

/// The persisted registry writes (`.registry.json`): registered models and deletion markers.
public struct RegistryOverlay: Sendable {
    /// Registered models, each one model document with its kept version.
    public var models: [SchemaFile]
    /// Names hidden from the schema files.
    public var deleted: [String]
    /// The history, counter and configuration of every API-written name (deleted ones too).
    public var lifecycles: [String: ModelLifecycle]

    /// Creates an overlay.
    public init(models: [SchemaFile], deleted: [String], lifecycles: [String: ModelLifecycle] = [:]) {
        self.models = models
        self.deleted = deleted
        self.lifecycles = lifecycles
    }
}
