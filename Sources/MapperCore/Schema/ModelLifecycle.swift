// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One kept version of a model: its number, canonical bytes, ETag and when this registry accepted it.
public struct ModelVersion: Sendable, Equatable {
    /// The version number (never reused for a name written through the API).
    public var version: Int
    /// The strong ETag of `document` (`ModelEntry.etag(for:)`).
    public var etag: String
    /// When the registry accepted this version, RFC 3339 in UTC.
    public var createdAt: String
    /// The canonical document bytes.
    public var document: [UInt8]

    /// Creates a version record; the ETag is computed from the bytes.
    public init(version: Int, createdAt: String, document: [UInt8]) {
        self.version = version
        self.etag = ModelEntry.etag(for: document)
        self.createdAt = createdAt
        self.document = document
    }
}

/// Everything the registry keeps about one model name besides its current compiled form (docs/lifecycle.md):
/// the kept versions, the counter that numbers them, and the name's compatibility configuration.
///
/// A plain value, serialisable on its own (`encoded()` / `init(decoding:)` in `RegistryOverlay+Coding.swift`), so
/// that a store may persist it per name; the overlay file holds one per API-written name. While the model
/// exists its current version is the last of `versions`; after a delete the versions stay (pinnable) and the
/// counter goes on, so a re-created name never repeats a number.
public struct ModelLifecycle: Sendable, Equatable {
    /// The highest version number ever given to this name.
    public var lastVersion: Int
    /// Kept versions, oldest first, at most `SchemaLimits.maxVersionsPerModel`.
    public var versions: [ModelVersion]
    /// The name's own compatibility configuration; nil members take the registry's defaults.
    public var config: CompatibilityConfig

    /// Creates a lifecycle.
    public init(
        lastVersion: Int = 0, versions: [ModelVersion] = [], config: CompatibilityConfig = CompatibilityConfig()
    ) {
        self.lastVersion = lastVersion
        self.versions = versions
        self.config = config
    }

    /// The kept version numbered `number`.
    public func version(_ number: Int) -> ModelVersion? {
        versions.last(where: { $0.version == number })
    }

    /// Records `document` as the next version (numbered after every earlier one), trimming the oldest beyond
    /// `keep`. Returns the new number.
    @discardableResult
    mutating func append(_ document: [UInt8], createdAt: String, keep: Int) -> Int {
        lastVersion += 1
        versions.append(ModelVersion(version: lastVersion, createdAt: createdAt, document: document))
        if versions.count > keep { versions.removeFirst(versions.count - keep) }
        return lastVersion
    }

    /// Records `document` under a number kept from elsewhere (an overlay written before histories existed).
    mutating func adopt(_ document: [UInt8], version: Int, createdAt: String, keep: Int) {
        lastVersion = max(lastVersion, version)
        if versions.last?.version == version, versions.last?.document == document { return }
        versions.removeAll { $0.version >= version }
        versions.append(ModelVersion(version: version, createdAt: createdAt, document: document))
        if versions.count > keep { versions.removeFirst(versions.count - keep) }
    }
}

/// A name's compatibility configuration (docs/lifecycle.md, Configuration); nil members mean "the default".
public struct CompatibilityConfig: Sendable, Equatable {
    /// The level checked on writes.
    public var level: CompatibilityLevel?
    /// The side (or sides) checked.
    public var view: CompatibilityView?

    /// Creates a configuration.
    public init(level: CompatibilityLevel? = nil, view: CompatibilityView? = nil) {
        self.level = level
        self.view = view
    }
}

/// Confluent's compatibility levels.
public enum CompatibilityLevel: String, Sendable, CaseIterable {
    case none
    case backward
    case forward
    case full
    case backwardTransitive = "backward_transitive"
    case forwardTransitive = "forward_transitive"
    case fullTransitive = "full_transitive"

    /// Whether documents of the older version must stay valid under the new one.
    public var checksBackward: Bool { [.backward, .full, .backwardTransitive, .fullTransitive].contains(self) }
    /// Whether documents of the new version must be valid under the older one.
    public var checksForward: Bool { [.forward, .full, .forwardTransitive, .fullTransitive].contains(self) }
    /// Whether every kept version is checked, not only the latest.
    public var isTransitive: Bool { [.backwardTransitive, .forwardTransitive, .fullTransitive].contains(self) }
}

/// Which side of a model a compatibility check reads.
public enum CompatibilityView: String, Sendable, CaseIterable {
    /// What the model accepts in strict mode.
    case input
    /// What normalization writes (the wire form), read by a tolerant reader.
    case output
    /// Both sides.
    case both
}

extension ModelVersion {
    /// The current time as RFC 3339 in UTC with milliseconds (`createdAt`).
    static func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let milliseconds = Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
        var out = OutputBuffer()
        DateFormatting.writeISO8601(Instant(microseconds: milliseconds * 1000), into: &out)
        return String(decoding: out.array, as: UTF8.self)
    }
}
