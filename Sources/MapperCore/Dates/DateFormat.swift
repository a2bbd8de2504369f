// SPDX-License-Identifier: Apache-2.0

// One entry of a property's `dateFormat` (docs/schema.md, "dateFormat"): the three named formats or a compiled LDML
// pattern. Names win over patterns, so `"epoch"` is the epoch format, never a pattern. Equality and hashing of a
// pattern go by its source text.

/// A date input or output format of a `date` property.
enum DateFormat: Hashable, Sendable {
    /// RFC 3339 in UTC (output); the built-in forms (input).
    case iso8601
    /// Unix seconds, a JSON number.
    case epoch
    /// Unix milliseconds, a JSON number.
    case epochMillis
    /// An LDML pattern.
    case pattern(DatePattern)

    /// The format a schema names: `iso8601`, `epoch`, `epochMillis`, or else a pattern compiled from `name`.
    init(name: String) throws(DatePatternError) {
        switch name {
        case "iso8601": self = .iso8601
        case "epoch": self = .epoch
        case "epochMillis": self = .epochMillis
        default: self = .pattern(try DatePattern(name))
        }
    }

    /// The schema spelling of the format.
    var name: String {
        switch self {
        case .iso8601: "iso8601"
        case .epoch: "epoch"
        case .epochMillis: "epochMillis"
        case .pattern(let pattern): pattern.source
        }
    }

    /// Whether the format is `epoch` or `epochMillis`.
    var isEpoch: Bool {
        self == .epoch || self == .epochMillis
    }

    /// Reads a string's content in this format: a pattern as that pattern, `iso8601` as the built-in forms, and an
    /// epoch format as a number string (JSON number grammar) in seconds or milliseconds.
    func read(_ text: UnsafeRawBufferPointer) -> DateReading {
        switch self {
        case .iso8601: BuiltinDateParser.parse(text)
        case .epoch: DateFormatting.readEpoch(text, millis: false)
        case .epochMillis: DateFormatting.readEpoch(text, millis: true)
        case .pattern(let pattern): pattern.parse(text)
        }
    }
}
