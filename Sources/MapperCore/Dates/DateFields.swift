// SPDX-License-Identifier: Apache-2.0

// `DateFields` is the broken-down form every date parser fills and every date writer reads: civil date, time of
// day, microseconds and the zone offset the text stated. Parsers only collect digits; `instant()` is the one place
// that applies the range checks of docs/coercion-rules.md, "Dates" (month 1–12, a day that exists in that month and
// year, hour 0–23, minute and second 0–59, year 0001–9999, zone hours 00–23 and minutes 00–59) and the range check of
// the result.
//
//     "2015-09-04T00:12:21.5+08:00" → year 2015, month 9, day 4, 00:12:21, microsecond 500_000,
//                                      offsetMinutes 480 → instant() = 2015-09-03T16:12:21.5Z

/// A civil date and time with a zone offset, as read from (or written to) text.
struct DateFields: Equatable, Sendable {
    var year = 1970
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    /// 0...999_999.
    var microsecond = 0
    /// Minutes east of UTC (`+08:00` → 480); its magnitude must be at most 23 h 59 min.
    var offsetMinutes = 0

    init() {}

    init(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
        microsecond: Int = 0, offsetMinutes: Int = 0
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.microsecond = microsecond
        self.offsetMinutes = offsetMinutes
    }

    /// The UTC fields of `instant` (offset 0).
    init(_ instant: Instant) {
        let micros = instant.microseconds
        var days = micros / Instant.microsecondsPerDay
        var inDay = micros % Instant.microsecondsPerDay
        if inDay < 0 {
            days -= 1
            inDay += Instant.microsecondsPerDay
        }
        let civil = Instant.civilFromDays(Int(days))
        let seconds = Int(inDay / Instant.microsecondsPerSecond)
        self.init(
            year: civil.year, month: civil.month, day: civil.day,
            hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60,
            microsecond: Int(inDay % Instant.microsecondsPerSecond))
    }

    /// The instant these fields denote, or nil when a field is out of its range or the instant (after applying the
    /// offset) is outside `Instant.min ... Instant.max`.
    func instant() -> Instant? {
        guard isInRange else { return nil }
        let days = Int64(Instant.daysFromCivil(year: year, month: month, day: day))
        let seconds = Int64(hour * 3600 + minute * 60 + second - offsetMinutes * 60)
        let result = Instant(
            microseconds: days * Instant.microsecondsPerDay
                + seconds * Instant.microsecondsPerSecond + Int64(microsecond))
        return result.isInRange ? result : nil
    }

    /// Whether every field is in its range (the year 0001–9999, the day one of its month's, the offset under 24 h).
    private var isInRange: Bool {
        year >= 1 && year <= 9999 && month >= 1 && month <= 12
            && day >= 1 && day <= Instant.daysInMonth(month, year: year)
            && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59
            && microsecond >= 0 && microsecond <= 999_999
            && offsetMinutes > -24 * 60 && offsetMinutes < 24 * 60
    }

    /// The same moment's fields in UTC (offset 0): `DateFields(instant()!)`, or nil when `instant()` is nil, without
    /// the round trip through a day number. The offset moves the time by less than a day, so the date moves by at
    /// most one day, and the instant is in range exactly when the UTC year is 0001–9999.
    func inUTC() -> DateFields? {
        guard isInRange else { return nil }
        var utc = self
        utc.offsetMinutes = 0
        var minutes = hour * 60 + minute - offsetMinutes  // −1439 … 2878
        if minutes < 0 {
            minutes += 24 * 60
            utc.day -= 1
            if utc.day == 0 {
                utc.month -= 1
                if utc.month == 0 {
                    utc.month = 12
                    utc.year -= 1
                }
                utc.day = Instant.daysInMonth(utc.month, year: utc.year)
            }
        } else if minutes >= 24 * 60 {
            minutes -= 24 * 60
            utc.day += 1
            if utc.day > Instant.daysInMonth(utc.month, year: utc.year) {
                utc.day = 1
                utc.month += 1
                if utc.month == 13 {
                    utc.month = 1
                    utc.year += 1
                }
            }
        }
        utc.hour = minutes / 60
        utc.minute = minutes % 60
        guard utc.year >= 1, utc.year <= 9999 else { return nil }
        return utc
    }

    /// `.instant(instant(), truncated:)`, or `.invalid` when `instant()` is nil.
    func reading(truncated: Bool) -> DateReading {
        guard let instant = instant() else { return .invalid }
        return .instant(instant, truncated: truncated)
    }

    /// Day of the week of the civil date: 0 = Sunday … 6 = Saturday.
    var weekday: Int {
        Instant.weekday(ofDays: Instant.daysFromCivil(year: year, month: month, day: day))
    }
}
