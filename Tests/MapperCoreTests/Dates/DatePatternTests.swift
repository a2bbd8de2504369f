// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import MapperCore

struct DatePatternTests {
    /// 2015-09-03T16:12:21.123456Z, a Thursday.
    static let sample = Instant.make(seconds: 1_441_296_741, micros: 123_456)

    /// Each row parses `text` to `seconds`/`micros` and formats that instant back to exactly `text`.
    @Test(
        arguments: [
            ("yyyy", "2015", 1_420_070_400, 0),
            ("yy", "15", 1_420_070_400, 0),
            ("M", "9", 20_995_200, 0),
            ("M", "12", 28_857_600, 0),
            ("MM", "09", 20_995_200, 0),
            ("MMM", "Sep", 20_995_200, 0),
            ("MMMM", "September", 20_995_200, 0),
            ("MMMM", "December", 28_857_600, 0),
            ("d", "3", 172_800, 0),
            ("d", "25", 2_073_600, 0),
            ("dd", "03", 172_800, 0),
            ("H", "9", 32_400, 0),
            ("H", "16", 57_600, 0),
            ("HH", "09", 32_400, 0),
            ("m:s", "5:7", 307, 0),
            ("mm:ss", "05:07", 307, 0),
            ("h a", "4 PM", 57_600, 0),
            ("hh:mm a", "12:30 PM", 45_000, 0),
            ("hh:mm a", "12:30 AM", 1_800, 0),
            ("h:mm a", "1:00 PM", 46_800, 0),
            ("ss.S", "00.1", 0, 100_000),
            ("ss.SS", "00.12", 0, 120_000),
            ("ss.SSS", "00.123", 0, 123_000),
            ("ss.SSSS", "00.1234", 0, 123_400),
            ("ss.SSSSS", "00.12345", 0, 123_450),
            ("ss.SSSSSS", "00.123456", 0, 123_456),
            ("ss.SSSSSS", "00.000001", 0, 1),
            ("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX", "2015-09-03T16:12:21.123456Z", 1_441_296_741, 123_456),
            ("yyyy-MM-dd'T'HH:mm:ssZZZZZ", "2015-09-03T16:12:21Z", 1_441_296_741, 0),
            ("yyyy-MM-dd HH:mm:ss X", "2015-09-03 16:12:21 Z", 1_441_296_741, 0),
            ("EEE MMM dd HH:mm:ss Z yyyy", "Thu Sep 03 16:12:21 +0000 2015", 1_441_296_741, 0),
            ("E, d MMM yyyy", "Thu, 3 Sep 2015", 1_441_238_400, 0),
            ("EE, d MMM yyyy", "Thu, 3 Sep 2015", 1_441_238_400, 0),
            ("EEEE, MMMM d, yyyy h:mm a", "Thursday, September 3, 2015 4:12 PM", 1_441_296_720, 0),
            ("dd/MM/yyyy", "03/09/2015", 1_441_238_400, 0),
            ("dd.MM.yy", "03.09.15", 1_441_238_400, 0),
            ("yyyy年MM月dd日", "2015年09月03日", 1_441_238_400, 0),
            ("yyyyMMddHHmmss", "20150903161221", 1_441_296_741, 0),
            ("'Day' d 'of' MMMM", "Day 3 of September", 21_168_000, 0),
            ("h 'o''clock' a", "4 o'clock PM", 57_600, 0),
            ("''yy''", "'15'", 1_420_070_400, 0),
        ] as [(String, String, Int64, Int64)])
    func parsesAndFormatsEverySymbol(pattern: String, text: String, seconds: Int64, micros: Int64) throws {
        let compiled = try DatePattern(pattern)
        let instant = Instant.make(seconds: seconds, micros: micros)
        #expect(compiled.parse(text) == .instant(instant, truncated: false))
        #expect(compiled.format(instant) == text)
    }

    @Test(arguments: [
        ("yyyy-MM-dd HH:mm:ss.SSSSSS Z", "2015-09-03 16:12:21.123456 +0000"),
        ("EEEE d MMMM yy h:m:s a S X", "Thursday 3 September 15 4:12:21 PM 1 Z"),
        ("E EE EEE EEEE", "Thu Thu Thu Thursday"),
        ("M MM MMM MMMM d dd", "9 09 Sep September 3 03"),
        ("H HH h hh a", "16 16 4 04 PM"),
        ("SS SSS SSSS SSSSS", "12 123 1234 12345"),
        ("Z ZZZZZ X XXX", "+0000 Z Z Z"),
    ])
    func formatsInUTCWithTruncatedFractions(pattern: String, expected: String) throws {
        #expect(try DatePattern(pattern).format(Self.sample) == expected)
    }

    @Test(
        arguments: [("70", 0), ("99", 915_148_800), ("00", 946_684_800), ("69", 3_124_224_000), ("15", 1_420_070_400)]
            as [(String, Int64)])
    func pivotsTwoDigitYearsInto1970Through2069(text: String, seconds: Int64) throws {
        #expect(try DatePattern("yy").parse(text) == .at(seconds))
    }

    @Test(
        arguments: [
            ("12:00 AM", 0), ("12:59 AM", 3_540), ("01:00 AM", 3_600), ("11:59 AM", 43_140),
            ("12:00 PM", 43_200), ("12:59 PM", 46_740), ("01:00 PM", 46_800), ("11:59 PM", 86_340),
        ] as [(String, Int64)])
    func readsTwelveHourClockWithMeridiem(text: String, seconds: Int64) throws {
        let pattern = try DatePattern("hh:mm a")
        #expect(pattern.parse(text) == .at(seconds))
        #expect(pattern.format(.make(seconds: seconds)) == text)
    }

    @Test func readsTwelveHourClockWithoutMeridiemAsMorning() throws {
        #expect(try DatePattern("h:mm").parse("12:15") == .at(900))
        #expect(try DatePattern("h:mm").parse("9:15") == .at(33_300))
    }

    @Test func prefersTwentyFourHourFieldOverMeridiem() throws {
        #expect(try DatePattern("HH:mm a").parse("09:00 PM") == .at(32_400))
    }

    @Test(
        arguments: [
            ("yyyy-MM-dd HH:mm Z", "2015-09-04 00:12 +0800", 1_441_296_720),
            ("yyyy-MM-dd HH:mm Z", "2015-09-03 08:12 -0800", 1_441_296_720),
            ("yyyy-MM-dd HH:mm ZZZZZ", "2015-09-04 00:12 +08:00", 1_441_296_720),
            ("yyyy-MM-dd HH:mm XXX", "2015-09-03 10:42 -05:30", 1_441_296_720),
            ("yyyy-MM-dd HH:mm X", "2015-09-04 00:12 +08", 1_441_296_720),
            ("yyyy-MM-dd HH:mm X", "2015-09-03 10:42 -0530", 1_441_296_720),
            ("yyyy-MM-dd HH:mm", "2015-09-03 16:12", 1_441_296_720),
        ] as [(String, String, Int64)])
    func appliesZoneOffsetsAndDefaultsToUTC(pattern: String, text: String, seconds: Int64) throws {
        #expect(try DatePattern(pattern).parse(text) == .at(seconds))
    }

    @Test(arguments: [
        ("yyyy", "15"), ("yyyy", "02015"), ("yy", "2015"), ("MM", "9"), ("M", "123"), ("MMM", "sep"), ("MMM", "SEP"),
        ("MMMM", "Sept"), ("MMMM", "Septembe"), ("dd", "3"), ("EEE dd", "thu 03"), ("EEEE dd", "Thu 03"),
        ("dd/MM/yyyy", "31/04/2015"), ("dd/MM/yyyy", "29/02/1900"), ("dd/MM/yyyy", "03/13/2015"),
        ("dd/MM/yyyy", "00/01/2015"), ("dd/MM/yyyy", "03/09/2015 "), ("dd/MM/yyyy", " 03/09/2015"),
        ("dd/MM/yyyy", "03-09-2015"), ("HH", "24"), ("H", "99"), ("mm", "60"), ("ss", "60"), ("hh", "00"),
        ("hh", "13"), ("h a", "4 am"), ("h a", "4 P"), ("ss.S", "00.12"), ("ss.SSS", "00.12"),
        ("Z", "+08:00"), ("Z", "Z"), ("Z", "+2400"), ("Z", "+0860"), ("ZZZZZ", "+0800"), ("XXX", "+08"),
        ("X", "+24"), ("X", "+08:00"), ("'T'HH", "t16"), ("yyyy", ""), ("yyyy", "0000"),
        ("yyyy-MM-dd HH:mm Z", "0001-01-01 00:00 +0100"), ("yyyy-MM-dd HH:mm Z", "9999-12-31 23:59 -0100"),
    ])
    func rejectsTextThatDoesNotMatchOrIsOutOfRange(pattern: String, text: String) throws {
        #expect(try DatePattern(pattern).parse(text) == .invalid)
    }

    @Test func readsOneLetterFieldsGreedily() throws {
        #expect(try DatePattern("d/M/yyyy").parse("3/9/2015") == .at(1_441_238_400))
        #expect(try DatePattern("d/M/yyyy").parse("03/09/2015") == .at(1_441_238_400))
        #expect(try DatePattern("Hmm").parse("1612") == .at(58_320))
    }

    @Test(arguments: [
        Instant.min, .max, .make(seconds: 0), .make(seconds: -1, micros: 999_999),
        .make(seconds: 951_868_799, micros: 7), sample,
    ])
    func roundTripsInstantsAcrossTheRange(instant: Instant) throws {
        for source in [
            "yyyy-MM-dd'T'HH:mm:ss.SSSSSSZ", "EEEE, d MMMM yyyy h:mm:ss.SSSSSS a XXX",
            "EEE MMM dd HH:mm:ss.SSSSSS X yyyy",
        ] {
            let pattern = try DatePattern(source)
            #expect(pattern.parse(pattern.format(instant)) == .instant(instant, truncated: false), "\(source)")
        }
    }

    @Test func formatWritesNegativeInstantsAsDatesBefore1970() throws {
        #expect(
            try DatePattern("yyyy-MM-dd HH:mm:ss.SSS").format(.make(seconds: -1, micros: 500_000))
                == "1969-12-31 23:59:59.500")
        #expect(try DatePattern("yyyy-MM-dd").format(.min) == "0001-01-01")
    }
}
