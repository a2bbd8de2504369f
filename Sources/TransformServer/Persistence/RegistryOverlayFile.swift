// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the registry overlay `.registry.json` of a schema directory (docs/api.md, "Persistence"):
///
///     {"models": [{"version": 3, "schema": {"name": "User", …}}, …], "deleted": ["OldModel"]}
///
/// Each entry holds one registered model document and the version it had; `deleted` lists names hidden from the
/// schema files. The server rewrites the file whole on every registry write.
enum RegistryOverlayFile {
    static let name = ".registry.json"

    enum LoadError: Error, CustomStringConvertible {
        case malformed(path: String, reason: String)

        var description: String {
            switch self {
            case .malformed(let path, let reason): "The registry overlay \(path) is unusable: \(reason)."
            }
        }
    }

    /// The overlay of `directory`, or nil when it has none.
    static func read(in directory: String) throws(LoadError) -> RegistryOverlay? {
        let path = directory + "/" + name
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return try RegistryOverlay(decoding: [UInt8](data), file: name)
        } catch let error as RegistryOverlay.DecodingError {
            throw .malformed(path: path, reason: error.description)
        } catch {
            throw .malformed(path: path, reason: "\(error)")
        }
    }

    /// Saves the registry writes of `snapshot`: every model registered through the API, and a deletion marker for
    /// each of `fileModels` (the schema files' models) that it no longer holds. Called before the snapshot is
    /// published (docs/api.md, Persistence): when this throws, the change is refused and nothing changes.
    static func save(_ snapshot: RegistrySnapshot, fileModels: Set<String>, in directory: String) throws(FileError) {
        let models = snapshot.modelNames.compactMap { name -> SchemaFile? in
            guard let entry = snapshot.entries[name], entry.source == .registry else { return nil }
            return SchemaFile(name: Self.name, bytes: entry.document, source: .registry, version: entry.version)
        }
        let deleted = fileModels.filter { !snapshot.contains($0) }.sorted()
        // Every name's lifecycle goes too (docs/lifecycle.md, Persistence), except the history of a current file
        // model: file models count from 1 at each start, so only their configuration is kept.
        var lifecycles: [String: ModelLifecycle] = [:]
        for (name, lifecycle) in snapshot.lifecycles {
            if let entry = snapshot.entries[name], entry.source != .registry {
                if lifecycle.config != CompatibilityConfig() {
                    lifecycles[name] = ModelLifecycle(config: lifecycle.config)
                }
            } else {
                lifecycles[name] = lifecycle
            }
        }
        try write(RegistryOverlay(models: models, deleted: deleted, lifecycles: lifecycles), in: directory)
    }

    /// Rewrites the overlay whole: a temporary file, fsync, rename over the old one, fsync of the directory — so a
    /// crash leaves the old or the new overlay, never a mix. Any failed step throws (the old overlay stays).
    static func write(_ overlay: RegistryOverlay, in directory: String) throws(FileError) {
        let path = directory + "/" + name
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(operation: .open, path: temporary, errno: errno) }
        let bytes = overlay.encoded()
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = errno
                Glibc.close(fd)
                throw FileError(operation: .write, path: temporary, errno: error)
            }
            offset += n
        }
        guard fsync(fd) == 0 else {
            let error = errno
            Glibc.close(fd)
            throw FileError(operation: .fsync, path: temporary, errno: error)
        }
        guard Glibc.close(fd) == 0 else { throw FileError(operation: .close, path: temporary, errno: errno) }
        guard rename(temporary, path) == 0 else { throw FileError(operation: .rename, path: temporary, errno: errno) }
        // The rename is durable only once the directory is: until then a crash may bring back the old overlay.
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw FileError(operation: .open, path: directory, errno: errno) }
        defer { Glibc.close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw FileError(operation: .fsync, path: directory, errno: errno) }
    }

    /// Saves a registry change before it is published (`SchemaRegistry.apply(…persist:)`) into the server's
    /// overlay directory, and keeps why it failed; with no writable schema directory, writes live in memory only
    /// and saving always succeeds.
    final class Saver {
        private let directory: String?
        private let fileModels: Set<String>
        /// Why the last `save` failed (the change was refused).
        private(set) var failure: FileError?

        /// `directory`: the overlay's directory (nil: no writable schema directory); `fileModels`: the models the
        /// schema files define, which the overlay records only when the API replaced or deleted them.
        init(directory: String?, fileModels: Set<String>) {
            self.directory = directory
            self.fileModels = fileModels
        }

        func save(_ snapshot: RegistrySnapshot) -> Bool {
            guard let directory else { return true }
            do throws(FileError) {
                try RegistryOverlayFile.save(snapshot, fileModels: fileModels, in: directory)
                return true
            } catch {
                Log.event(.registryPersistFailed, ["directory": directory, "error": error.description])
                failure = error
                return false
            }
        }
    }

    /// Whether registry writes can be persisted in `directory`.
    static func isWritable(_ directory: String) -> Bool { access(directory, W_OK) == 0 }
}
