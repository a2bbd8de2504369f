// SPDX-License-Identifier: Apache-2.0

/// The command line of `TransformServer [serve [--config DIR] [--schemas DIR] [--host H] [--port N]]` (README.md,
/// "Command line"). Values are written `--flag VALUE` or `--flag=VALUE`; each flag at most once.
struct ServeArguments: Equatable {
    /// A flag that sets a setting, with the text it was given.
    struct FlagValue: Equatable {
        /// The setting's `server.json` key.
        var key: String
        var text: String
        /// The flag as the user spelled it, for messages.
        var flag: String
    }

    /// `--config DIR`, when given.
    var configDirectory: String?
    /// `--schemas`, `--host` and `--port`, in the order given.
    var flagValues: [FlagValue] = []

    /// The flags that set a setting, with that setting's key.
    static let settingFlags: [String: String] = [
        "--schemas": "schemaDir", "--host": "listenHost", "--port": "listenPort",
    ]

    /// Parses the arguments after the program name: empty, or `serve` followed by flags.
    init(parsing arguments: [String]) throws(ConfigurationError) {
        var remaining = arguments[...]
        if remaining.first == "serve" { remaining = remaining.dropFirst() }
        var seen: Set<String> = []
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else { throw .unexpectedArgument(argument) }
            let flag: String
            var text: String?
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                text = String(argument[argument.index(after: equals)...])
            } else {
                flag = argument
            }
            guard flag == "--config" || Self.settingFlags[flag] != nil else { throw .unknownFlag(flag) }
            guard seen.insert(flag).inserted else { throw .repeatedFlag(flag) }
            if text == nil, let next = remaining.first, !next.hasPrefix("--") {
                text = next
                remaining = remaining.dropFirst()
            }
            guard let text, !text.isEmpty else { throw .missingValue(flag: flag) }
            if let key = Self.settingFlags[flag] {
                flagValues.append(FlagValue(key: key, text: text, flag: flag))
            } else {
                configDirectory = text
            }
        }
    }
}
