// SPDX-License-Identifier: Apache-2.0

/// Why the server's configuration cannot be used (docs/operations.md, "Errors and warnings"): every case ends the
/// process with exit status 2 before anything is bound, and its description names the flag, key, file or variable to
/// fix.
enum ConfigurationError: Error, Equatable {
    /// Where a setting's value came from.
    enum Origin: Equatable, Sendable {
        /// A key of this `server.json`.
        case file(String)
        /// This `TRANSFORM_*` environment variable.
        case environment(String)
        /// This command-line flag.
        case flag(String)
    }

    /// `server.json` holds a key that names no setting.
    case unknownKey(String, file: String)
    /// A setting's value is of the wrong type or out of bounds; `value` is shown as given (redacted for secrets).
    case badValue(key: String, value: String, reason: String, origin: Origin)
    /// A command-line option that `serve` does not take.
    case unknownFlag(String)
    /// A flag at the end of the arguments, or followed by another flag or an empty value.
    case missingValue(flag: String)
    /// The same flag given twice.
    case repeatedFlag(String)
    /// A word that is neither a flag nor the value of one.
    case unexpectedArgument(String)
    /// A file or directory that cannot be read (or, for `--config`, does not exist).
    case unreadableFile(path: String, reason: String)
    /// A setting that another one needs is missing (`etcdEndpoints` with `registryStore: etcd`).
    case missingSetting(key: String, reason: String)
    /// `server.json` is not the flat JSON object it must be.
    case malformedFile(path: String, line: Int, column: Int, reason: String)

    /// The process exit status for every configuration error.
    var exitStatus: Int32 { 2 }
}

extension ConfigurationError: CustomStringConvertible {
    var description: String {
        switch self {
        case .unknownKey(let key, let file):
            "\(file) holds the unknown key \"\(key)\"; see docs/operations.md for the settings."
        case .badValue(let key, let value, let reason, let origin):
            "The setting \(key) got \(value) \(origin), but it \(reason)."
        case .unknownFlag(let flag):
            "serve does not take the option '\(flag)' (it takes --config, --schemas, --host and --port)."
        case .missingValue(let flag):
            "The option '\(flag)' needs a value."
        case .repeatedFlag(let flag):
            "The option '\(flag)' is given more than once."
        case .unexpectedArgument(let argument):
            "serve takes no argument '\(argument)' (options are written --name VALUE)."
        case .unreadableFile(let path, let reason):
            "Cannot read \(path): \(reason)."
        case .missingSetting(let key, let reason):
            "The setting \(key) is required \(reason)."
        case .malformedFile(let path, let line, let column, let reason):
            "\(path) is not valid at line \(line), column \(column): \(reason)."
        }
    }
}

extension ConfigurationError.Origin: CustomStringConvertible {
    /// Reads after a value: "from the environment variable TRANSFORM_LISTEN_PORT".
    var description: String {
        switch self {
        case .file(let path): "in \(path)"
        case .environment(let name): "from the environment variable \(name)"
        case .flag(let flag): "from the option \(flag)"
        }
    }
}
