// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

#if canImport(Glibc)
import Glibc
#endif

/// Reads the registry overlay `.registry.json` of a schema directory (API.md, Persistence):
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

    /// Rewrites the overlay whole: a temporary file, fsync, rename over the old one, fsync of the directory — so a
    /// crash leaves the old or the new overlay, never a mix.
    static func write(_ overlay: RegistryOverlay, in directory: String) throws(SocketError) {
        let path = directory + "/" + name
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SocketError(operation: "open \(temporary)", errno: errno) }
        let bytes = overlay.encoded()
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = errno
                Glibc.close(fd)
                throw SocketError(operation: "write \(temporary)", errno: error)
            }
            offset += n
        }
        guard fsync(fd) == 0 else {
            let error = errno
            Glibc.close(fd)
            throw SocketError(operation: "fsync \(temporary)", errno: error)
        }
        Glibc.close(fd)
        guard rename(temporary, path) == 0 else { throw SocketError(operation: "rename \(temporary)", errno: errno) }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            Glibc.close(directoryFD)
        }
    }

    /// Whether registry writes can be persisted in `directory`.
    static func isWritable(_ directory: String) -> Bool { access(directory, W_OK) == 0 }
}
