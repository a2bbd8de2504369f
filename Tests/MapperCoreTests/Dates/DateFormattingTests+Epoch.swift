// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import MapperCore

extension DateFormattingTests {
    @Test(arguments: [
        ("1441296741", DateReading.at(1_441_296_741)),
        ("1441296741.5", .at(1_441_296_741, micros: 500_000)),
        ("1.4412967415e9", .at(1_441_296_741, micros: 500_000)),
        ("1.4412967415E+9", .at(1_441_296_741, micros: 500_000)),
        ("14412967415e-1", .at(1_441_296_741, micros: 500_000)),
        ("0.000001", .at(0, micros: 1)),
        ("1e-6", .at(0, micros: 1)),
        ("0", .at(0)), ("-0", .at(0)), ("0.0", .at(0)), ("0e999999999999999999999", .at(0)),
        ("-1", .at(-1)), ("-1.5", .at(-1, micros: -500_000)), ("-0.000001", .at(0, micros: -1)),
        ("1441296741.1234560000", .at(1_441_296_741, micros: 123_456)),
        ("-62135596800", .instant(.min, truncated: false)),
        ("253402300799.999999", .instant(.max, truncated: false)),
        ("253402300799.9999999", .instant(.max, truncated: true)),
        ("-62135596799.9999999", .instant(.make(seconds: -62_135_596_800), truncated: true)),
    ])
    func readsEpochSecondsExactly(text: String, expected: DateReading) {
        #expect(DateFormatting.readEpoch(text) == expected)
    }

    @Test(arguments: [
        ("1441296741500", DateReading.at(1_441_296_741, micros: 500_000)),
        ("1441296741500.25", .at(1_441_296_741, micros: 500_250)),
        ("1.4412967415e12", .at(1_441_296_741, micros: 500_000)),
        ("0.001", .at(0, micros: 1)),
        ("0.0015", .at(0, micros: 1, truncated: true)),
        ("-0.0015", .at(0, micros: -2, truncated: true)),
        ("-1", .at(0, micros: -1_000)),
        ("-62135596800000", .instant(.min, truncated: false)),
        ("-62135596800001", .invalid),
        ("253402300799999.999", .instant(.max, truncated: false)),
        ("253402300800000", .invalid),
    ])
    func readsEpochMillisecondsExactly(text: String, expected: DateReading) {
        #expect(DateFormatting.readEpoch(text, millis: true) == expected)
    }

    @Test(arguments: [
        ("0.0000001", DateReading.at(0, truncated: true)),
        ("-0.0000001", .at(0, micros: -1, truncated: true)),
        ("1.9999999", .at(1, micros: 999_999, truncated: true)),
        ("-1.9999999", .at(-2, truncated: true)),
        ("-1.0000001", .at(-1, micros: -1, truncated: true)),
        ("1e-7", .at(0, truncated: true)),
        ("-1e-999999999999999999", .at(0, micros: -1, truncated: true)),
        ("1.0000000", .at(1)),
    ])
    func truncatesBeyondMicrosecondsTowardThePast(text: String, expected: DateReading) {
        #expect(DateFormatting.readEpoch(text) == expected)
    }

    @Test(arguments: [
        "-62135596800.000001", "253402300800", "1e18", "1e999999999999999999999", "-1e30",
        "99999999999999999999",
    ])
    func rejectsSecondsOutsideTheRange(text: String) {
        #expect(DateFormatting.readEpoch(text) == .invalid)
    }

    @Test(arguments: [
        "", "-", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "1.5.5", "1 ", " 1", "0x10", "1_000", "NaN",
        "Infinity", "١", "1e5x",
    ])
    func rejectsTextThatIsNotAJSONNumber(text: String) {
        #expect(DateFormatting.readEpoch(text) == .invalid)
        #expect(DateFormatting.readEpoch(text, millis: true) == .invalid)
    }

    @Test func readsHugeNumbersInOnePassWithoutOverflow() {
        let zeros = String(repeating: "0", count: 10_000)
        #expect(DateFormatting.readEpoch("1" + zeros) == .invalid)
        #expect(DateFormatting.readEpoch("0." + zeros + "1") == .at(0, truncated: true))
        #expect(DateFormatting.readEpoch("1441296741." + zeros + "1") == .at(1_441_296_741, truncated: true))
        #expect(DateFormatting.readEpoch("1" + zeros + "e-10000") == .at(1))
        #expect(DateFormatting.readEpoch("0." + zeros + "1e10007") == .at(1_000_000))
        let nines = String(repeating: "9", count: 10_000)
        #expect(DateFormatting.readEpoch("-" + nines + "e-10000") == .at(-1, truncated: true))
    }

    @Test(arguments: [
        Instant.min, .max, .make(seconds: 0), .make(seconds: 0, micros: -1),
        .make(seconds: 1_441_296_741, micros: 123_456), .make(seconds: -1, micros: -500_000),
    ])
    func readsBackWhatItWrites(instant: Instant) {
        let seconds = DateFormatting.written(instant, as: .epoch)
        #expect(DateFormatting.readEpoch(seconds) == .instant(instant, truncated: false))
        let millis = DateFormatting.written(instant, as: .epochMillis)
        let floored = Instant(microseconds: (instant.microseconds - ((instant.microseconds % 1000) + 1000) % 1000))
        #expect(DateFormatting.readEpoch(millis, millis: true) == .instant(floored, truncated: false))
    }
}
