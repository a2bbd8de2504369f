// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// The one table of settings (docs/operations.md, "Settings"): each key with the kind of value it takes and its bounds.
/// The `server.json` key, the environment variable and the checks all come from here, so a setting cannot exist in one
/// source and be missing from another.
extension ServerConfiguration {
    /// One configurable setting.
    struct Setting: Sendable {
        /// The kind of value, the property it sets and what it accepts.
        enum Kind: Sendable {
            /// A whole number within `range`; in `server.json`, a JSON number.
            case integer(any WritableKeyPath<ServerConfiguration, Int> & Sendable, ClosedRange<Int>)
            /// 0 (off) or a whole number within `range`; in `server.json`, a JSON number.
            case offOrInteger(any WritableKeyPath<ServerConfiguration, Int> & Sendable, ClosedRange<Int>)
            /// `true` or `false`; in `server.json`, a JSON boolean.
            case boolean(any WritableKeyPath<ServerConfiguration, Bool> & Sendable)
            /// A host name or address: non-empty, no spaces or control characters.
            case host(any WritableKeyPath<ServerConfiguration, String> & Sendable)
            /// A secret: non-empty, no spaces or control characters, never shown in messages.
            case secret(any WritableKeyPath<ServerConfiguration, String?> & Sendable)
            /// A directory path: non-empty, no control characters; in `server.json`, relative to the configuration
            /// directory.
            case directory(any WritableKeyPath<ServerConfiguration, String?> & Sendable)
            /// A file path, read as `directory` is.
            case file(any WritableKeyPath<ServerConfiguration, String?> & Sendable)
            /// One of `words`; in `server.json`, a JSON string.
            case choice(any WritableKeyPath<ServerConfiguration, String> & Sendable, [String])
            /// Non-empty text without spaces or control characters (a key prefix).
            case word(any WritableKeyPath<ServerConfiguration, String> & Sendable)
            /// The same, unset by default (a user name).
            case optionalWord(any WritableKeyPath<ServerConfiguration, String?> & Sendable)
            /// Comma-separated `http://host:port` or `https://host:port` URLs, at least one.
            case endpoints(any WritableKeyPath<ServerConfiguration, [String]> & Sendable)
        }

        /// The `server.json` key (lowerCamelCase).
        let key: String
        let kind: Kind

        /// `TRANSFORM_` + the key in UPPER_SNAKE: `maxNdjsonLineBytes` → `TRANSFORM_MAX_NDJSON_LINE_BYTES`.
        var environmentName: String {
            var name = "TRANSFORM_"
            for character in key {
                if character.isUppercase { name.append("_") }
                name += character.uppercased()
            }
            return name
        }
    }

    /// Counts and sizes go up to `Int32.max`, so arithmetic on them (deadlines in nanoseconds, sums) cannot overflow.
    static let positive = 1...Int(Int32.max)
    /// Durations and sizes where 0 has a meaning (drain at once, compress everything).
    static let nonNegative = 0...Int(Int32.max)

    /// Every setting, in the order of docs/operations.md, "Settings".
    static let settings: [Setting] = [
        Setting(key: "listenHost", kind: .host(\.listenHost)),
        Setting(key: "listenPort", kind: .integer(\.listenPort, 0...65_535)),
        Setting(key: "schemaDir", kind: .directory(\.schemaDir)),
        Setting(key: "adminToken", kind: .secret(\.adminToken)),
        Setting(key: "maxRequestTargetBytes", kind: .integer(\.maxRequestTargetBytes, positive)),
        Setting(key: "maxHeaderBytes", kind: .integer(\.maxHeaderBytes, positive)),
        Setting(key: "maxHeaderFields", kind: .integer(\.maxHeaderFields, positive)),
        Setting(key: "maxBodyBytes", kind: .integer(\.maxBodyBytes, positive)),
        Setting(key: "maxNdjsonLineBytes", kind: .integer(\.maxNdjsonLineBytes, positive)),
        Setting(key: "maxNestingDepth", kind: .integer(\.maxNestingDepth, 1...1_024)),
        Setting(key: "headerTimeoutMs", kind: .integer(\.headerTimeoutMs, positive)),
        Setting(key: "bodyTimeoutMs", kind: .integer(\.bodyTimeoutMs, positive)),
        Setting(key: "keepAliveTimeoutMs", kind: .integer(\.keepAliveTimeoutMs, positive)),
        Setting(key: "writeTimeoutMs", kind: .integer(\.writeTimeoutMs, positive)),
        Setting(key: "drainGraceMs", kind: .integer(\.drainGraceMs, nonNegative)),
        Setting(key: "maxConnections", kind: .integer(\.maxConnections, positive)),
        Setting(key: "maxRequestsPerConnection", kind: .integer(\.maxRequestsPerConnection, positive)),
        Setting(key: "maxReportEntries", kind: .integer(\.maxReportEntries, positive)),
        Setting(key: "maxSchemaDocumentBytes", kind: .integer(\.maxSchemaDocumentBytes, positive)),
        Setting(key: "maxPropertiesPerModel", kind: .integer(\.maxPropertiesPerModel, positive)),
        Setting(key: "maxModels", kind: .integer(\.maxModels, positive)),
        Setting(key: "gzipMinBytes", kind: .integer(\.gzipMinBytes, nonNegative)),
        Setting(key: "accessLog", kind: .boolean(\.accessLog)),
        // Ours, after the settings of docs/operations.md.
        Setting(key: "batchWorkers", kind: .integer(\.batchWorkers, 0...256)),
        Setting(key: "lingeringCloseMs", kind: .integer(\.lingeringCloseMs, nonNegative)),
        Setting(key: "maxLingeringRefusals", kind: .integer(\.maxLingeringRefusals, nonNegative)),
        Setting(key: "maxInFlightBodyBytes", kind: .integer(\.maxInFlightBodyBytes, positive)),
        Setting(key: "maxRuleSteps", kind: .integer(\.maxRuleSteps, 100...10_000_000)),
        // The shared registry store (docs/cluster.md).
        Setting(key: "registryStore", kind: .choice(\.registryStore, ["local", "etcd"])),
        Setting(key: "etcdEndpoints", kind: .endpoints(\.etcdEndpoints)),
        Setting(key: "etcdPrefix", kind: .word(\.etcdPrefix)),
        Setting(key: "etcdUsername", kind: .optionalWord(\.etcdUsername)),
        Setting(key: "etcdPassword", kind: .secret(\.etcdPassword)),
        Setting(key: "etcdCaFile", kind: .file(\.etcdCaFile)),
        Setting(key: "etcdCertFile", kind: .file(\.etcdCertFile)),
        Setting(key: "etcdKeyFile", kind: .file(\.etcdKeyFile)),
        Setting(key: "etcdTimeoutMs", kind: .integer(\.etcdTimeoutMs, positive)),
        // docs/lifecycle.md.
        Setting(key: "maxVersionsPerModel", kind: .integer(\.maxVersionsPerModel, 1...10_000)),
        Setting(
            key: "defaultCompatibility",
            kind: .choice(
                \.defaultCompatibility,
                CompatibilityLevel.allCases.map(\.rawValue))),
        Setting(
            key: "compatibilityView", kind: .choice(\.compatibilityView, CompatibilityView.allCases.map(\.rawValue))),
        Setting(key: "schemaReloadIntervalMs", kind: .offOrInteger(\.schemaReloadIntervalMs, 100...Int(Int32.max))),
        Setting(key: "maxConnectionAgeMs", kind: .integer(\.maxConnectionAgeMs, nonNegative)),
    ]

    static func setting(forKey key: String) -> Setting? {
        settings.first { $0.key == key }
    }

    static func setting(forEnvironmentName name: String) -> Setting? {
        settings.first { $0.environmentName == name }
    }
}

extension ServerConfiguration.Setting {
    /// The value as `server.json` would hold it, the secret redacted; "none" when unset.
    func renderedValue(in configuration: ServerConfiguration) -> String {
        switch kind {
        case .integer(let property, _), .offOrInteger(let property, _): String(configuration[keyPath: property])
        case .boolean(let property): configuration[keyPath: property] ? "true" : "false"
        case .host(let property): ConfigurationFile.quoted(configuration[keyPath: property])
        case .secret(let property): configuration[keyPath: property] == nil ? "none" : "(redacted)"
        case .directory(let property), .file(let property), .optionalWord(let property):
            configuration[keyPath: property].map(ConfigurationFile.quoted) ?? "none"
        case .choice(let property, _), .word(let property): ConfigurationFile.quoted(configuration[keyPath: property])
        case .endpoints(let property):
            configuration[keyPath: property].isEmpty
                ? "none" : ConfigurationFile.quoted(configuration[keyPath: property].joined(separator: ","))
        }
    }
}
