// SPDX-License-Identifier: Apache-2.0

// Parsing walks the compiled fields once over the bytes, filling `DateFields`; the whole text must be consumed.
// One-letter numeric fields read one or two digits greedily. Absent fields keep their defaults (1970-01-01,
// 00:00:00, UTC); `h`/`hh` combine with `a` at the end (12 AM → 0 h, 12 PM → 12 h, no `a` means AM) unless `H`
// or `HH` gave the hour. A later field of the same kind overrides an earlier one.

extension DatePattern {
    /// Reads `text` in this pattern; the whole text must match. Missing zone = UTC; missing date parts default to
    /// 1970-01-01 and time parts to 0. Never truncates (at most six fraction digits are read).
    func parse(_ text: UnsafeRawBufferPointer) -> DateReading {
        var date = DateFields()
        var hour12: Int?
        var isPM = false
        var hasHour24 = false
        var index = 0
        for field in fields {
            switch field {
            case .literal(let bytes):
                guard text.count - index >= bytes.count else { return .invalid }
                for (offset, byte) in bytes.enumerated() where text[index + offset] != byte {
                    return .invalid
                }
                index += bytes.count
            case .year4:
                guard let year = DateScanning.fixedDigits(text, at: index, count: 4) else { return .invalid }
                date.year = year
                index += 4
            case .year2:
                // Pivot 1970–2069: 70…99 → 19xx, 00…69 → 20xx.
                guard let year = DateScanning.fixedDigits(text, at: index, count: 2) else { return .invalid }
                date.year = year >= 70 ? 1900 + year : 2000 + year
                index += 2
            case .month(let width):
                guard let value = number(text, at: &index, width: width) else { return .invalid }
                date.month = value
            case .monthAbbreviation:
                guard let month = DateNames.monthAbbreviation(in: text, at: index) else { return .invalid }
                date.month = month
                index += 3
            case .monthName:
                guard let match = DateNames.monthName(in: text, at: index) else { return .invalid }
                date.month = match.month
                index = match.end
            case .day(let width):
                guard let value = number(text, at: &index, width: width) else { return .invalid }
                date.day = value
            case .weekdayAbbreviation:
                guard DateNames.weekdayAbbreviation(in: text, at: index) != nil else { return .invalid }
                index += 3
            case .weekdayName:
                guard let match = DateNames.weekdayName(in: text, at: index) else { return .invalid }
                index = match.end
            case .hour24(let width):
                guard let value = number(text, at: &index, width: width) else { return .invalid }
                date.hour = value
                hasHour24 = true
            case .hour12(let width):
                guard let value = number(text, at: &index, width: width), value >= 1, value <= 12 else {
                    return .invalid
                }
                hour12 = value
            case .amPm:
                guard let pm = meridiem(text, at: index) else { return .invalid }
                isPM = pm
                index += 2
            case .minute(let width):
                guard let value = number(text, at: &index, width: width) else { return .invalid }
                date.minute = value
            case .second(let width):
                guard let value = number(text, at: &index, width: width) else { return .invalid }
                date.second = value
            case .fraction(let digits):
                guard let value = DateScanning.fixedDigits(text, at: index, count: digits) else { return .invalid }
                var microsecond = value
                for _ in digits..<6 {
                    microsecond *= 10
                }
                date.microsecond = microsecond
                index += digits
            case .zoneBasic, .zoneExtended, .zoneShort:
                guard let zone = zone(field, text, at: index) else { return .invalid }
                date.offsetMinutes = zone.minutes
                index = zone.end
            }
        }
        guard index == text.count else { return .invalid }
        if !hasHour24, hour12 != nil || isPM {
            date.hour = (hour12 ?? 0) % 12 + (isPM ? 12 : 0)
        }
        return date.reading(truncated: false)
    }

    /// Width 1: one or two digits; width 2: exactly two.
    private func number(_ text: UnsafeRawBufferPointer, at index: inout Int, width: Int) -> Int? {
        if width == 2 {
            guard let value = DateScanning.fixedDigits(text, at: index, count: 2) else { return nil }
            index += 2
            return value
        }
        guard let read = DateScanning.variableDigits(text, at: index, maxCount: 2) else { return nil }
        index = read.end
        return read.value
    }

    /// `AM` → false, `PM` → true.
    private func meridiem(_ text: UnsafeRawBufferPointer, at index: Int) -> Bool? {
        guard DateScanning.byte(UInt8(ascii: "M"), in: text, at: index + 1) else { return nil }
        switch text[index] {
        case UInt8(ascii: "A"): return false
        case UInt8(ascii: "P"): return true
        default: return nil
        }
    }

    private func zone(_ field: Field, _ text: UnsafeRawBufferPointer, at index: Int) -> (minutes: Int, end: Int)? {
        switch field {
        case .zoneBasic:
            return DateScanning.offset(text, at: index, style: .hoursMinutes)
        case .zoneExtended, .zoneShort:
            if DateScanning.byte(UInt8(ascii: "Z"), in: text, at: index) {
                return (0, index + 1)
            }
            let style: DateScanning.OffsetStyle = field == .zoneShort ? .hoursOptionalMinutes : .hoursColonMinutes
            return DateScanning.offset(text, at: index, style: style)
        default:
            return nil
        }
    }
}
