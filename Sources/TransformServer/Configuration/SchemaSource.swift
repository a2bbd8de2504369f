// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

/// Where `serve`, `convert` and `check` find their schemas (docs/operations.md, "Where the configuration comes from"):
/// `--schemas DIR`, else `<config>/schemas`, else `./config/schemas` when `./config` exists, else the embedded example
/// configuration.
enum SchemaSource: Equatable {
    case directory(String)
    case embedded

    static func resolve(config: String?, schemas: String?) -> SchemaSource {
        if let schemas { return .directory(schemas) }
        if let config { return .directory(config + "/schemas") }
        var isDirectory: Bool = false
        if FileManager.default.fileExists(atPath: "config", isDirectory: &isDirectory), isDirectory {
            return .directory("config/schemas")
        }
        return .embedded
    }

    func files() throws(SchemaDirectory.LoadError) -> [SchemaFile] {
        switch self {
        case .directory(let path): return try SchemaDirectory.files(in: path)
        case .embedded:
            return EmbeddedConfiguration.schemas.map {
                SchemaFile(name: $0.name, bytes: Array($0.contents.utf8), source: .embedded)
            }
        }
    }

    /// The persisted registry writes of a schema directory (none for the embedded copy).
    func overlay() throws(RegistryOverlayFile.LoadError) -> RegistryOverlay? {
        switch self {
        case .directory(let path): return try RegistryOverlayFile.read(in: path)
        case .embedded: return nil
        }
    }

    var label: String {
        switch self {
        case .directory(let path): path
        case .embedded: "(embedded)"
        }
    }
}
