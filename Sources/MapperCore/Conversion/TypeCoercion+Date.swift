// SPDX-License-Identifier: Apache-2.0

extension TypeCoercion {
    /// `date`: strings by the property's input formats, then the built-in ones; numbers as Unix seconds (or
    /// milliseconds when `epochMillis` is an input format). With `fromModel`, the output format is tried first and
    /// an epoch output format makes numbers expected, not `coerced` (docs/api.md, "Converting one object").
    /// `instant` receives the parsed instant for constraint checks.
    static func date(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer,
        as target: CompiledValue, fromModel: Bool, instant: inout Instant,
        into out: inout some ByteSink
    ) -> Result {
        let found = { ValueDescription.describe(token, in: bytes) }
        let formats = fromModel ? target.modelFormDateInput : target.dateInput
        let epochDeclared = formats.contains { $0 == .epoch || $0 == .epochMillis }
        let millis = formats.first { $0 == .epoch || $0 == .epochMillis } == .epochMillis
        var reading = DateReading.invalid
        var isCoerced = false
        switch token.kind {
        case .null: return .noValue
        case .number:
            reading = DateFormatting.readEpoch(
                UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end]),
                millis: millis)
            isCoerced = !epochDeclared
        case .string:
            for format in formats {
                switch format {
                case .pattern(let pattern): reading = pattern.parse(text)
                case .iso8601: reading = BuiltinDateParser.parse(text)
                case .epoch, .epochMillis:
                    let trimmed = NumberText.trimmingJSONWhitespace(text)
                    if NumberText.isJSONNumber(trimmed) {
                        reading = DateFormatting.readEpoch(trimmed, millis: format == .epochMillis)
                        isCoerced = reading != .invalid
                    }
                }
                if reading != .invalid { break }
            }
            if reading == .invalid { reading = BuiltinDateParser.parse(text) }
        default:
            return dropped(.wrongType, "expected date, got \(found())")
        }
        guard case .instant(let parsed, let truncated) = reading else {
            return dropped(.invalidDate, "\(found()) is not a valid date")
        }
        instant = parsed
        let start = out.count
        switch target.dateOutput {
        case .iso8601:
            out.append(.quote)
            DateFormatting.writeISO8601(parsed, into: &out)
            out.append(.quote)
        case .pattern(let pattern):
            // A pattern's literals may hold bytes that need escaping.
            var text: [UInt8] = []
            pattern.format(parsed, into: &text)
            JSONStrings.writeQuoted(text, into: &out)
        case .epoch, .epochMillis:
            DateFormatting.write(parsed, as: target.dateOutput, into: &out)
        }
        if truncated {
            return Result(
                outcome: .value,
                issue: Issue(
                    code: .fractionTruncated,
                    message:
                        "\(found()) truncated to microseconds: \(String(decoding: out.written(from: start), as: UTF8.self))"
                ))
        }
        if isCoerced { return coerced(from: start) }
        return .value
    }
}
