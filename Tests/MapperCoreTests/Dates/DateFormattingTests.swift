// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import MapperCore

struct DateFormattingTests {
    @Test(arguments: [
        (Instant.make(seconds: 1_441_296_741), "2015-09-03T16:12:21Z"),
        (.make(seconds: 1_441_296_741, micros: 500_000), "2015-09-03T16:12:21.500Z"),
        (.make(seconds: 1_441_296_741, micros: 1_000), "2015-09-03T16:12:21.001Z"),
        (.make(seconds: 1_441_296_741, micros: 123_456), "2015-09-03T16:12:21.123456Z"),
        (.make(seconds: 1_441_296_741, micros: 120_000), "2015-09-03T16:12:21.120Z"),
        (.make(seconds: 1_441_296_741, micros: 100), "2015-09-03T16:12:21.000100Z"),
        (.make(seconds: 0), "1970-01-01T00:00:00Z"),
        (.make(seconds: 0, micros: -1), "1969-12-31T23:59:59.999999Z"),
        (.min, "0001-01-01T00:00:00Z"),
        (.max, "9999-12-31T23:59:59.999999Z"),
        (.make(seconds: 951_782_400), "2000-02-29T00:00:00Z"),
    ])
    func writesISO8601WithZeroThreeOrSixFractionDigits(instant: Instant, expected: String) {
        #expect(DateFormatting.written(instant, as: .iso8601) == expected)
    }

    /// The ISO 8601 writer, which fills words, against the text put together field by field, for instants spread
    /// over the whole range (years 0001–9999, every month), with no fraction, milliseconds and microseconds.
    @Test func writesISO8601AsTheFieldsSpellIt() {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: width - digits.count) + digits
        }
        var random = NumberFixture.Random(seed: 8601)
        let span = UInt64(Instant.max.microseconds - Instant.min.microseconds)
        var years = Set<Int>()
        for index in 0..<20_000 {
            var micros = Instant.min.microseconds + Int64(random.next() % span)
            switch index % 3 {
            case 0: micros -= micros % 1_000_000
            case 1: micros -= micros % 1_000
            default: break
            }
            if micros < Instant.min.microseconds { micros += 1_000_000 }
            let instant = Instant(microseconds: micros)
            let fields = DateFields(instant)
            let fraction =
                fields.microsecond == 0
                ? ""
                : fields.microsecond % 1000 == 0
                    ? "." + padded(fields.microsecond / 1000, 3)
                    : "." + padded(fields.microsecond, 6)
            let expected =
                "\(padded(fields.year, 4))-\(padded(fields.month, 2))-\(padded(fields.day, 2))T"
                + "\(padded(fields.hour, 2)):\(padded(fields.minute, 2)):\(padded(fields.second, 2))\(fraction)Z"
            #expect(DateFormatting.written(instant, as: .iso8601) == expected)
            years.insert(fields.year / 1000)
        }
        #expect(years == Set(0...9))
    }

    @Test(arguments: [
        (Instant.make(seconds: 1_441_296_741), "1441296741"),
        (.make(seconds: 1_441_296_741, micros: 500_000), "1441296741.5"),
        (.make(seconds: 1_441_296_741, micros: 123_456), "1441296741.123456"),
        (.make(seconds: 1_441_296_741, micros: 10), "1441296741.00001"),
        (.make(seconds: 0), "0"),
        (.make(seconds: 0, micros: 1), "0.000001"),
        (.make(seconds: 0, micros: -1), "-0.000001"),
        (.make(seconds: -1, micros: -500_000), "-1.5"),
        (.make(seconds: -2), "-2"),
        (.min, "-62135596800"),
        (.max, "253402300799.999999"),
    ])
    func writesEpochSecondsWithoutTrailingZeros(instant: Instant, expected: String) {
        #expect(DateFormatting.written(instant, as: .epoch) == expected)
    }

    @Test(arguments: [
        (Instant.make(seconds: 1_441_296_741), "1441296741000"),
        (.make(seconds: 1_441_296_741, micros: 123_999), "1441296741123"),
        (.make(seconds: 0), "0"),
        (.make(seconds: 0, micros: 999), "0"),
        (.make(seconds: 0, micros: -1), "-1"),
        (.make(seconds: 0, micros: -1_000), "-1"),
        (.make(seconds: 0, micros: -1_001), "-2"),
        (.min, "-62135596800000"),
        (.max, "253402300799999"),
    ])
    func writesEpochMillisFlooredTowardThePast(instant: Instant, expected: String) {
        #expect(DateFormatting.written(instant, as: .epochMillis) == expected)
    }

    @Test(arguments: [
        Instant.min, .max, .make(seconds: 0, micros: -1), .make(seconds: 1_441_296_741, micros: 120_000),
        .make(seconds: 1_441_296_741, micros: 123_456), .make(seconds: 1_441_296_741),
    ])
    func writesISO8601ThatTheBuiltInParserReadsBackExactly(instant: Instant) {
        #expect(
            BuiltinDateParser.parse(DateFormatting.written(instant, as: .iso8601))
                == .instant(instant, truncated: false))
    }

    @Test func writesPatternsThroughTheSameEntryPoint() throws {
        let format = DateFormat.pattern(try DatePattern("dd/MM/yyyy"))
        #expect(DateFormatting.written(.make(seconds: 1_441_296_741), as: format) == "03/09/2015")
    }

    @Test func appendsToExistingBytes() {
        var out = Array("\"".utf8)
        DateFormatting.writeISO8601(.make(seconds: 0), into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\"1970-01-01T00:00:00Z")
    }

    @Test(
        arguments: [(0, 1, "0"), (7, 2, "07"), (42, 2, "42"), (123, 2, "123"), (5, 4, "0005"), (0, 6, "000000")]
            as [(Int, Int, String)])
    func padsDigitsToTheWidth(value: Int, width: Int, expected: String) {
        var out: [UInt8] = []
        DateFormatting.writeDigits(value, width: width, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == expected)
    }
}
