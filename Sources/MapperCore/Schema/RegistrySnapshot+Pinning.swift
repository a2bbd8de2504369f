// SPDX-License-Identifier: Apache-2.0

/// Why a pinned version cannot be used.
public enum PinningError: Error, Sendable, Equatable {
    /// The name has no kept version of that number.
    case unknownVersion(model: String, version: Int)
    /// The kept document no longer compiles against today's referenced models (one sentence of why).
    case uncompilable(model: String, version: Int, reason: String)
}

extension PinningError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownVersion(let model, let version): "Version \(version) of \(model) is not kept."
        case .uncompilable(let model, let version, let reason):
            "Version \(version) of \(model) no longer compiles with the current models it references: \(reason)."
        }
    }
}

/// A model's pinned versions compiled from one snapshot, least recently used first.
struct PinnedVersions {
    /// The most pinned versions kept compiled per model (docs/lifecycle.md, Pinning).
    static let capacity = 64
    /// (version, snapshot), the most recently used last; only touched under the snapshot's cache lock.
    var entries: [(version: Int, snapshot: RegistrySnapshot)] = []
}

extension RegistrySnapshot {
    /// A snapshot in which `name` is its kept version `version` and every model it references is current
    /// (docs/lifecycle.md, Pinning): conversions run on it exactly as on a current snapshot. Compiled on first use
    /// and cached with this snapshot, least recently used first, up to `PinnedVersions.capacity` per model. The
    /// current version is this snapshot itself.
    public func pinned(_ name: String, version: Int) throws(PinningError) -> RegistrySnapshot {
        if entries[name]?.version == version { return self }
        guard let kept = lifecycles[name]?.version(version) else {
            throw .unknownVersion(model: name, version: version)
        }
        if let hit = pinnedCache.withLock({ $0[name, default: PinnedVersions()].touch(version) }) { return hit }
        // Compiled outside the lock: two first uses at once compile twice and keep one.
        let snapshot = try compilePinned(name, kept).get()
        pinnedCache.withLock { $0[name, default: PinnedVersions()].insert(version, snapshot) }
        return snapshot
    }

    /// Compiles `kept` as `name` with the models it reaches, today's versions of them.
    private func compilePinned(_ name: String, _ kept: ModelVersion) -> Result<RegistrySnapshot, PinningError> {
        var problems: [SchemaProblem] = []
        let file = SchemaFile(name: "(version \(kept.version))", bytes: kept.document, source: .registry)
        guard let document = SchemaDocumentEntry.read(file, limits: limits, problems: &problems).first,
            problems.isEmpty
        else {
            return .failure(
                .uncompilable(
                    model: name, version: kept.version,
                    reason: problems.first?.message ?? "the document does not decode"))
        }
        var set = schemas
        set[name] = document.schema
        set = Self.reachable(from: name, in: set)
        var pinnedEntries = entries.filter { set[$0.key] != nil }
        pinnedEntries[name] = ModelEntry(
            version: kept.version, etag: kept.etag, source: .registry, document: kept.document)
        let (snapshot, _, found) = Self.compile(set, ids: [:], limits: limits, entries: pinnedEntries, lifecycles: [:])
        guard found.isEmpty else {
            return .failure(
                .uncompilable(
                    model: name, version: kept.version,
                    reason: found.map { "\($0.path) \($0.message)" }.joined(separator: "; ")))
        }
        return .success(snapshot)
    }

    /// The models `name` reaches through property types, `extends` and `classForDictionary` targets.
    static func reachable(from name: String, in schemas: [String: ModelSchema]) -> [String: ModelSchema] {
        var result: [String: ModelSchema] = [:]
        var pending = [name]
        while let next = pending.popLast() {
            guard result[next] == nil, let schema = schemas[next] else { continue }
            result[next] = schema
            if let parent = schema.parent { pending.append(parent) }
            for rule in schema.classRules { pending.append(rule.use) }
            for property in schema.properties { pending += referencedModels(property.value) }
        }
        return result
    }

    private static func referencedModels(_ value: ValueSchema) -> [String] {
        switch value.type {
        case .builtin: []
        case .container(_, let element): element.map(referencedModels) ?? []
        case .model(let name): [name]
        }
    }
}

extension PinnedVersions {
    /// The cached snapshot of `version`, now the most recently used.
    mutating func touch(_ version: Int) -> RegistrySnapshot? {
        guard let at = entries.firstIndex(where: { $0.version == version }) else { return nil }
        let entry = entries.remove(at: at)
        entries.append(entry)
        return entry.snapshot
    }

    /// Caches `snapshot`, dropping the least recently used beyond the capacity.
    mutating func insert(_ version: Int, _ snapshot: RegistrySnapshot) {
        entries.removeAll { $0.version == version }
        entries.append((version, snapshot))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }
}
