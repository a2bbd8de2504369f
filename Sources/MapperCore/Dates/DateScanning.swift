// SPDX-License-Identifier: Apache-2.0

// Byte-level readers shared by the built-in date forms and the compiled date patterns. Each reader looks at the
// text from an index, never past its end, and returns the value with the index after it — or nil when the bytes do
// not fit. Nothing here allocates; ranges of the values (month 1–12, …) are checked later by `DateFields`, except
// for zone offsets, whose hour and minute ranges are checked here where the two parts are still apart.

/// Allocation-free readers for digits, fractions and zone offsets in date text.
enum DateScanning {
    /// How a numeric zone offset is spelled after its sign.
    enum OffsetStyle {
        /// `HHmm` (LDML `Z`, Weibo form).
        case hoursMinutes
        /// `HH:mm` (LDML `ZZZZZ`, `XXX`).
        case hoursColonMinutes
        /// `HH:mm` or `HHmm` (the built-in RFC 3339 form).
        case hoursOptionalColonMinutes
        /// `HH` or `HHmm` (LDML `X`).
        case hoursOptionalMinutes
    }

    @inline(__always)
    static func digitValue(_ byte: UInt8) -> Int? {
        let value = Int(byte) &- Int(UInt8(ascii: "0"))
        return value >= 0 && value <= 9 ? value : nil
    }

    /// Exactly `count` ASCII digits at `index`. Inlined: the built-in forms call it with constant counts, seven
    /// times per date.
    @inline(__always)
    static func fixedDigits(_ text: UnsafeRawBufferPointer, at index: Int, count: Int) -> Int? {
        guard index >= 0, count > 0, text.count - index >= count else { return nil }
        var value = 0
        for position in index..<(index + count) {
            guard let digit = digitValue(text[position]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// One to `maxCount` ASCII digits at `index`, as many as there are.
    static func variableDigits(_ text: UnsafeRawBufferPointer, at index: Int, maxCount: Int)
        -> (value: Int, end: Int)?
    {
        var value = 0
        var position = index
        while position < text.count, position - index < maxCount, let digit = digitValue(text[position]) {
            value = value * 10 + digit
            position += 1
        }
        return position > index ? (value, position) : nil
    }

    /// Fraction digits at `index` (after the `.`): between `minCount` and `maxCount` of them, as many as there are.
    /// The first six make the microseconds; `truncated` is true when a later digit is non-zero (the fraction is
    /// cut toward the past).
    static func fraction(_ text: UnsafeRawBufferPointer, at index: Int, minCount: Int, maxCount: Int)
        -> (microsecond: Int, truncated: Bool, end: Int)?
    {
        var microsecond = 0
        var truncated = false
        var position = index
        while position < text.count, let digit = digitValue(text[position]) {
            let place = position - index
            guard place < maxCount else { return nil }
            if place < 6 {
                microsecond = microsecond * 10 + digit
            } else if digit != 0 {
                truncated = true
            }
            position += 1
        }
        let count = position - index
        guard count >= minCount else { return nil }
        for _ in Swift.min(count, 6)..<6 {
            microsecond *= 10
        }
        return (microsecond, truncated, position)
    }

    /// A signed zone offset `±…` at `index` in `style`: minutes east of UTC (hours 00–23, minutes 00–59).
    static func offset(_ text: UnsafeRawBufferPointer, at index: Int, style: OffsetStyle)
        -> (minutes: Int, end: Int)?
    {
        guard index < text.count else { return nil }
        let sign: Int
        switch text[index] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        guard let hours = fixedDigits(text, at: index + 1, count: 2), hours <= 23 else { return nil }
        var position = index + 3
        let hasColon = position < text.count && text[position] == UInt8(ascii: ":")
        var minutes = 0
        switch style {
        case .hoursMinutes, .hoursColonMinutes, .hoursOptionalColonMinutes:
            if hasColon {
                guard style != .hoursMinutes else { return nil }
                position += 1
            } else if style == .hoursColonMinutes {
                return nil
            }
            guard let value = fixedDigits(text, at: position, count: 2) else { return nil }
            minutes = value
            position += 2
        case .hoursOptionalMinutes:
            if let value = fixedDigits(text, at: position, count: 2) {
                minutes = value
                position += 2
            }
        }
        guard minutes <= 59 else { return nil }
        return (sign * (hours * 60 + minutes), position)
    }

    /// Whether `byte` is at `index`.
    @inline(__always)
    static func byte(_ byte: UInt8, in text: UnsafeRawBufferPointer, at index: Int) -> Bool {
        index >= 0 && index < text.count && text[index] == byte
    }
}
