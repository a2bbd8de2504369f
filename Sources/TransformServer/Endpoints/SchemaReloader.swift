// SPDX-License-Identifier: Apache-2.0

import Dispatch
import MapperCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Reloads the schema directory while the server runs (docs/operations.md, "Schema hot reload"): on `SIGHUP`
/// always, and every `schemaReloadIntervalMs` when the directory's content changed.
///
/// A poll lists and reads the schema files exactly as a reload would (symbolic links followed, dot names such as
/// Kubernetes' `..data` and the overlay `.registry.json` skipped) and compares their content fingerprint
/// (`SchemaFile.fingerprint(of:)`) with the last one attempted. Only a different fingerprint is an attempt: the
/// whole set is validated and compiled, then takes effect or is rejected, with one log event and one count in
/// `transform_schema_reloads_total`. So an unchanged directory costs a read and a hash, never a compile; a touch,
/// a same-bytes rewrite or Kubernetes' `..data` swap to equal files does nothing; a broken state is logged and
/// counted once, and the next change is attempted again. A directory that cannot be read counts as one state per
/// distinct error.
///
/// Every attempt runs on the main queue (where the signal handlers run), so attempts never overlap; the registry
/// write lock keeps an attempt from interleaving with an API write.
enum SchemaReloader {
    /// What the last attempt saw.
    struct State {
        /// The fingerprint of the files last loaded or attempted (or of the read error that stopped the attempt).
        var attempted: [UInt8] = []
    }

    /// What started an attempt (the `trigger` of its log event).
    enum Trigger: String {
        case signal
        case change
    }

    /// Starts polling when the setting is on and the schemas come from a directory; keep the timer for as long as
    /// it should run.
    static func startPolling(_ context: ServerContext, queue: DispatchQueue = .main) -> (any DispatchSourceTimer)? {
        let interval = context.configuration.schemaReloadIntervalMs
        guard interval > 0, case .directory = context.configuration.schemaSource else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + .milliseconds(interval), repeating: .milliseconds(interval),
            leeway: .milliseconds(min(interval / 10, 100)))
        timer.setEventHandler { reload(context, trigger: .change) }
        timer.resume()
        return timer
    }

    /// One attempt. `.signal` always loads; `.change` loads only when the fingerprint differs from the last one
    /// attempted.
    static func reload(_ context: ServerContext, trigger: Trigger) {
        guard case .directory(let path) = context.configuration.schemaSource else { return }
        // Out of descriptors (the listener pauses accepting then) says nothing about the schemas: a poll waits
        // for the next interval instead of reading, failing, and counting a rejected state.
        if trigger == .change {
            let probe = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if probe < 0, errno == EMFILE || errno == ENFILE { return }
            if probe >= 0 { close(probe) }
        }
        let files: [SchemaFile]
        do throws(SchemaDirectory.LoadError) {
            files = try context.configuration.schemaSource.files()
        } catch {
            // A state that is no set of files: fingerprinted as one file named by a NUL, holding the message.
            let state = SchemaFile(name: "\u{0}", bytes: Array(error.description.utf8))
            attempt(context, trigger: trigger, fingerprint: SchemaFile.fingerprint(of: [state])) { throw error }
            return
        }
        attempt(context, trigger: trigger, fingerprint: SchemaFile.fingerprint(of: files)) {
            try load(files, into: context)
        }
    }

    /// Runs `body` unless `.change` found nothing new, then logs and counts its outcome.
    private static func attempt(
        _ context: ServerContext, trigger: Trigger, fingerprint: [UInt8],
        _ body: () throws -> Void
    ) {
        let isNew = context.schemaReloadState.withLock { state in
            defer { state.attempted = fingerprint }
            return state.attempted != fingerprint
        }
        guard isNew || trigger == .signal else { return }
        do {
            try body()
            context.metrics.recordSchemaReload(accepted: true)
            let snapshot = context.registry.current
            Log.event(
                .schemasReloaded,
                [
                    ("trigger", trigger.rawValue), ("models", String(snapshot.entries.count)),
                    ("schemaSet", context.schemaSet(of: snapshot)),
                ])
        } catch let error as SchemaSetError {
            context.metrics.recordSchemaReload(accepted: false)
            Log.event(
                .schemasReloadRejected,
                [
                    ("trigger", trigger.rawValue),
                    ("problems", error.problems.map(\.description).joined(separator: "; ")),
                ])
        } catch {
            context.metrics.recordSchemaReload(accepted: false)
            Log.event(.schemasReloadRejected, [("trigger", trigger.rawValue), ("error", "\(error)")])
        }
    }

    /// The files with the registry writes on top, validated as one set; the running registry stays if it is broken.
    private static func load(_ files: [SchemaFile], into context: ServerContext) throws {
        // With the etcd store the overlay is the store's state: the new files go under it (docs/cluster.md).
        if let shared = context.shared {
            let snapshot = try shared.reload(files: files)
            context.setFileModelNames(of: snapshot, overlay: nil)
            return
        }
        try context.registryWrites.withLock { _ in
            // With a writable directory the writes are in its overlay file; otherwise they live in memory, in the
            // running registry, and are carried over from it.
            let overlay =
                context.overlayDirectory == nil
                ? context.writtenOverlay() : try context.configuration.schemaSource.overlay()
            let snapshot = try context.registry.load(files, overlay: overlay)
            context.setFileModelNames(of: snapshot, overlay: overlay)
        }
    }
}
