// SPDX-License-Identifier: Apache-2.0

// The date strings every `date` property accepts (docs/coercion-rules.md, "Dates"), read straight from the bytes:
//
//     2015-09-04                                  date only, UTC midnight
//     2015-09-04T00:12:21[.1–9 digits][zone]      `T`, `t` or a space; zone `Z`, `z`, `±HH:mm` or `±HHmm`
//     Fri Sep 04 00:12:21[.SSS] +0800 2015        Weibo/Twitter `EEE MMM dd HH:mm:ss Z yyyy`
//
// The first byte picks the form (a digit: RFC 3339; anything else: Weibo). The second form covers YYModel's ten
// length-dispatched formats and all of RFC 3339. The Weibo form's usual spelling, thirty bytes without milliseconds,
// is read a word at a time first; every other spelling is read field by field. Fields are range-checked by
// `DateFields.instant()` (or `DateFields.inUTC()`, which the common-value path writes from directly); English names
// are case-sensitive and the weekday is not checked against the date.

/// The built-in date input formats.
enum BuiltinDateParser {
    /// yyyy-MM-dd; yyyy-MM-dd + (T|t|space) + HH:mm:ss [. 1–9 digits] [Z|z|±HH:mm|±HHmm];
    /// Weibo/Twitter "EEE MMM dd HH:mm:ss Z yyyy" optionally with .SSS after seconds ("Fri Sep 04 00:12:21 +0800 2015";
    /// English abbreviations, case-sensitive; weekday not checked against the date).
    /// Every field range-checked (month 1–12, day exists in that month/year incl. leap years, hour 0–23, min/sec 0–59,
    /// year 0001–9999, zone hours 00–23, zone minutes 00–59); the instant after applying the offset must be in range.
    static func parse(_ text: UnsafeRawBufferPointer) -> DateReading {
        guard let (fields, truncated) = fields(text) else { return .invalid }
        return fields.reading(truncated: truncated)
    }

    /// The fields `text` spells, with its offset, and whether a fraction lost digits; nil when `text` is in none
    /// of the forms. The fields are not range-checked yet (`DateFields.instant()`, `DateFields.inUTC()`).
    static func fields(_ text: UnsafeRawBufferPointer) -> (DateFields, truncated: Bool)? {
        guard let first = text.first else { return nil }
        return DateScanning.digitValue(first) != nil ? parseRFC3339(text) : parseWeibo(text)
    }

    /// `yyyy-MM-dd` alone, or followed by a separator, `HH:mm:ss`, an optional fraction and an optional zone.
    private static func parseRFC3339(_ text: UnsafeRawBufferPointer) -> (DateFields, truncated: Bool)? {
        guard let year = DateScanning.fixedDigits(text, at: 0, count: 4),
            DateScanning.byte(UInt8(ascii: "-"), in: text, at: 4),
            let month = DateScanning.fixedDigits(text, at: 5, count: 2),
            DateScanning.byte(UInt8(ascii: "-"), in: text, at: 7),
            let day = DateScanning.fixedDigits(text, at: 8, count: 2)
        else { return nil }
        var fields = DateFields(year: year, month: month, day: day)
        if text.count == 10 {
            return (fields, false)
        }
        switch text[10] {
        case UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " "): break
        default: return nil
        }
        guard readTime(text, at: 11, into: &fields) else { return nil }
        var index = 19
        var truncated = false
        if DateScanning.byte(UInt8(ascii: "."), in: text, at: index) {
            guard let fraction = DateScanning.fraction(text, at: index + 1, minCount: 1, maxCount: 9) else {
                return nil
            }
            fields.microsecond = fraction.microsecond
            truncated = fraction.truncated
            index = fraction.end
        }
        if index < text.count {
            switch text[index] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                index += 1
            default:
                guard let zone = DateScanning.offset(text, at: index, style: .hoursOptionalColonMinutes) else {
                    return nil
                }
                fields.offsetMinutes = zone.minutes
                index = zone.end
            }
        }
        return index == text.count ? (fields, truncated) : nil
    }

    /// `EEE MMM dd HH:mm:ss[.SSS] Z yyyy`, e.g. `Fri Sep 04 00:12:21 +0800 2015`.
    private static func parseWeibo(_ text: UnsafeRawBufferPointer) -> (DateFields, truncated: Bool)? {
        if let fields = parseWeiboWithoutMilliseconds(text) { return (fields, false) }
        return parseWeiboByteByByte(text)
    }

    /// `parseWeibo` for every spelling, one field at a time.
    static func parseWeiboByteByByte(_ text: UnsafeRawBufferPointer) -> (DateFields, truncated: Bool)? {
        let space = UInt8(ascii: " ")
        guard DateNames.weekdayAbbreviation(in: text, at: 0) != nil,
            DateScanning.byte(space, in: text, at: 3),
            let month = DateNames.monthAbbreviation(in: text, at: 4),
            DateScanning.byte(space, in: text, at: 7),
            let day = DateScanning.fixedDigits(text, at: 8, count: 2),
            DateScanning.byte(space, in: text, at: 10)
        else { return nil }
        var fields = DateFields(year: 1970, month: month, day: day)
        guard readTime(text, at: 11, into: &fields) else { return nil }
        var index = 19
        if DateScanning.byte(UInt8(ascii: "."), in: text, at: index) {
            guard let milliseconds = DateScanning.fixedDigits(text, at: index + 1, count: 3) else { return nil }
            fields.microsecond = milliseconds * 1000
            index += 4
        }
        guard DateScanning.byte(space, in: text, at: index),
            let zone = DateScanning.offset(text, at: index + 1, style: .hoursMinutes),
            DateScanning.byte(space, in: text, at: zone.end),
            let year = DateScanning.fixedDigits(text, at: zone.end + 1, count: 4),
            zone.end + 5 == text.count
        else { return nil }
        fields.year = year
        fields.offsetMinutes = zone.minutes
        return (fields, false)
    }

    /// `parseWeibo` for its usual spelling, the thirty bytes of `Fri Sep 04 00:12:21 +0800 2015`, read as four
    /// words: the punctuation compared through a mask, the digits checked all at once, each pair of digits read
    /// with one multiply. Nil when `text` is anything else, which leaves the answer to the reading byte by byte:
    /// every text this accepts, that reading accepts with the same fields.
    static func parseWeiboWithoutMilliseconds(_ text: UnsafeRawBufferPointer) -> DateFields? {
        guard text.count == 30 else { return nil }
        // Bytes 0–7, 8–15, 16–23 and 22–29; the last word overlaps the third by two bytes.
        //   "Fri Sep "  "04 00:12"  ":21 +080"  "0800 2015"[1...]
        let names = UInt64(littleEndian: text.loadUnaligned(as: UInt64.self))
        let time = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let zone = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        let year = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: 22, as: UInt64.self))
        // The fixed bytes (spaces, colons), and where the digits are, in each word (bytes 22 and 23 in the third);
        // the zone's sign is read alone.
        guard names & 0xFF00_0000_FF00_0000 == 0x2000_0000_2000_0000,
            time & 0x0000_FF00_00FF_0000 == 0x0000_3A00_0020_0000,
            zone & 0x0000_0000_FF00_00FF == 0x0000_0000_2000_003A,
            year & 0x0000_0000_FF00_0000 == 0x0000_0000_2000_0000,
            allDigits(time, 0xFFFF_00FF_FF00_FFFF), allDigits(zone, 0xFFFF_FF00_00FF_FF00),
            allDigits(year, 0xFFFF_FFFF_00FF_0000)
        else { return nil }
        let sign: Int
        switch UInt8(truncatingIfNeeded: zone >> 32) {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        guard DateNames.weekday(packed: UInt32(truncatingIfNeeded: names) & 0xFF_FFFF) != nil,
            let month = DateNames.month(packed: UInt32(truncatingIfNeeded: names >> 32) & 0xFF_FFFF)
        else { return nil }
        // Byte `i` of `pairs(word)` is ten times digit `i` plus digit `i + 1` (digits are at most 9, so no byte
        // carries into the next).
        @inline(__always) func pairs(_ word: UInt64) -> UInt64 {
            let digits = word & 0x0F0F_0F0F_0F0F_0F0F
            return digits &* 10 &+ digits >> 8
        }
        @inline(__always) func pair(_ word: UInt64, at byte: UInt64) -> Int { Int(word >> (8 * byte) & 0xFF) }
        let timePairs = pairs(time)
        let zonePairs = pairs(zone)
        let yearPairs = pairs(year)
        let zoneHours = pair(zonePairs, at: 5)
        let zoneMinutes = pair(yearPairs, at: 1)
        // `DateScanning.offset`'s ranges.
        guard zoneHours <= 23, zoneMinutes <= 59 else { return nil }
        return DateFields(
            year: pair(yearPairs, at: 4) * 100 + pair(yearPairs, at: 6), month: month,
            day: pair(timePairs, at: 0), hour: pair(timePairs, at: 3), minute: pair(timePairs, at: 6),
            second: pair(zonePairs, at: 1), offsetMinutes: sign * (zoneHours * 60 + zoneMinutes))
    }

    /// Whether every byte of `word` that `mask` selects (0xFF) is an ASCII digit: its high half is 3, and adding
    /// 6 to its low half does not carry into the high half. No byte can carry into the next: a byte whose high
    /// half is 3 is at most 0x3F, and 0x3F + 6 fits.
    @inline(__always)
    private static func allDigits(_ word: UInt64, _ mask: UInt64) -> Bool {
        let high = 0xF0F0_F0F0_F0F0_F0F0 & mask
        let threes = 0x3030_3030_3030_3030 & mask
        let bytes = word & mask
        return bytes & high == threes && (bytes &+ (0x0606_0606_0606_0606 & mask)) & high == threes
    }

    /// `HH:mm:ss` at `index` (eight bytes).
    private static func readTime(_ text: UnsafeRawBufferPointer, at index: Int, into fields: inout DateFields) -> Bool {
        guard let hour = DateScanning.fixedDigits(text, at: index, count: 2),
            DateScanning.byte(UInt8(ascii: ":"), in: text, at: index + 2),
            let minute = DateScanning.fixedDigits(text, at: index + 3, count: 2),
            DateScanning.byte(UInt8(ascii: ":"), in: text, at: index + 5),
            let second = DateScanning.fixedDigits(text, at: index + 6, count: 2)
        else { return false }
        fields.hour = hour
        fields.minute = minute
        fields.second = second
        return true
    }
}
