// SPDX-License-Identifier: Apache-2.0

/// How a setting checks and stores a value from each source. Text (environment variables, flags) and JSON values
/// (`server.json`) pass the same checks; a JSON value must also have the JSON type of its setting, so `"8080"` in
/// the file is an error while `TRANSFORM_LISTEN_PORT=8080` is not.
extension ServerConfiguration.Setting {
    /// Sets the property from an environment variable or a flag.
    func assign(
        text: String, to configuration: inout ServerConfiguration,
        origin: ConfigurationError.Origin
    ) throws(ConfigurationError) {
        let shown = isSecret ? Self.redacted : ConfigurationFile.quoted(text)
        switch kind {
        case .integer(let property, _), .offOrInteger(let property, _):
            guard let number = Self.wholeNumber(text), accepts(number) else {
                throw badValue(shown, expectation, origin)
            }
            configuration[keyPath: property] = number
        case .boolean(let property):
            guard text == "true" || text == "false" else { throw badValue(shown, expectation, origin) }
            configuration[keyPath: property] = text == "true"
        case .host(let property):
            guard Self.isPlain(text, allowingSpaces: false) else { throw badValue(shown, expectation, origin) }
            configuration[keyPath: property] = text
        case .secret(let property):
            guard Self.isPlain(text, allowingSpaces: false) else { throw badValue(shown, expectation, origin) }
            configuration[keyPath: property] = text
        case .directory(let property), .file(let property):
            guard Self.isPlain(text, allowingSpaces: true) else { throw badValue(shown, expectation, origin) }
            configuration[keyPath: property] = text
        case .choice(let property, let words):
            guard words.contains(text) else { throw badValue(shown, expectation, origin) }
            configuration[keyPath: property] = text
        case .word(let property):
            guard Self.isPlain(text, allowingSpaces: false) else { throw badValue(shown, expectation, origin) }
            configuration[keyPath: property] = text
        case .optionalWord(let property):
            guard Self.isPlain(text, allowingSpaces: false) else { throw badValue(shown, expectation, origin) }
            configuration[keyPath: property] = text
        case .endpoints(let property):
            let urls = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard urls.allSatisfy(Self.isEndpoint) else { throw badValue(shown, expectation, origin) }
            configuration[keyPath: property] = urls
        }
    }

    /// Sets the property from a `server.json` value; a relative directory is taken relative to `baseDirectory`.
    func assign(
        json value: ConfigurationFile.Value, to configuration: inout ServerConfiguration,
        origin: ConfigurationError.Origin, baseDirectory: String
    ) throws(ConfigurationError) {
        let shown = isSecret ? Self.redacted : value.rendered
        switch (kind, value) {
        case (.integer(let property, _), .number(let text)), (.offOrInteger(let property, _), .number(let text)):
            guard let number = Self.wholeNumber(text), accepts(number) else {
                throw badValue(shown, expectation, origin)
            }
            configuration[keyPath: property] = number
        case (.boolean(let property), .boolean(let flag)):
            configuration[keyPath: property] = flag
        case (.host, .string(let text)), (.secret, .string(let text)), (.choice, .string(let text)),
            (.word, .string(let text)), (.optionalWord, .string(let text)), (.endpoints, .string(let text)):
            try assign(text: text, to: &configuration, origin: origin)
        case (.directory(let property), .string(let text)), (.file(let property), .string(let text)):
            try assign(text: text, to: &configuration, origin: origin)
            if !text.hasPrefix("/") { configuration[keyPath: property] = ServerConfiguration.join(baseDirectory, text) }
        default:
            throw badValue(shown, expectation + ", not " + value.kindName, origin)
        }
    }

    /// What the setting accepts, completing "…, but it …".
    var expectation: String {
        switch kind {
        case .integer(_, let range): "must be a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .offOrInteger(_, let range):
            "must be 0 (off) or a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .boolean: "must be true or false"
        case .host: "must be a non-empty host name or address without spaces or control characters"
        case .secret: "must be non-empty, without spaces or control characters"
        case .directory, .file: "must be a non-empty path without control characters"
        case .choice(_, let words): "must be one of " + words.map { "\"\($0)\"" }.joined(separator: ", ")
        case .word, .optionalWord: "must be non-empty, without spaces or control characters"
        case .endpoints:
            "must be a comma-separated list of http://host:port or https://host:port URLs, without spaces"
        }
    }

    /// Whether a whole number is within the setting's bounds (integer kinds only).
    private func accepts(_ number: Int) -> Bool {
        switch kind {
        case .integer(_, let range): range.contains(number)
        case .offOrInteger(_, let range): number == 0 || range.contains(number)
        default: false
        }
    }

    private var isSecret: Bool {
        if case .secret = kind { true } else { false }
    }

    private static let redacted = "a value (not shown)"

    private func badValue(
        _ shown: String, _ reason: String,
        _ origin: ConfigurationError.Origin
    ) -> ConfigurationError {
        .badValue(key: key, value: shown, reason: reason, origin: origin)
    }

    /// `-?[0-9]+` as an `Int`, saturating at the `Int` bounds so that huge numbers fail the range check; nil for
    /// anything else (spaces, `+`, fractions, exponents).
    static func wholeNumber(_ text: String) -> Int? {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            value = overflow1 || overflow2 ? Int.max : sum
        }
        return negative ? -value : value
    }

    /// `http://host:port` or `https://host:port` (a trailing `/` allowed): a non-empty host and a port 1…65535.
    static func isEndpoint(_ text: String) -> Bool {
        guard isPlain(text, allowingSpaces: false) else { return false }
        var rest = Substring(text)
        if rest.hasPrefix("http://") {
            rest = rest.dropFirst(7)
        } else if rest.hasPrefix("https://") {
            rest = rest.dropFirst(8)
        } else {
            return false
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), colon != rest.startIndex, !rest[..<colon].contains("/"),
            let port = wholeNumber(String(rest[rest.index(after: colon)...])), (1...65_535).contains(port)
        else { return false }
        return true
    }

    /// Non-empty, no control characters (C0, DEL), and no spaces unless allowed.
    private static func isPlain(_ text: String, allowingSpaces: Bool) -> Bool {
        !text.isEmpty
            && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (!allowingSpaces && $0 == " ") }
    }
}
