// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

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
}
