// SPDX-License-Identifier: Apache-2.0

// Formatting breaks the instant into UTC fields once, then appends each compiled field. Zones are always UTC:
// `Z` writes `+0000`, `ZZZZZ`, `X` and `XXX` write `Z`. `S…` writes the leading digits of the microseconds
// (truncated, never rounded, so a written value never moves into the future).

extension DatePattern {
    /// Appends `instant` in this pattern, in UTC.
    func format(_ instant: Instant, into out: inout some ByteSink) {
        let date = DateFields(instant)
        for field in fields {
            switch field {
            case .literal(let bytes):
                out.append(contentsOf: bytes)
            case .year4:
                DateFormatting.writeDigits(date.year, width: 4, into: &out)
            case .year2:
                DateFormatting.writeDigits(date.year % 100, width: 2, into: &out)
            case .month(let width):
                DateFormatting.writeDigits(date.month, width: width, into: &out)
            case .monthAbbreviation:
                DateNames.write(DateNames.monthName(date.month), prefix: 3, into: &out)
            case .monthName:
                DateNames.write(DateNames.monthName(date.month), into: &out)
            case .day(let width):
                DateFormatting.writeDigits(date.day, width: width, into: &out)
            case .weekdayAbbreviation:
                DateNames.write(DateNames.weekdayName(date.weekday), prefix: 3, into: &out)
            case .weekdayName:
                DateNames.write(DateNames.weekdayName(date.weekday), into: &out)
            case .hour24(let width):
                DateFormatting.writeDigits(date.hour, width: width, into: &out)
            case .hour12(let width):
                let hour = date.hour % 12
                DateFormatting.writeDigits(hour == 0 ? 12 : hour, width: width, into: &out)
            case .amPm:
                out.append(date.hour < 12 ? UInt8(ascii: "A") : UInt8(ascii: "P"))
                out.append(UInt8(ascii: "M"))
            case .minute(let width):
                DateFormatting.writeDigits(date.minute, width: width, into: &out)
            case .second(let width):
                DateFormatting.writeDigits(date.second, width: width, into: &out)
            case .fraction(let digits):
                var value = date.microsecond
                for _ in digits..<6 {
                    value /= 10
                }
                DateFormatting.writeDigits(value, width: digits, into: &out)
            case .zoneBasic:
                DateFormatting.writeText("+0000", into: &out)
            case .zoneExtended, .zoneShort:
                out.append(UInt8(ascii: "Z"))
            }
        }
    }
}
