// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Resolves the configuration from its sources (docs/operations.md, "Where the configuration comes from"). Precedence,
/// highest first:
///
///     flags (--host, --port, --schemas)  >  TRANSFORM_* environment  >  <config>/server.json  >  defaults
///
/// The configuration directory is `--config DIR` (which must exist), else `./config` when it exists, else none:
/// the embedded example configuration (defaults, compiled-in schemas). `schemaDir` defaults to `<config>/schemas`;
/// whichever source sets it replaces that folder — schema folders are never merged. A relative `schemaDir` in
/// `server.json` is relative to the configuration directory; in the environment or a flag, to the working directory.
extension ServerConfiguration {
    /// The configuration and the warning lines to print at start-up (unknown `TRANSFORM_*` variables).
    typealias Loaded = (ServerConfiguration, warnings: [String])

    /// The prefix of every setting's environment variable.
    static let environmentPrefix = "TRANSFORM_"

    /// Parses `serve`'s arguments (without the program name) and resolves every source. The file system is reached
    /// only through `fileExists` and `readFile`, so tests run without one.
    static func load(
        arguments: [String],
        environment: [String: String],
        fileExists: (String) -> Bool,
        readFile: (String) throws -> [UInt8]
    ) -> Result<Loaded, ConfigurationError> {
        do throws(ConfigurationError) {
            let parsed = try ServeArguments(parsing: arguments)
            return .success(
                try resolve(
                    configDirectory: parsed.configDirectory, flagValues: parsed.flagValues,
                    environment: environment, fileExists: fileExists, readFile: readFile))
        } catch {
            return .failure(error)
        }
    }

    /// `load` against the real process: its environment and file system. `serve` passes its arguments; `convert`
    /// passes only its `--config`, so that it reads the same sources.
    static func load(arguments: [String]) -> Result<Loaded, ConfigurationError> {
        load(
            arguments: arguments, environment: processEnvironment(), fileExists: { access($0, F_OK) == 0 },
            readFile: readWholeFile)
    }

    private static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    private struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    private static func readWholeFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(description: String(cString: strerror(errno))) }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { result += chunk[0..<n] } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return result
    }

    /// Every source after the command line has been parsed; `configDirectory` is `--config`'s value. Commands other
    /// than `serve` (such as `convert --config DIR`) can call this with no flag values.
    static func resolve(
        configDirectory explicitDirectory: String?,
        flagValues: [ServeArguments.FlagValue],
        environment: [String: String],
        fileExists: (String) -> Bool,
        readFile: (String) throws -> [UInt8]
    ) throws(ConfigurationError) -> Loaded {
        var configuration = ServerConfiguration()
        if let explicitDirectory, !fileExists(explicitDirectory) {
            throw .unreadableFile(path: explicitDirectory, reason: "the configuration directory does not exist")
        }
        let directory = explicitDirectory ?? (fileExists(defaultConfigDirectory) ? defaultConfigDirectory : nil)
        configuration.configDirectory = directory
        configuration.usesEmbeddedConfig = directory == nil
        configuration.schemaDir = directory.map { join($0, "schemas") }

        if let directory {
            try configuration.applyFile(in: directory, fileExists: fileExists, readFile: readFile)
        }
        let warnings = try configuration.applyEnvironment(environment)
        for value in flagValues {
            guard let setting = setting(forKey: value.key) else { throw .unknownFlag(value.flag) }
            try setting.assign(text: value.text, to: &configuration, origin: .flag(value.flag))
        }
        return (configuration, warnings: warnings)
    }

    /// `./config`, used when it exists and `--config` is not given.
    static let defaultConfigDirectory = "config"

    /// The settings file inside a configuration directory.
    static let fileName = "server.json"

    /// `directory/name`, without doubling a trailing slash.
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Applies `<directory>/server.json` when it exists; an unknown key or a bad value is an error.
    private mutating func applyFile(
        in directory: String, fileExists: (String) -> Bool, readFile: (String) throws -> [UInt8]
    ) throws(ConfigurationError) {
        let path = Self.join(directory, Self.fileName)
        guard fileExists(path) else { return }
        let bytes: [UInt8]
        do {
            bytes = try readFile(path)
        } catch {
            throw .unreadableFile(path: path, reason: "\(error)")
        }
        for entry in try ConfigurationFile(parsing: bytes, path: path).entries {
            guard let setting = Self.setting(forKey: entry.key) else { throw .unknownKey(entry.key, file: path) }
            try setting.assign(json: entry.value, to: &self, origin: .file(path), baseDirectory: directory)
        }
    }

    /// Applies every `TRANSFORM_*` variable that names a setting and returns one warning line per variable that
    /// names none (such as Kubernetes' `TRANSFORM_SERVICE_HOST`), sorted by name.
    private mutating func applyEnvironment(_ environment: [String: String]) throws(ConfigurationError) -> [String] {
        var warnings: [String] = []
        for (name, text) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix(Self.environmentPrefix) {
            guard let setting = Self.setting(forEnvironmentName: name) else {
                warnings.append("warning: ignoring the environment variable \(name), which names no setting")
                continue
            }
            try setting.assign(text: text, to: &self, origin: .environment(name))
        }
        return warnings
    }
}
