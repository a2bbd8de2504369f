// SPDX-License-Identifier: Apache-2.0

// An `Instant` is one signed 64-bit count of microseconds since 1970-01-01T00:00:00Z (proleptic Gregorian
// calendar, no leap seconds). The supported range is that of docs/coercion-rules.md, "Dates":
//
//     Instant.min  0001-01-01T00:00:00Z         = -62_135_596_800_000_000 µs
//     Instant.max  9999-12-31T23:59:59.999999Z  = 253_402_300_799_999_999 µs
//
// Calendar conversions go through a day number (days since 1970-01-01) using an era-based algorithm: years are
// shifted to start in March so that the leap day falls at the end of the year, then split into 400-year eras of
// exactly 146_097 days. Both directions are a handful of integer divisions; no tables, no Foundation.
//
//     daysFromCivil(2015, 9, 3) == 16_681        civilFromDays(16_681) == (2015, 9, 3)

/// Microseconds since 1970-01-01T00:00:00Z; valid range 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999Z.
struct Instant: Hashable, Comparable, Sendable {
    /// Microseconds since the Unix epoch; negative before 1970.
    var microseconds: Int64

    init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// 0001-01-01T00:00:00Z.
    static let min = Instant(microseconds: -62_135_596_800_000_000)
    /// 9999-12-31T23:59:59.999999Z.
    static let max = Instant(microseconds: 253_402_300_799_999_999)

    static let microsecondsPerSecond: Int64 = 1_000_000
    static let microsecondsPerDay: Int64 = 86_400_000_000

    /// Whether the instant lies within `Instant.min ... Instant.max`.
    var isInRange: Bool {
        microseconds >= Instant.min.microseconds && microseconds <= Instant.max.microseconds
    }

    static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
}

// MARK: - Civil-date arithmetic

extension Instant {
    /// Gregorian leap-year rule: every 4th year, except centuries, except every 4th century.
    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Days in `month` (1–12) of `year`; 0 for a month outside 1–12.
    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date; the fields must already be valid.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400  // 0...399
        let marchMonth = month > 2 ? month - 3 : month + 9  // March = 0 … February = 11
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1  // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468  // 719_468 = days from 0000-03-01 to 1970-01-01
    }

    /// The proleptic Gregorian date of a day number (days since 1970-01-01).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097  // 0...146_096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Day of the week of a day number: 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    static func weekday(ofDays days: Int) -> Int {
        let weekday = (days + 4) % 7
        return weekday < 0 ? weekday + 7 : weekday
    }
}
