// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

/// Reads a schema directory (SCHEMA.md, "Files"): its top-level `*.json` files, symbolic links followed, names
/// starting with `.` skipped (Kubernetes ConfigMap internals, the registry overlay `.registry.json`).
enum SchemaDirectory {
    enum LoadError: Error, CustomStringConvertible {
        case unreadable(path: String, reason: String)

        var description: String {
            switch self {
            case .unreadable(let path, let reason): "Cannot read the schema directory \(path): \(reason)."
            }
        }
    }

    static func files(in directory: String) throws(LoadError) -> [SchemaFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadable(path: directory, reason: "\(error)")
        }
        var files: [SchemaFile] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = directory + "/" + name
            var isDirectory: Bool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory else { continue }
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                files.append(SchemaFile(name: name, bytes: [UInt8](data)))
            } catch {
                throw .unreadable(path: path, reason: "\(error)")
            }
        }
        return files
    }
}
