// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a schema directory (docs/schema.md, "Files and bundles"): its top-level `*.json` files, symbolic links
/// followed, names starting with `.` skipped (Kubernetes ConfigMap internals, the registry overlay `.registry.json`).
enum SchemaDirectory {
    /// Why a schema directory cannot be read; each description is one line naming the path.
    enum LoadError: Error, CustomStringConvertible {
        case missing(path: String)
        case notADirectory(path: String)
        /// A configuration folder (`schemas/`, `server.json`) given where its `schemas/` folder was meant.
        case configurationFolder(path: String)
        case unreadable(path: String, reason: String)

        var description: String {
            switch self {
            case .missing(let path): "The schema directory \(path) does not exist."
            case .notADirectory(let path): "The schema directory \(path) is not a directory."
            case .configurationFolder(let path):
                "\(path) is a configuration folder (it holds schemas/ or server.json), not a schema folder: "
                    + "give \(path)/schemas instead."
            case .unreadable(let path, let reason): "Cannot read \(path): \(reason)."
            }
        }
    }

    static func files(in directory: String) throws(LoadError) -> [SchemaFile] {
        var isDirectory: Bool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw .missing(path: directory)
        }
        guard isDirectory else { throw .notADirectory(path: directory) }
        var schemasIsDirectory: Bool = false
        let holdsSchemas =
            FileManager.default.fileExists(atPath: directory + "/schemas", isDirectory: &schemasIsDirectory)
            && schemasIsDirectory
        if holdsSchemas || FileManager.default.fileExists(atPath: directory + "/server.json") {
            throw .configurationFolder(path: directory)
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadable(path: directory, reason: systemReason(directory))
        }
        var files: [SchemaFile] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = directory + "/" + name
            var isDirectory: Bool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory else {
                continue
            }
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                files.append(SchemaFile(name: name, bytes: [UInt8](data)))
            } catch {
                throw .unreadable(path: path, reason: systemReason(path))
            }
        }
        return files
    }

    /// Why `path` cannot be read, as the system says it (`strerror`), instead of Foundation's error dump.
    private static func systemReason(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor < 0 else {
            close(descriptor)
            return "it cannot be read"
        }
        return String(cString: strerror(errno))
    }
}
