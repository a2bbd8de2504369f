// SPDX-License-Identifier: Apache-2.0

/// Limits on what a schema set may hold (docs/api.md, "Limits").
public struct SchemaLimits: Sendable, Equatable {
    /// Largest model document, in bytes.
    public var maxDocumentBytes = 1_048_576
    /// Most properties one model may declare.
    public var maxPropertiesPerModel = 1_000
    /// Most models in a registry.
    public var maxModels = 10_000
    /// Largest converted form of one `default` value, in bytes.
    public var maxDefaultBytes = 65_536
    /// Most versions kept per model (docs/lifecycle.md, History), 1…10000.
    public var maxVersionsPerModel = 100

    /// The documented defaults.
    public init() {}
}
