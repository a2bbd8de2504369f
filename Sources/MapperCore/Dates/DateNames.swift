// SPDX-License-Identifier: Apache-2.0

// English (en_US_POSIX) month and weekday names, matched and written as bytes. Every full English name starts with
// its three-letter abbreviation ("Sep" / "September", "Thu" / "Thursday"), so a full name is matched by its
// abbreviation first and then by the rest of its bytes. Names are StaticStrings: reading them touches no heap
// and no lazily initialised global. Matching is case-sensitive, as docs/coercion-rules.md requires for the built-in
// forms.

/// English month and weekday names for date parsing and formatting.
enum DateNames {
    /// The month (1–12) whose three-letter abbreviation starts at `index`, or nil.
    static func monthAbbreviation(in text: UnsafeRawBufferPointer, at index: Int) -> Int? {
        guard let key = packedThree(text, at: index) else { return nil }
        return month(packed: key)
    }

    /// The month (1–12) whose abbreviation's three bytes are `key`'s low three, the first lowest (as a little-endian
    /// load reads them), or nil.
    static func month(packed key: UInt32) -> Int? {
        switch key {
        case pack("Jan"): return 1
        case pack("Feb"): return 2
        case pack("Mar"): return 3
        case pack("Apr"): return 4
        case pack("May"): return 5
        case pack("Jun"): return 6
        case pack("Jul"): return 7
        case pack("Aug"): return 8
        case pack("Sep"): return 9
        case pack("Oct"): return 10
        case pack("Nov"): return 11
        case pack("Dec"): return 12
        default: return nil
        }
    }

    /// The weekday (0 = Sunday … 6 = Saturday) whose three-letter abbreviation starts at `index`, or nil.
    static func weekdayAbbreviation(in text: UnsafeRawBufferPointer, at index: Int) -> Int? {
        guard let key = packedThree(text, at: index) else { return nil }
        return weekday(packed: key)
    }

    /// The weekday (0 = Sunday … 6 = Saturday) whose abbreviation's three bytes are `key`'s low three, the first
    /// lowest, or nil.
    static func weekday(packed key: UInt32) -> Int? {
        switch key {
        case pack("Sun"): return 0
        case pack("Mon"): return 1
        case pack("Tue"): return 2
        case pack("Wed"): return 3
        case pack("Thu"): return 4
        case pack("Fri"): return 5
        case pack("Sat"): return 6
        default: return nil
        }
    }

    /// Matches a full month name at `index`: the month (1–12) and the index after the name, or nil.
    static func monthName(in text: UnsafeRawBufferPointer, at index: Int) -> (month: Int, end: Int)? {
        guard let month = monthAbbreviation(in: text, at: index),
            let end = matchTail(of: monthName(month), in: text, at: index)
        else { return nil }
        return (month, end)
    }

    /// Matches a full weekday name at `index`: the weekday (0–6) and the index after the name, or nil.
    static func weekdayName(in text: UnsafeRawBufferPointer, at index: Int) -> (weekday: Int, end: Int)? {
        guard let weekday = weekdayAbbreviation(in: text, at: index),
            let end = matchTail(of: weekdayName(weekday), in: text, at: index)
        else { return nil }
        return (weekday, end)
    }

    /// "January" … "December" for 1–12.
    static func monthName(_ month: Int) -> StaticString {
        switch month {
        case 1: "January"
        case 2: "February"
        case 3: "March"
        case 4: "April"
        case 5: "May"
        case 6: "June"
        case 7: "July"
        case 8: "August"
        case 9: "September"
        case 10: "October"
        case 11: "November"
        default: "December"
        }
    }

    /// "Sunday" … "Saturday" for 0–6.
    static func weekdayName(_ weekday: Int) -> StaticString {
        switch weekday {
        case 0: "Sunday"
        case 1: "Monday"
        case 2: "Tuesday"
        case 3: "Wednesday"
        case 4: "Thursday"
        case 5: "Friday"
        default: "Saturday"
        }
    }

    /// Appends the first `count` bytes of `name` (all of it when `count` is nil).
    static func write(_ name: StaticString, prefix count: Int? = nil, into out: inout some ByteSink) {
        let length = Swift.min(count ?? name.utf8CodeUnitCount, name.utf8CodeUnitCount)
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: length))
    }

    // MARK: - Byte matching

    private static func pack(_ name: StaticString) -> UInt32 {
        let bytes = name.utf8Start
        return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16
    }

    private static func packedThree(_ text: UnsafeRawBufferPointer, at index: Int) -> UInt32? {
        guard index >= 0, text.count - index >= 3 else { return nil }
        return UInt32(text[index]) | UInt32(text[index + 1]) << 8 | UInt32(text[index + 2]) << 16
    }

    /// The index after `name` when the text at `index` continues with all of `name` (its first three bytes are
    /// already known to match), or nil.
    private static func matchTail(of name: StaticString, in text: UnsafeRawBufferPointer, at index: Int) -> Int? {
        let count = name.utf8CodeUnitCount
        guard text.count - index >= count else { return nil }
        let bytes = name.utf8Start
        for offset in 3..<count where text[index + offset] != bytes[offset] {
            return nil
        }
        return index + count
    }
}
