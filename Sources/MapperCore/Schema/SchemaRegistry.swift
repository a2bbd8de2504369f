// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// The registry shared by every thread: an immutable `RegistrySnapshot` replaced as a whole.
///
/// Readers take the current snapshot under a lock whose critical section only retains it, so they never wait for a
/// compile (`Locked` says why it is a pthread mutex). Writers are serialised by a second lock, validate and compile
/// the whole new set outside the readers' lock, and publish the result in one store; a rejected set changes
/// nothing. Running conversions keep the snapshot they started with.
public final class SchemaRegistry: Sendable {
    private let published: Locked<RegistrySnapshot>
    private let writer: Locked<WriterState>
    /// The limits every schema set is checked against.
    public let limits: SchemaLimits
    /// Models compiled since start (each compile is a meta-cache miss).
    private let compilations = Atomic<Int>(0)

    struct WriterState {
        var documents: [String: SchemaDocumentEntry] = [:]
        var ids: [String: Int] = [:]
        /// Every name's history, counter and configuration (deleted names' too).
        var lifecycles: [String: ModelLifecycle] = [:]
    }

    /// The compatibility level and view of models without their own (settings `defaultCompatibility`,
    /// `compatibilityView`).
    public let compatibilityDefaults: CompatibilityConfig

    /// Creates an empty registry.
    public init(
        limits: SchemaLimits = SchemaLimits(), compatibilityDefaults: CompatibilityConfig = CompatibilityConfig()
    ) {
        self.limits = limits
        self.compatibilityDefaults = compatibilityDefaults
        published = Locked(RegistrySnapshot.empty)
        writer = Locked(WriterState())
    }

    /// The current snapshot; conversions started with it finish with it.
    public var current: RegistrySnapshot { published.withLock { $0 } }

    /// How many models have been compiled since start.
    public var compiledCount: Int { compilations.load(ordering: .relaxed) }

    /// Replaces the whole registry with the models of `files` (start-up and SIGHUP), all or nothing. The
    /// `overlay` (the persisted registry writes) goes on top: its models replace file models of the same name and
    /// its deletion markers hide them.
    @discardableResult
    public func load(_ files: [SchemaFile], overlay: RegistryOverlay? = nil) throws(SchemaSetError) -> RegistrySnapshot
    {
        try writer.withLock { (state) throws(SchemaSetError) -> RegistrySnapshot in
            var problems: [SchemaProblem] = []
            var documents: [String: SchemaDocumentEntry] = [:]
            for file in files {
                for document in SchemaDocumentEntry.read(file, limits: limits, problems: &problems) {
                    if document.schema.name.isEmpty { continue }
                    if let existing = documents[document.schema.name] {
                        problems.append(
                            SchemaProblem(
                                file: document.schema.origin.file, path: document.schema.origin.pointer + "/name",
                                message:
                                    "model \"\(document.schema.name)\" is already defined in \(existing.schema.origin.file)"
                            ))
                    } else {
                        documents[document.schema.name] = document
                    }
                }
            }
            var lifecycles = state.lifecycles
            if let overlay {
                // The overlay is authoritative at start-up; on a reload, history this process recorded later
                // (a file model's, which the overlay does not hold) stays, with the overlay's configuration.
                for (name, lifecycle) in overlay.lifecycles {
                    if let running = lifecycles[name], running.lastVersion > lifecycle.lastVersion {
                        lifecycles[name]!.config = lifecycle.config
                    } else {
                        lifecycles[name] = lifecycle
                    }
                }
                for name in overlay.deleted { documents[name] = nil }
                for file in overlay.models {
                    for document in SchemaDocumentEntry.read(file, limits: limits, problems: &problems) {
                        documents[document.schema.name] = document
                    }
                }
            }
            return try publish(
                documents, earlier: problems, lifecycles: lifecycles, state: &state,
                persist: { _ in true })!
        }
    }

    /// Registers or replaces `upserts` and removes `deletes` atomically (the API's writes). With
    /// `checkingCompatibility`, every written model whose bytes change is checked at its configured level first
    /// (docs/lifecycle.md): an incompatible change throws with `compatibility` set and changes nothing.
    public func apply(
        upserts: [SchemaFile], deletes: [String], source: ModelEntry.Source = .registry,
        checkingCompatibility: Bool = false
    ) throws(SchemaSetError) -> RegistrySnapshot {
        try apply(
            upserts: upserts, deletes: deletes, source: source, checkingCompatibility: checkingCompatibility,
            persist: { _ in true })!
    }

    /// `apply`, durable first: the new snapshot, valid, compiled and (with `checkingCompatibility`) compatible,
    /// goes to `persist` before anyone can see it (writers wait meanwhile), and it is published only when `persist`
    /// says it is saved. Nil when it is not: then nothing changed.
    public func apply(
        upserts: [SchemaFile], deletes: [String], source: ModelEntry.Source = .registry,
        checkingCompatibility: Bool = false, persist: (RegistrySnapshot) -> Bool
    )
        throws(SchemaSetError) -> RegistrySnapshot?
    {
        try writer.withLock { (state) throws(SchemaSetError) -> RegistrySnapshot? in
            let (documents, problems) = merged(upserts: upserts, deletes: deletes, source: source, state: state)
            return try publish(
                documents, earlier: problems, lifecycles: state.lifecycles, state: &state,
                checking: checkingCompatibility, persist: persist)
        }
    }

    /// The registry as it would be after writing `file` (one model document), compiled but not published: for
    /// dry runs and replays. Throws its problems when it is invalid.
    public func propose(_ file: SchemaFile) throws(SchemaSetError) -> RegistrySnapshot {
        try writer.withLock { (state) throws(SchemaSetError) -> RegistrySnapshot in
            var scratch = state
            let (documents, problems) = merged(upserts: [file], deletes: [], source: .registry, state: state)
            return try publish(
                documents, earlier: problems, lifecycles: state.lifecycles, state: &scratch,
                dryRun: true, persist: { _ in true })!
        }
    }

    private func merged(upserts: [SchemaFile], deletes: [String], source: ModelEntry.Source, state: WriterState)
        -> ([String: SchemaDocumentEntry], [SchemaProblem])
    {
        var problems: [SchemaProblem] = []
        var documents = state.documents
        for name in deletes { documents[name] = nil }
        for file in upserts {
            for var document in SchemaDocumentEntry.read(file, limits: limits, problems: &problems) {
                document.source = source
                documents[document.schema.name] = document
            }
        }
        return (documents, problems)
    }

    /// Sets the compatibility configuration of `name` (existing or not), keeping members that are nil, and
    /// publishes it with an otherwise unchanged registry once `persist` has saved it. Returns the new snapshot, or
    /// nil (nothing changed) when it could not be saved.
    public func configure(
        _ name: String, level: CompatibilityLevel?, view: CompatibilityView?,
        persist: (RegistrySnapshot) -> Bool = { _ in true }
    ) -> RegistrySnapshot? {
        writer.withLock { state in
            var lifecycle = state.lifecycles[name] ?? ModelLifecycle()
            if let level { lifecycle.config.level = level }
            if let view { lifecycle.config.view = view }
            var lifecycles = state.lifecycles
            lifecycles[name] = lifecycle
            let snapshot = current.replacingLifecycles(lifecycles)
            guard persist(snapshot) else { return nil }
            state.lifecycles = lifecycles
            published.withLock { $0 = snapshot }
            return snapshot
        }
    }

    /// A bundle `{"models": […], "delete": ["A", …]}` applied atomically, references resolved inside the
    /// bundle. Returns the new snapshot and the names written.
    public func applyBundle(_ body: [UInt8], file: String = "(request)", checkingCompatibility: Bool = false)
        throws(SchemaSetError) -> (snapshot: RegistrySnapshot, written: [String])
    {
        let (snapshot, written) = try applyBundle(
            body, file: file, checkingCompatibility: checkingCompatibility,
            persist: { _ in true })
        return (snapshot!, written)
    }

    /// `applyBundle`, durable first as `apply(upserts:deletes:source:persist:)` is: a nil snapshot when `persist`
    /// could not save it (nothing changed).
    public func applyBundle(
        _ body: [UInt8], file: String = "(request)", checkingCompatibility: Bool = false,
        persist: (RegistrySnapshot) -> Bool
    )
        throws(SchemaSetError) -> (snapshot: RegistrySnapshot?, written: [String])
    {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONValue.parse(body)
        } catch {
            throw SchemaSetError(problems: [
                SchemaProblem(
                    file: file, path: "", message: error.located)
            ])
        }
        var problems: [SchemaProblem] = []
        guard case .object(let members) = root else {
            throw SchemaSetError(problems: [
                SchemaProblem(
                    file: file, path: "", message: "a bundle must be an object {\"models\": […], \"delete\": […]}")
            ])
        }
        var deletes: [String] = []
        var models: [JSONValue] = []
        for member in members {
            switch (member.key, member.value) {
            case ("models", .array(let list)): models = list
            case ("delete", .array(let names)):
                for (i, name) in names.enumerated() {
                    if case .string(let text) = name {
                        deletes.append(text)
                    } else {
                        problems.append(
                            SchemaProblem(file: file, path: "/delete/\(i)", message: "delete lists model names"))
                    }
                }
            default:
                problems.append(
                    SchemaProblem(
                        file: file, path: "/" + JSONPointer.escape(member.key),
                        message: "a bundle holds only \"models\" and \"delete\""))
            }
        }
        guard problems.isEmpty else { throw SchemaSetError(problems: problems) }
        let bundle = SchemaFile(
            name: file, bytes: JSONValue.object([("models", .array(models))]).bytes, source: .registry)
        var written: [String] = []
        for model in models { if case .string(let name)? = model["name"] { written.append(name) } }
        return (
            try apply(
                upserts: [bundle], deletes: deletes, checkingCompatibility: checkingCompatibility,
                persist: persist), written
        )
    }

    /// Validates and compiles `documents` as the new whole set and publishes it once `persist` has saved it (nil,
    /// and nothing changed, when it could not).
    /// `earlier` holds the problems found while decoding; the set is still checked and compiled as far as it can
    /// be, so every problem is reported at once.
    private func publish(
        _ documents: [String: SchemaDocumentEntry], earlier: [SchemaProblem] = [],
        lifecycles: [String: ModelLifecycle], state: inout WriterState, checking: Bool = false,
        dryRun: Bool = false, persist: (RegistrySnapshot) -> Bool
    ) throws(SchemaSetError)
        -> RegistrySnapshot?
    {
        let previous = current.entries
        let now = ModelVersion.now()
        var lifecycles = lifecycles
        var entries: [String: ModelEntry] = [:]
        for (name, document) in documents {
            var lifecycle = lifecycles[name] ?? ModelLifecycle()
            let version: Int
            if let kept = document.version {
                lifecycle.adopt(document.canonical, version: kept, createdAt: now, keep: limits.maxVersionsPerModel)
                version = kept
            } else if let old = previous[name], old.document == document.canonical {
                version = old.version
            } else {
                // A new name, a changed document, or a re-created one: the counter never goes back.
                version = lifecycle.append(document.canonical, createdAt: now, keep: limits.maxVersionsPerModel)
            }
            lifecycles[name] = lifecycle
            entries[name] = ModelEntry(
                version: version, etag: ModelEntry.etag(for: document.canonical),
                source: document.source, document: document.canonical)
        }
        let (snapshot, compiled, problems) = RegistrySnapshot.compile(
            documents.mapValues(\.schema), ids: state.ids, limits: limits, entries: entries, lifecycles: lifecycles,
            earlier: earlier)
        guard problems.isEmpty else { throw SchemaSetError(problems: problems) }
        if dryRun { return snapshot }
        if checking {
            // Validity first (400), then compatibility (409): only models whose bytes change are checked.
            let before = current
            var report = CompatibilityReport()
            for name in documents.keys.sorted()
            where previous[name]?.document != documents[name]!.canonical
                && documents[name]!.source == .registry
            {
                let (level, view) = before.effectiveConfig(of: name, defaults: compatibilityDefaults)
                before.checkCompatibility(of: name, proposed: snapshot, level: level, view: view, into: &report)
            }
            if !report.isCompatible { throw SchemaSetError(problems: [], compatibility: report) }
        }
        guard persist(snapshot) else { return nil }
        compilations.add(compiled, ordering: .relaxed)
        state.documents = documents
        state.ids = snapshot.ids
        state.lifecycles = lifecycles
        published.withLock { $0 = snapshot }
        return snapshot
    }
}

/// A schema file's bytes and name (the loader reads files; MapperCore does no I/O).
public struct SchemaFile: Sendable {
    /// The file name (or `(request)`), used in problem reports.
    public var name: String
    /// The file's contents.
    public var bytes: [UInt8]
    /// Where the models come from.
    public var source: ModelEntry.Source
    /// Fills in a model's absent `name` (a model written under a name it does not state).
    public var impliedName: String?
    /// A version kept from earlier (the overlay's), instead of counting from the previous snapshot.
    public var version: Int?

    /// Creates a schema file.
    public init(
        name: String, bytes: [UInt8], source: ModelEntry.Source = .file, impliedName: String? = nil,
        version: Int? = nil
    ) {
        self.name = name
        self.bytes = bytes
        self.source = source
        self.impliedName = impliedName
        self.version = version
    }
}

/// A schema set was rejected; every problem found is listed.
public struct SchemaSetError: Error, Sendable, Equatable {
    /// Every problem, with file and JSON Pointer.
    public var problems: [SchemaProblem]
    /// Set instead of problems when the set is valid but a change breaks a model's compatibility level.
    public var compatibility: CompatibilityReport?

    /// Creates the error.
    public init(problems: [SchemaProblem], compatibility: CompatibilityReport? = nil) {
        self.problems = problems
        self.compatibility = compatibility
    }
}

/// One model document of the registry, decoded, with its canonical bytes.
struct SchemaDocumentEntry: Sendable {
    var schema: ModelSchema
    var canonical: [UInt8]
    var source: ModelEntry.Source
    var version: Int?

    /// The model documents of one file: a model, or a bundle `{"models": […]}`.
    /// Models whose documents have problems are still returned, without their broken parts, so the rest of the
    /// set is checked too.
    static func read(_ file: SchemaFile, limits: SchemaLimits, problems: inout [SchemaProblem]) -> [SchemaDocumentEntry]
    {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONValue.parse(file.bytes)
        } catch {
            let (line, column) = file.bytes.withUnsafeBytes { error.location(in: $0) }
            problems.append(
                SchemaProblem(
                    file: file.name, path: "",
                    message:
                        "invalid JSON at line \(line), column \(column) (byte \(error.offset)): \(error.description)"))
            return []
        }
        var documents: [(JSONValue, String)] = []
        if case .array(let models)? = value["models"], file.impliedName == nil {
            if case .object(let members) = value {
                for member in members where member.key != "models" {
                    problems.append(
                        SchemaProblem(
                            file: file.name, path: "/" + JSONPointer.escape(member.key),
                            message: "a bundle holds only \"models\""))
                }
            }
            documents = models.enumerated().map { ($1, "/models/\($0)") }
        } else {
            documents = [(value, "")]
        }
        var decoder = SchemaDecoder(file: file.name)
        var result: [SchemaDocumentEntry] = []
        for (document, pointer) in documents {
            var canonicalValue = document
            if case .object(let members) = document, document["name"] == nil, let implied = file.impliedName {
                canonicalValue = .object([("name", .string(implied))] + members)
            }
            let canonical = canonicalValue.bytes
            if canonical.count > limits.maxDocumentBytes {
                decoder.problem(
                    pointer,
                    "the model document is \(canonical.count) bytes, over the limit of \(limits.maxDocumentBytes)")
                continue
            }
            if let schema = decoder.decodeModel(document, at: pointer, impliedName: file.impliedName) {
                result.append(
                    SchemaDocumentEntry(
                        schema: schema, canonical: canonical, source: file.source,
                        version: file.version))
            }
        }
        problems += decoder.problems
        return result
    }
}
