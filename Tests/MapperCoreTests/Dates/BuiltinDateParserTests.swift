// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import MapperCore

struct BuiltinDateParserTests {
    /// `DateFields.inUTC()` (the common-value path's shortcut) against the round trip through an `Instant`, over
    /// the edges it handles itself: offsets that move the date back or forward across a month, a year, a leap day,
    /// and out of 0001–9999, and fields out of range.
    @Test func fieldsInUTCAreTheInstantsFields() {
        var compared = 0
        for year in [1, 2, 1970, 1999, 2000, 2015, 2016, 2100, 9998, 9999, 0, 10_000] {
            for (month, day) in [
                (1, 1), (1, 31), (2, 28), (2, 29), (3, 1), (6, 30), (12, 1), (12, 31), (4, 31),
                (13, 1), (0, 5), (5, 0),
            ] {
                for (hour, minute) in [(0, 0), (0, 1), (7, 59), (12, 30), (23, 58), (23, 59), (24, 0), (3, 60)] {
                    for offset in [-1439, -1000, -481, -1, 0, 1, 480, 510, 1439, -1440, 1440] {
                        let fields = DateFields(
                            year: year, month: month, day: day, hour: hour, minute: minute,
                            second: 59, microsecond: 123_456, offsetMinutes: offset)
                        let expected = fields.instant().map(DateFields.init)
                        #expect(fields.inUTC() == expected, "\(fields)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 12 * 12 * 8 * 11)
    }

    @Test(arguments: [
        ("2015-09-04", DateReading.at(1_441_324_800)),
        ("2000-02-29", .at(951_782_400)),
        ("2015-09-03T16:12:21Z", .at(1_441_296_741)),
        ("2015-09-03t16:12:21z", .at(1_441_296_741)),
        ("2015-09-03 16:12:21", .at(1_441_296_741)),
        ("2015-09-03T16:12:21", .at(1_441_296_741)),
        ("2015-09-04T00:12:21+08:00", .at(1_441_296_741)),
        ("2015-09-04 00:12:21+0800", .at(1_441_296_741)),
        ("2015-09-03T08:12:21-08:00", .at(1_441_296_741)),
        ("2015-09-03T21:42:21+05:30", .at(1_441_296_741)),
        ("2015-09-03T16:12:21-00:00", .at(1_441_296_741)),
        ("2015-09-03T16:12:21.5Z", .at(1_441_296_741, micros: 500_000)),
        ("2015-09-04 00:12:21.123+08:00", .at(1_441_296_741, micros: 123_000)),
        ("2016-02-29T12:30:45Z", .at(1_456_749_045)),
        ("1969-12-31T23:59:59Z", .at(-1)),
        ("1900-01-01", .at(-2_208_988_800)),
    ])
    func readsRFC3339Forms(text: String, expected: DateReading) {
        #expect(BuiltinDateParser.parse(text) == expected)
    }

    @Test(arguments: [
        ("Fri Sep 04 00:12:21 +0800 2015", DateReading.at(1_441_296_741)),
        ("Fri Sep 04 00:12:21.123 +0800 2015", .at(1_441_296_741, micros: 123_000)),
        ("Thu Sep 03 16:12:21 +0000 2015", .at(1_441_296_741)),
        ("Thu Sep 03 08:12:21 -0800 2015", .at(1_441_296_741)),
        ("Mon Sep 03 16:12:21 +0000 2015", .at(1_441_296_741)),
        ("Sun Jan 01 00:00:00 +0000 1970", .at(0)),
        ("Tue Feb 29 12:30:45 +0000 2016", .at(1_456_749_045)),
        ("Wed Dec 31 23:59:59 +0000 1969", .at(-1)),
        ("Sat Jun 15 00:00:00 +0000 1970", .at(14_256_000)),
    ])
    func readsWeiboFormIgnoringTheWeekday(text: String, expected: DateReading) {
        #expect(BuiltinDateParser.parse(text) == expected)
    }

    /// The Weibo form's word-at-a-time reading (`parseWeiboWithoutMilliseconds`) against the byte-by-byte one:
    /// every text of thirty bytes that one accepts, the other accepts with the same fields. The texts are valid
    /// dates with each byte in turn replaced by every byte value, and texts of random bytes from the form's own
    /// alphabet.
    @Test func readsWeiboWordsAsTheBytesAre() {
        var compared = 0
        var acceptedByBoth = 0
        func compare(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { text in
                let words = BuiltinDateParser.parseWeiboWithoutMilliseconds(text)
                let fields = BuiltinDateParser.parseWeiboByteByByte(text)
                #expect(words == fields?.0, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(fields?.truncated != true)
                if words != nil { acceptedByBoth += 1 }
            }
            compared += 1
        }
        let dates = [
            "Fri Sep 04 00:12:21 +0800 2015", "Sun Jan 01 00:00:00 -0000 0001", "Wed Dec 31 23:59:59 -2359 9999",
            "Mon Feb 29 19:45:07 +0530 2016", "Tue Oct 10 10:10:10 -1030 1010", "Thu May 15 08:30:00 +2300 1999",
            "Sat Jul 04 12:00:00 -0145 2026",
        ]
        for date in dates {
            let bytes = Array(date.utf8)
            compare(bytes)
            for position in bytes.indices {
                for byte in UInt8.min...UInt8.max {
                    var mutated = bytes
                    mutated[position] = byte
                    compare(mutated)
                }
            }
        }
        let alphabet = Array("0123456789 :+-./SunMonTueWedThuFriSatJanFebMarAprMayJulAugSepOctNovDec\u{7F}\u{FF}".utf8)
        var random = NumberFixture.Random(seed: 30)
        for _ in 0..<20_000 {
            var bytes = Array(dates[Int(random.next() % UInt64(dates.count))].utf8)
            for _ in 0..<(1 + random.next() % 4) {
                bytes[Int(random.next() % 30)] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            compare(bytes)
        }
        #expect(compared == dates.count * (1 + 30 * 256) + 20_000)
        // Each date with each byte replaced by itself, at least, and the digit swaps that stay in range.
        #expect(acceptedByBoth > dates.count * 30)
    }

    @Test(arguments: [
        "", "2015", "2015-9-04", "2015-09-4", "15-09-04", "2015/09/04", "+2015-09-04", " 2015-09-04", "2015-09-04 ",
        "2015-09-04T", "2015-09-04x00:12:21", "2015-09-04T00:12", "2015-09-04T0:12:21", "2015-09-04T00:12:21.",
        "2015-09-04T00:12:21,5", "2015-09-04T00:12:21.1234567890", "2015-09-04T00:12:21+08", "2015-09-04T00:12:21+8:00",
        "2015-09-04T00:12:21+08:0", "2015-09-04T00:12:21+08:000", "2015-09-04T00:12:21 Z", "2015-09-04T00:12:21Zx",
        "2015-09-04T00:12:21ZZ", "2015-09-04T00:12:21+08:00Z", "２０１５-09-04", "2015-09-04T00:12:21.5.5",
        "1441296741", "2015-09-04T00:12:21UTC",
    ])
    func rejectsMalformedRFC3339Text(text: String) {
        #expect(BuiltinDateParser.parse(text) == .invalid)
    }

    @Test(arguments: [
        "fri Sep 04 00:12:21 +0800 2015", "Fri sep 04 00:12:21 +0800 2015", "FRI SEP 04 00:12:21 +0800 2015",
        "Friday Sep 04 00:12:21 +0800 2015", "Fri Sept 04 00:12:21 +0800 2015", "Fri Sep 4 00:12:21 +0800 2015",
        "Fri Sep 04 00:12:21 +08:00 2015", "Fri Sep 04 00:12:21 +08 2015", "Fri Sep 04 00:12:21 Z 2015",
        "Fri Sep 04 00:12:21 2015", "Fri Sep 04 00:12:21.12 +0800 2015", "Fri Sep 04 00:12:21.1234 +0800 2015",
        "Fri Sep 04 00:12:21 +0800 15", "Fri Sep 04 00:12:21 +0800 2015 ", "Fri Sep 04 00:12:21 +0800 20150",
        "Fri Sep 04 00:12:21  +0800 2015", "Fri Sep 04 00:12 +0800 2015", "Fri Sep 04",
    ])
    func rejectsMalformedWeiboText(text: String) {
        #expect(BuiltinDateParser.parse(text) == .invalid)
    }

    @Test(arguments: [
        "2015-13-01", "2015-00-10", "2015-01-00", "2015-01-32", "2015-04-31", "2015-06-31", "2015-09-31", "2015-11-31",
        "2015-02-29", "1900-02-29", "2100-02-29", "2016-02-30", "2015-09-04T24:00:00", "2015-09-04T23:60:00",
        "2015-09-04T23:59:60", "0000-01-01", "0000-12-31T23:00:00-01:00", "2015-09-04T00:00:00+24:00",
        "2015-09-04T00:00:00-24:00", "2015-09-04T00:00:00+2400", "2015-09-04T00:00:00+23:60",
        "2015-09-04T00:00:00+0099",
        "Fri Sep 31 00:12:21 +0800 2015", "Fri Feb 29 00:12:21 +0800 2015", "Fri Sep 04 24:12:21 +0800 2015",
        "Fri Sep 04 00:60:21 +0800 2015", "Fri Sep 04 00:12:60 +0800 2015", "Fri Sep 04 00:12:21 +2400 2015",
        "Fri Sep 04 00:12:21 +0860 2015", "Fri Sep 04 00:12:21 +0800 0000",
    ])
    func rejectsFieldsOutOfRange(text: String) {
        #expect(BuiltinDateParser.parse(text) == .invalid)
    }

    @Test(arguments: [
        ("1904-02-29", true), ("2000-02-29", true), ("2400-02-29", true), ("1900-02-29", false),
        ("2023-02-29", false), ("2024-02-29", true), ("2015-02-28", true), ("2015-04-30", true),
    ])
    func checksThatTheDayExists(text: String, exists: Bool) {
        #expect((BuiltinDateParser.parse(text) != .invalid) == exists)
    }

    @Test(arguments: [
        ("0001-01-01T00:00:00Z", DateReading.instant(.min, truncated: false)),
        ("0001-01-01T01:00:00+01:00", .instant(.min, truncated: false)),
        ("0001-01-01T00:00:00+01:00", .invalid),
        ("0001-01-01T00:59:59.999999+01:00", .invalid),
        ("0001-01-01", .instant(.min, truncated: false)),
        ("9999-12-31T23:59:59.999999Z", .instant(.max, truncated: false)),
        ("9999-12-31T23:59:59.9999999Z", .instant(.max, truncated: true)),
        ("9999-12-31T22:59:59.999999-01:00", .instant(.max, truncated: false)),
        ("9999-12-31T23:00:00-01:00", .invalid),
        ("9999-12-31T23:59:59-00:01", .invalid),
        ("Mon Jan 01 00:00:00 -0001 0001", .instant(.make(seconds: -62_135_596_800 + 60), truncated: false)),
        ("Mon Jan 01 00:00:00 +0001 0001", .invalid),
        ("Fri Dec 31 23:59:59 -2359 9999", .invalid),
    ])
    func appliesTheRangeAfterTheOffset(text: String, expected: DateReading) {
        #expect(BuiltinDateParser.parse(text) == expected)
    }

    @Test(arguments: [
        (".1", 100_000, false), (".12", 120_000, false), (".123", 123_000, false), (".1234", 123_400, false),
        (".12345", 123_450, false), (".123456", 123_456, false), (".1234567", 123_456, true),
        (".12345678", 123_456, true), (".123456789", 123_456, true), (".123456999", 123_456, true),
        (".000000001", 0, true), (".123456000", 123_456, false), (".0", 0, false), (".999999", 999_999, false),
    ])
    func keepsFractionsToTheMicrosecondAndFlagsCutDigits(fraction: String, micros: Int64, truncated: Bool) {
        #expect(
            BuiltinDateParser.parse("2015-09-03T16:12:21\(fraction)Z")
                == .at(1_441_296_741, micros: micros, truncated: truncated))
        #expect(
            BuiltinDateParser.parse("2015-09-04 00:12:21\(fraction)+08:00")
                == .at(1_441_296_741, micros: micros, truncated: truncated))
    }

    @Test func truncatesNegativeInstantsTowardThePast() {
        // -0.0000001 s is cut to -0.000001 s: earlier, not closer to zero.
        #expect(
            BuiltinDateParser.parse("1969-12-31T23:59:59.9999999Z")
                == .instant(Instant(microseconds: -1), truncated: true))
        #expect(
            BuiltinDateParser.parse("1969-12-31T23:59:58.0000019Z")
                == .instant(Instant(microseconds: -1_999_999), truncated: true))
    }
}
