// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One immutable version of the registry: every compiled model, by id and by name, with its version and ETag.
/// Conversions hold the snapshot they started with; a registry change publishes a new one.
public final class RegistrySnapshot: Sendable {
    /// Compiled models by id (ids are stable across snapshots of one registry; a deleted name leaves nil).
    let models: [CompiledModel?]
    /// Model names (ASCII, docs/schema.md, "name"), matched as bytes: each request finds its model without hashing a
    /// `String`.
    private let names: KeyIndex
    /// The model id of each name in `names`.
    private let nameIDs: [Int]
    /// Each name's `X-Model-Version` value, by position in `names` (rendered once per snapshot, so a conversion
    /// response writes it without formatting a number).
    private let versionTexts: [String?]
    /// Stable name → id assignments of the registry this snapshot belongs to.
    let ids: [String: Int]
    /// Registry facts per model name.
    public let entries: [String: ModelEntry]
    /// Every name's kept versions, counter and configuration (names deleted through the API included).
    public let lifecycles: [String: ModelLifecycle]
    /// The decoded schemas the models were compiled from (for compiling pinned versions).
    let schemas: [String: ModelSchema]
    let limits: SchemaLimits
    /// Pinned versions compiled from this snapshot, per model name (`pinned(_:version:)`).
    let pinnedCache = Locked<[String: PinnedVersions]>([:])
    /// When the snapshot was made, in milliseconds since the Unix epoch (wall clock): a registry publishes each
    /// snapshot right after making it, so this is when its set took effect (`/health`'s `schemasLoadedAt`).
    public let createdAtMilliseconds: Int
    /// Resolves defaults while this snapshot is being built; nil once published.
    nonisolated(unsafe) var defaultResolver: DefaultResolver?

    init(
        models: [CompiledModel?], ids: [String: Int], entries: [String: ModelEntry],
        lifecycles: [String: ModelLifecycle] = [:], schemas: [String: ModelSchema] = [:],
        limits: SchemaLimits = SchemaLimits()
    ) {
        self.models = models
        let named = ids.sorted { $0.value < $1.value }
        names = KeyIndex(named.map { Array($0.key.utf8) })
        nameIDs = named.map(\.value)
        versionTexts = named.map { entries[$0.key].map { String($0.version) } }
        self.ids = ids
        self.entries = entries
        self.lifecycles = lifecycles
        self.schemas = schemas
        self.limits = limits
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        createdAtMilliseconds = now.tv_sec * 1_000 + now.tv_nsec / 1_000_000
    }

    static let empty = RegistrySnapshot(models: [], ids: [:], entries: [:])

    /// The same registry with other lifecycles (a configuration change): the compiled models are shared.
    func replacingLifecycles(_ lifecycles: [String: ModelLifecycle]) -> RegistrySnapshot {
        RegistrySnapshot(
            models: models, ids: ids, entries: entries, lifecycles: lifecycles, schemas: schemas,
            limits: limits)
    }

    /// The current version number of a model as text (the `X-Model-Version` header), found like the model.
    public func versionText(of name: String) -> String? {
        guard let position = name.withUTF8Bytes({ names.id(of: UnsafeRawBufferPointer($0)) }) else { return nil }
        return versionTexts[position]
    }

    func model(_ id: Int) -> CompiledModel { models[id]! }

    func model(named name: String) -> CompiledModel? {
        guard let position = name.withUTF8Bytes({ names.id(of: UnsafeRawBufferPointer($0)) }) else { return nil }
        let id = nameIDs[position]
        return id < models.count ? models[id] : nil
    }

    /// Whether a model of this name is registered.
    public func contains(_ name: String) -> Bool { model(named: name) != nil }

    /// Registered model names, sorted.
    public var modelNames: [String] { entries.keys.sorted() }
}

/// What the registry knows about one model besides its metadata (docs/api.md, "The schema registry").
public struct ModelEntry: Sendable, Equatable {
    /// An entity tag for a document: `"` + the first 32 hex digits of its SHA-256 + `"`.
    package static func etag(for bytes: [UInt8]) -> String {
        "\"" + String(SHA256.hexDigest(bytes).prefix(32)) + "\""
    }

    /// Where the model comes from.
    public enum Source: String, Sendable { case file, registry, embedded }
    /// 1 when the name first appears, +1 per accepted change of its bytes.
    public var version: Int
    /// The strong ETag: `"` + the first 32 hex digits of SHA-256 of `document` + `"`.
    public var etag: String
    public var source: Source
    /// The canonical document bytes.
    public var document: [UInt8]
}
