// SPDX-License-Identifier: Apache-2.0

@testable import TransformServer

/// An in-memory file system for `ServerConfiguration.load`: directories that exist and files with their text.
struct FakeFileSystem {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "permission denied" }
    }

    var directories: Set<String> = []
    var files: [String: String] = [:]
    /// Paths that exist but cannot be read.
    var unreadable: Set<String> = []

    func exists(_ path: String) -> Bool {
        directories.contains(path) || files[path] != nil || unreadable.contains(path)
    }

    func read(_ path: String) throws -> [UInt8] {
        guard let text = files[path] else { throw Unreadable() }
        return Array(text.utf8)
    }
}

extension ServerConfiguration {
    /// `load` against a fake file system, with nothing present unless given.
    static func make(
        arguments: [String] = [],
        environment: [String: String] = [:],
        files: FakeFileSystem = FakeFileSystem()
    ) -> Result<Loaded, ConfigurationError> {
        load(arguments: arguments, environment: environment, fileExists: files.exists, readFile: files.read)
    }

    /// A file system holding `./config` with `server.json` set to `json`.
    static func configFolder(serverJSON json: String?) -> FakeFileSystem {
        var files = FakeFileSystem(directories: ["config"])
        if let json { files.files["config/server.json"] = json }
        return files
    }

    /// The documented defaults as read from a configuration directory `directory`.
    static func defaults(in directory: String) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.configDirectory = directory
        configuration.schemaDir = directory + "/schemas"
        configuration.usesEmbeddedConfig = false
        return configuration
    }
}

extension Result {
    /// The failure, or nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
