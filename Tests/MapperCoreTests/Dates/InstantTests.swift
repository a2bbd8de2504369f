// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import MapperCore

struct InstantTests {
    @Test func minIsTheFirstMomentOfYearOne() {
        #expect(DateFields(Instant.min) == DateFields(year: 1, month: 1, day: 1))
        #expect(Instant.min == .make(seconds: -62_135_596_800))
    }

    @Test func maxIsTheLastMicrosecondOfYear9999() {
        #expect(
            DateFields(Instant.max)
                == DateFields(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, microsecond: 999_999))
        #expect(Instant.max == .make(seconds: 253_402_300_799, micros: 999_999))
    }

    @Test func rangeCheckIncludesBothEdgesOnly() {
        #expect(Instant.min.isInRange && Instant.max.isInRange)
        #expect(!Instant(microseconds: Instant.min.microseconds - 1).isInRange)
        #expect(!Instant(microseconds: Instant.max.microseconds + 1).isInRange)
    }

    @Test(arguments: [(1900, false), (2000, true), (2023, false), (2024, true), (2100, false), (2400, true), (4, true)])
    func appliesGregorianLeapYearRule(year: Int, isLeap: Bool) {
        #expect(Instant.isLeapYear(year) == isLeap)
        #expect(Instant.daysInMonth(2, year: year) == (isLeap ? 29 : 28))
    }

    @Test(arguments: [
        (1970, 1, 1, 0), (2015, 9, 4, 16_682), (2000, 2, 29, 11_016), (1969, 12, 31, -1),
        (1900, 3, 1, -25_508), (1, 1, 1, -719_162), (9999, 12, 31, 2_932_896),
    ])
    func convertsCivilDatesToDayNumbersAndBack(year: Int, month: Int, day: Int, days: Int) {
        #expect(Instant.daysFromCivil(year: year, month: month, day: day) == days)
        let civil = Instant.civilFromDays(days)
        #expect(civil.year == year && civil.month == month && civil.day == day)
    }

    @Test func consecutiveDayNumbersAreConsecutiveDates() {
        var expected = (year: 1899, month: 1, day: 1)
        let first = Instant.daysFromCivil(year: 1899, month: 1, day: 1)
        for days in first...(first + 365 * 202) {
            let civil = Instant.civilFromDays(days)
            #expect(civil == expected, "day \(days)")
            if civil != expected { return }
            #expect(Instant.daysFromCivil(year: civil.year, month: civil.month, day: civil.day) == days)
            expected.day += 1
            if expected.day > Instant.daysInMonth(expected.month, year: expected.year) {
                expected.day = 1
                expected.month += 1
                if expected.month > 12 {
                    expected.month = 1
                    expected.year += 1
                }
            }
        }
    }

    @Test(arguments: [(1970, 1, 1, 4), (2015, 9, 4, 5), (1, 1, 1, 1), (2000, 2, 29, 2), (1969, 12, 28, 0)])
    func computesWeekdaysFromSunday(year: Int, month: Int, day: Int, weekday: Int) {
        #expect(DateFields(year: year, month: month, day: day).weekday == weekday)
    }

    @Test func breaksNegativeInstantsIntoFieldsBeforeTheEpoch() {
        #expect(
            DateFields(Instant(microseconds: -1))
                == DateFields(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59, microsecond: 999_999))
    }

    @Test func ordersByMicroseconds() {
        #expect(Instant(microseconds: -5) < Instant(microseconds: 3))
        #expect(!(Instant.max < Instant.min))
    }
}
