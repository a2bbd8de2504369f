// SPDX-License-Identifier: Apache-2.0

extension TypeCoercion {
    // MARK: - uuid, calendarDate

    /// `uuid`: the 8-4-4-4-12 hexadecimal text form (RFC 9562), any case in, lower case out; the version and variant
    /// bits are not checked. Braces, `urn:uuid:`, the 32-digit form, surrounding spaces and the empty string are
    /// `not_a_uuid`; other JSON kinds `wrong_type`; `null` no value.
    ///
    ///     "6FA459EA-EE8A-3CA4-894E-DB77E160355E" → "6fa459ea-ee8a-3ca4-894e-db77e160355e"
    static func uuid(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer,
        into out: inout some ByteSink
    ) -> Result {
        switch token.kind {
        case .null: return .noValue
        case .string:
            guard isUUID(text) else {
                return dropped(.notAUUID, "\(ValueDescription.describe(token, in: bytes)) is not a UUID")
            }
            out.append(.quote)
            for byte in text { out.append(byte | (byte.isASCIILetter ? 0x20 : 0)) }
            out.append(.quote)
            return .value
        default: return dropped(.wrongType, "expected uuid, got \(ValueDescription.describe(token, in: bytes))")
        }
    }

    /// Whether `text` is exactly 36 bytes of hexadecimal digits with hyphens at offsets 8, 13, 18 and 23.
    static func isUUID(_ text: UnsafeRawBufferPointer) -> Bool {
        guard text.count == 36 else { return false }
        for (offset, byte) in text.enumerated() {
            let isHyphen = offset == 8 || offset == 13 || offset == 18 || offset == 23
            guard isHyphen ? byte == UInt8(ascii: "-") : byte.isASCIIHexDigit else { return false }
        }
        return true
    }

    /// `calendarDate`: `YYYY-MM-DD` (years 0001–9999, a day that exists) as it is; a date-time that `date` reads
    /// with its built-in forms gives its date in UTC, `coerced`. Other text, or a date out of range, is
    /// `invalid_date`; other JSON kinds `wrong_type`; `null` no value.
    ///
    ///     "2015-09-04" → "2015-09-04"        "2015-09-04T00:12:21+08:00" → "2015-09-03" (coerced)
    static func calendarDate(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer,
        into out: inout some ByteSink
    ) -> Result {
        switch token.kind {
        case .null: return .noValue
        case .string:
            let start = out.count
            if let fields = plainCalendarDate(text) {
                writeCalendarDate(fields, into: &out)
                return .value
            }
            guard case .instant(let instant, _) = BuiltinDateParser.parse(text) else {
                return dropped(.invalidDate, "\(ValueDescription.describe(token, in: bytes)) is not a valid date")
            }
            writeCalendarDate(DateFields(instant), into: &out)
            return coerced(from: start)
        default:
            return dropped(.wrongType, "expected calendarDate, got \(ValueDescription.describe(token, in: bytes))")
        }
    }

    /// The fields of exactly `YYYY-MM-DD` when that date exists in 0001–9999, else nil.
    static func plainCalendarDate(_ text: UnsafeRawBufferPointer) -> DateFields? {
        guard text.count == 10, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard text[i].isASCIIDigit else { return nil }
                value = value * 10 + Int(text[i] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1,
            (1...12).contains(month), day >= 1, day <= Instant.daysInMonth(month, year: year)
        else { return nil }
        return DateFields(year: year, month: month, day: day)
    }

    /// `"YYYY-MM-DD"`, quoted.
    private static func writeCalendarDate(_ fields: DateFields, into out: inout some ByteSink) {
        out.append(.quote)
        DateFormatting.writeDigits(fields.year, width: 4, into: &out)
        out.append(UInt8(ascii: "-"))
        DateFormatting.writeDigits(fields.month, width: 2, into: &out)
        out.append(UInt8(ascii: "-"))
        DateFormatting.writeDigits(fields.day, width: 2, into: &out)
        out.append(.quote)
    }
}
