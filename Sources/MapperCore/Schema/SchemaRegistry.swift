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
    }

    /// Creates an empty registry.
    public init(limits: SchemaLimits = SchemaLimits()) {
        self.limits = limits
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
    public func load(_ files: [SchemaFile], overlay: RegistryOverlay? = nil) throws(SchemaSetError) -> RegistrySnapshot {
        try writer.withLock { (state) throws(SchemaSetError) -> RegistrySnapshot in
            var problems: [SchemaProblem] = []
            var documents: [String: SchemaDocumentEntry] = [:]
            for file in files {
                for document in SchemaDocumentEntry.read(file, limits: limits, problems: &problems) {
                    if document.schema.name.isEmpty { continue }
                    if let existing = documents[document.schema.name] {
                        problems.append(SchemaProblem(file: document.schema.origin.file, path: document.schema.origin.pointer + "/name",
                            message: "model \"\(document.schema.name)\" is already defined in \(existing.schema.origin.file)"))
                    } else {
                        documents[document.schema.name] = document
                    }
                }
            }
            if let overlay {
                for name in overlay.deleted { documents[name] = nil }
                for file in overlay.models {
                    for document in SchemaDocumentEntry.read(file, limits: limits, problems: &problems) {
                        documents[document.schema.name] = document
                    }
                }
            }
            return try publish(documents, earlier: problems, state: &state, persist: { _ in true })!
        }
    }

    /// Registers or replaces `upserts` and removes `deletes` atomically (the API's writes).
    public func apply(upserts: [SchemaFile], deletes: [String], source: ModelEntry.Source = .registry)
        throws(SchemaSetError) -> RegistrySnapshot
    {
        try apply(upserts: upserts, deletes: deletes, source: source, persist: { _ in true })!
    }

    /// `apply`, durable first: the new snapshot, valid and compiled, goes to `persist` before anyone can see it
    /// (writers wait meanwhile), and it is published only when `persist` says it is saved. Nil when it is not:
    /// then nothing changed.
    public func apply(upserts: [SchemaFile], deletes: [String], source: ModelEntry.Source = .registry,
                      persist: (RegistrySnapshot) -> Bool) throws(SchemaSetError) -> RegistrySnapshot?
    {
        try writer.withLock { (state) throws(SchemaSetError) -> RegistrySnapshot? in
            var problems: [SchemaProblem] = []
            var documents = state.documents
            for name in deletes { documents[name] = nil }
            for file in upserts {
                for var document in SchemaDocumentEntry.read(file, limits: limits, problems: &problems) {
                    document.source = source
                    documents[document.schema.name] = document
                }
            }
            return try publish(documents, earlier: problems, state: &state, persist: persist)
        }
    }

    /// `POST /schemas`: `{"models": […], "delete": ["A", …]}` applied atomically, references resolved inside the
    /// bundle. Returns the new snapshot and the names written.
    public func applyBundle(_ body: [UInt8], file: String = "(request)") throws(SchemaSetError)
        -> (snapshot: RegistrySnapshot, written: [String])
    {
        let (snapshot, written) = try applyBundle(body, file: file, persist: { _ in true })
        return (snapshot!, written)
    }

    /// `applyBundle`, durable first as `apply(upserts:deletes:source:persist:)` is: a nil snapshot when `persist`
    /// could not save it (nothing changed).
    public func applyBundle(_ body: [UInt8], file: String = "(request)", persist: (RegistrySnapshot) -> Bool)
        throws(SchemaSetError) -> (snapshot: RegistrySnapshot?, written: [String])
    {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONValue.parse(body)
        } catch {
            throw SchemaSetError(problems: [SchemaProblem(file: file, path: "", message: "invalid JSON at byte \(error.offset): \(error.description)")])
        }
        var problems: [SchemaProblem] = []
        guard case .object(let members) = root else {
            throw SchemaSetError(problems: [SchemaProblem(file: file, path: "", message: "a bundle must be an object {\"models\": […], \"delete\": […]}")])
        }
        var deletes: [String] = []
        var models: [JSONValue] = []
        for member in members {
            switch (member.key, member.value) {
            case ("models", .array(let list)): models = list
            case ("delete", .array(let names)):
                for (i, name) in names.enumerated() {
                    if case .string(let text) = name { deletes.append(text) } else {
                        problems.append(SchemaProblem(file: file, path: "/delete/\(i)", message: "delete lists model names"))
                    }
                }
            default:
                problems.append(SchemaProblem(file: file, path: "/" + JSONPointer.escape(member.key),
                                              message: "a bundle holds only \"models\" and \"delete\""))
            }
        }
        guard problems.isEmpty else { throw SchemaSetError(problems: problems) }
        let bundle = SchemaFile(name: file, bytes: JSONValue.object([("models", .array(models))]).bytes, source: .registry)
        var written: [String] = []
        for model in models { if case .string(let name)? = model["name"] { written.append(name) } }
        return (try apply(upserts: [bundle], deletes: deletes, persist: persist), written)
    }

    /// Validates and compiles `documents` as the new whole set and publishes it once `persist` has saved it (nil,
    /// and nothing changed, when it could not).
    /// `earlier` holds the problems found while decoding; the set is still checked and compiled as far as it can
    /// be, so every problem is reported at once.
    private func publish(_ documents: [String: SchemaDocumentEntry], earlier: [SchemaProblem] = [],
                         state: inout WriterState, persist: (RegistrySnapshot) -> Bool)
        throws(SchemaSetError) -> RegistrySnapshot?
    {
        var compiler = SchemaCompiler(models: documents.values.map(\.schema), ids: state.ids, limits: limits)
        compiler.validateSet()
        var compiled: [CompiledModel] = []
        for name in compiler.buildable() { compiled.append(compiler.build(name)) }
        var problems = earlier + compiler.problems
        var table = [CompiledModel?](repeating: nil, count: (compiler.ids.values.max() ?? -1) + 1)
        for model in compiled { table[model.id] = model }
        let previous = current.entries
        var entries: [String: ModelEntry] = [:]
        for (name, document) in documents {
            let etag = ModelEntry.etag(for: document.canonical)
            var version = 1
            if let old = previous[name] { version = old.document == document.canonical ? old.version : old.version + 1 }
            if let kept = document.version { version = kept }
            entries[name] = ModelEntry(version: version, etag: etag, source: document.source, document: document.canonical)
        }
        let snapshot = RegistrySnapshot(models: table, ids: compiler.ids, entries: entries)
        let resolver = DefaultResolver(schemas: documents.mapValues(\.schema), limits: limits)
        resolver.snapshot = snapshot
        snapshot.defaultResolver = resolver
        resolver.resolveAll(compiled)
        snapshot.defaultResolver = nil
        problems += resolver.problems
        guard problems.isEmpty else { throw SchemaSetError(problems: problems) }
        guard persist(snapshot) else { return nil }
        compilations.add(compiled.count, ordering: .relaxed)
        state.documents = documents
        state.ids = compiler.ids
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
    /// Fills in a model's absent `name` (the path of `PUT /schemas/{Model}`).
    public var impliedName: String?
    /// A version kept from earlier (the overlay's), instead of counting from the previous snapshot.
    public var version: Int?

    /// Creates a schema file.
    public init(name: String, bytes: [UInt8], source: ModelEntry.Source = .file, impliedName: String? = nil,
                version: Int? = nil) {
        self.name = name
        self.bytes = bytes
        self.source = source
        self.impliedName = impliedName
        self.version = version
    }
}

/// The persisted registry writes (`.registry.json`): registered models and deletion markers.
public struct RegistryOverlay: Sendable {
    /// Registered models, each one model document with its kept version.
    public var models: [SchemaFile]
    /// Names hidden from the schema files.
    public var deleted: [String]

    /// Creates an overlay.
    public init(models: [SchemaFile], deleted: [String]) {
        self.models = models
        self.deleted = deleted
    }
}

/// A schema set was rejected; every problem found is listed.
public struct SchemaSetError: Error, Sendable, Equatable {
    /// Every problem, with file and JSON Pointer.
    public var problems: [SchemaProblem]
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
    static func read(_ file: SchemaFile, limits: SchemaLimits, problems: inout [SchemaProblem]) -> [SchemaDocumentEntry] {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONValue.parse(file.bytes)
        } catch {
            let (line, column) = file.bytes.withUnsafeBytes { error.location(in: $0) }
            problems.append(SchemaProblem(file: file.name, path: "",
                message: "invalid JSON at line \(line), column \(column) (byte \(error.offset)): \(error.description)"))
            return []
        }
        var documents: [(JSONValue, String)] = []
        if case .array(let models)? = value["models"], file.impliedName == nil {
            if case .object(let members) = value {
                for member in members where member.key != "models" {
                    problems.append(SchemaProblem(file: file.name, path: "/" + JSONPointer.escape(member.key),
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
                decoder.problem(pointer, "the model document is \(canonical.count) bytes, over the limit of \(limits.maxDocumentBytes)")
                continue
            }
            if let schema = decoder.decodeModel(document, at: pointer, impliedName: file.impliedName) {
                result.append(SchemaDocumentEntry(schema: schema, canonical: canonical, source: file.source,
                                                  version: file.version))
            }
        }
        problems += decoder.problems
        return result
    }
}
