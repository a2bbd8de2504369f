// SPDX-License-Identifier: Apache-2.0

// Date output (docs/coercion-rules.md, "Dates"): every form appends bytes to the caller's buffer and allocates nothing.
//
//     iso8601      2015-09-03T16:12:21Z   …21.500Z   …21.123456Z     (UTC; 0, 3 or 6 fraction digits)
//     epoch        1441296741   1441296741.5   -0.000001              (seconds, exact, no trailing zeros)
//     epochMillis  1441296741500   -1                                 (floor: sub-millisecond part toward the past)
//
// iso8601 and patterns are written as raw text; the caller adds the quotes of the JSON string.

/// Writing dates in their output formats.
enum DateFormatting {
    /// Whether a text the built-in parser accepted is exactly what `writeISO8601` writes for it, so it can be
    /// copied: `yyyy-MM-ddTHH:mm:ssZ` with an upper-case `T` and `Z` and nothing else. The parser has checked the
    /// digits and every range (it never normalises), and the writer pads the year to four digits and writes no
    /// fraction for whole seconds.
    static func isWrittenForm(_ parsed: UnsafeRawBufferPointer) -> Bool {
        parsed.count == 20 && parsed[10] == UInt8(ascii: "T") && parsed[19] == UInt8(ascii: "Z")
    }

    /// RFC 3339 in UTC with "Z": fraction written with 3 digits when the time has whole milliseconds, 6 when it has
    /// microseconds, none when neither ("2015-09-03T16:12:21Z", "…21.500Z", "…21.123456Z").
    static func writeISO8601(_ i: Instant, into out: inout some ByteSink) {
        writeISO8601(DateFields(i), into: &out)
    }

    /// As above, from UTC fields (`DateFields.inUTC()`; the offset is not read).
    static func writeISO8601(_ date: DateFields, into out: inout some ByteSink) {
        let fractionDigits = date.microsecond % 1000 != 0 ? 6 : date.microsecond != 0 ? 3 : 0
        // Every field has a fixed width (the year is 0001–9999), so the first twenty bytes are filled in place with
        // one append, in three stores: templates of the punctuation with zero bytes where the digits go, each pair
        // of digits or-ed in as text. They end in `Z`, or in `.` before a fraction.
        out.append(count: 20) { buffer in
            let text = UnsafeMutableRawPointer(buffer.baseAddress!)
            let year = UInt32(truncatingIfNeeded: date.year) % 10_000
            let head: UInt64 =
                0x2D00_002D_0000_0000  // "____-__-"
                | digits(year / 100, at: 0) | digits(year, at: 2) | digits(date.month, at: 5)
            let middle: UInt64 =
                0x0000_3A00_0054_0000  // "__T__:__"
                | digits(date.day, at: 0) | digits(date.hour, at: 3) | digits(date.minute, at: 6)
            let tail: UInt32 =
                (fractionDigits > 0 ? 0x2E00_003A : 0x5A00_003A)  // ":__." or ":__Z"
                | UInt32(truncatingIfNeeded: digits(date.second, at: 1))
            text.storeBytes(of: head.littleEndian, as: UInt64.self)
            text.storeBytes(of: middle.littleEndian, toByteOffset: 8, as: UInt64.self)
            text.storeBytes(of: tail.littleEndian, toByteOffset: 16, as: UInt32.self)
        }
        if fractionDigits > 0 {
            writeDigits(
                fractionDigits == 6 ? date.microsecond : date.microsecond / 1000, width: fractionDigits,
                into: &out)
            out.append(UInt8(ascii: "Z"))
        }
    }

    /// The last two decimal digits of `value`, as text, in bytes `offset` and `offset + 1` of a little-endian word.
    @inline(__always)
    private static func digits(_ value: some BinaryInteger, at offset: Int) -> UInt64 {
        let pair = UnsafeRawPointer(digitPairs.utf8Start)
            .loadUnaligned(fromByteOffset: 2 * Int(UInt32(truncatingIfNeeded: value) % 100), as: UInt16.self)
        return UInt64(UInt16(littleEndian: pair)) << (8 * offset)
    }

    /// "00" to "99", back to back: a literal, so reading it touches no lazily initialised global.
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// Seconds as a plain decimal: integral when no fraction, else fraction digits up to microseconds, no trailing
    /// zeros ("1441296741.5"); negative instants too ("-0.5" is half a second before the epoch).
    static func writeEpochSeconds(_ i: Instant, into out: inout some ByteSink) {
        if i.microseconds < 0 {
            out.append(UInt8(ascii: "-"))
        }
        let magnitude = i.microseconds.magnitude
        writeDecimal(magnitude / 1_000_000, into: &out)
        var fraction = magnitude % 1_000_000
        guard fraction != 0 else { return }
        var width = 6
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        out.append(UInt8(ascii: "."))
        writeDigits(Int(fraction), width: width, into: &out)
    }

    /// Integer milliseconds, sub-millisecond part truncated toward the past (floor, also for negative instants).
    static func writeEpochMillis(_ i: Instant, into out: inout some ByteSink) {
        var millis = i.microseconds / 1000
        if i.microseconds % 1000 < 0 {
            millis -= 1
        }
        if millis < 0 {
            out.append(UInt8(ascii: "-"))
        }
        writeDecimal(millis.magnitude, into: &out)
    }

    /// Writes `instant` in `format` (epoch forms are JSON numbers, iso8601 and patterns are written as raw text
    /// WITHOUT quotes; the caller quotes).
    static func write(_ instant: Instant, as format: DateFormat, into out: inout some ByteSink) {
        switch format {
        case .iso8601: writeISO8601(instant, into: &out)
        case .epoch: writeEpochSeconds(instant, into: &out)
        case .epochMillis: writeEpochMillis(instant, into: &out)
        case .pattern(let pattern): pattern.format(instant, into: &out)
        }
    }

    // MARK: - Digits

    /// Appends a non-negative `value` zero-padded to at least `width` digits.
    static func writeDigits(_ value: Int, width: Int, into out: inout some ByteSink) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        for _ in digits..<Swift.max(width, digits) {
            out.append(UInt8(ascii: "0"))
        }
        writeDecimal(UInt64(value), into: &out)
    }

    /// Appends `value` in decimal, without padding.
    static func writeDecimal(_ value: UInt64, into out: inout some ByteSink) {
        var divisor: UInt64 = 1
        while divisor <= value / 10 {
            divisor *= 10
        }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends the bytes of a static ASCII text.
    static func writeText(_ text: StaticString, into out: inout some ByteSink) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
