// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct DecimalValueTests {
    // MARK: - Fixtures

    private static func decimal(_ text: String) -> DecimalValue? {
        NumberFixture.withText(text) { DecimalValue(jsonNumber: $0) }
    }

    private static func written(_ value: DecimalValue) -> String {
        var out: [UInt8] = []
        value.write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Reading

    @Test(
        arguments: [
            ("12.50", false, 125, -1), ("-1200", true, 12, 2), ("-0.0", false, 0, 0), ("0", false, 0, 0),
            ("0e999999999999999999999", false, 0, 0), ("1e3", false, 1, 3), ("0.0012", false, 12, -4),
            ("-7", true, 7, 0), ("123.456e-2", false, 123_456, -5),
            ("1" + String(repeating: "0", count: 49), false, 1, 49),
            ("0." + String(repeating: "0", count: 46) + "1", false, 1, -47),
        ] as [(String, Bool, UInt128, Int)])
    func readsTheExactNormalisedValue(_ text: String, _ negative: Bool, _ significand: UInt128, _ exponent: Int) {
        let value = Self.decimal(text)
        #expect(value?.negative == negative)
        #expect(value?.significand == significand)
        #expect(value?.exponent == exponent)
    }

    @Test
    func acceptsThirtyEightSignificantDigitsAndNoMore() {
        let digits38 = "12345678901234567890123456789012345678"
        #expect(Self.decimal(digits38)?.significand == 12_345_678_901_234_567_890_123_456_789_012_345_678)
        #expect(Self.decimal("-0.000" + digits38 + "000e5") != nil)
        #expect(Self.decimal("99999999999999999999999999999999999999") != nil)
        #expect(Self.decimal(digits38 + "9") == nil)
        #expect(Self.decimal("1" + String(repeating: "0", count: 37) + "1") == nil)
        #expect(Self.decimal("1." + String(repeating: "0", count: 10_000) + "1") == nil)
    }

    @Test(arguments: [
        ("1e9223372036854775807", true), ("1e9223372036854775808", false), ("1e-9223372036854775808", true),
        ("0.1e-9223372036854775808", false), ("10e9223372036854775806", true), ("1e99999999999999999999999", false),
        ("1e-99999999999999999999999", false), ("0e99999999999999999999999", true),
    ])
    func treatsAnExponentBeyondIntAsOutOfRange(_ text: String, _ readable: Bool) {
        #expect((Self.decimal(text) != nil) == readable)
    }

    @Test
    func readsIntegersIncludingTheInt128Extremes() {
        #expect(DecimalValue(integer: 0) == .zero)
        #expect(DecimalValue(integer: -1200) == DecimalValue(negative: true, significand: 12, exponent: 2))
        #expect(DecimalValue(integer: .min).significand == Int128.min.magnitude)
        #expect(DecimalValue(integer: .max).significand == UInt128(Int128.max))
    }

    // MARK: - Writing

    @Test(
        arguments: [
            ("1.50", "1.5"), ("1e3", "1000"), ("-0", "0"), ("-0.000e7", "0"), ("0.0012", "0.0012"), ("-12.5", "-12.5"),
            ("1e50", "1e+50"), ("-1.5e-45", "-1.5e-45"), ("1.23e41", "1.23e+41"), ("123.456e-2", "1.23456"),
            ("7", "7"), ("1e39", "1" + String(repeating: "0", count: 39)), ("1e40", "1e+40"),
            ("-1e38", "-1" + String(repeating: "0", count: 38)), ("-1e39", "-1e+39"),
            ("1e-38", "0." + String(repeating: "0", count: 37) + "1"), ("1e-39", "1e-39"),
            ("-1e-37", "-0." + String(repeating: "0", count: 36) + "1"),
            ("-1e-38", "-1e-38"), ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
            ("1234567890123456789012345678901234567.8", "1234567890123456789012345678901234567.8"),
            ("0.12345678901234567890123456789012345678", "0.12345678901234567890123456789012345678"),
            ("-0.12345678901234567890123456789012345678", "-1.2345678901234567890123456789012345678e-1"),
            ("12345678901234567890123456789012345678e3", "1.2345678901234567890123456789012345678e+40"),
            ("1e9223372036854775807", "1e+9223372036854775807"),
            ("-25e-9223372036854775808", "-2.5e-9223372036854775807"),
        ] as [(String, String)])
    func writesTheCanonicalForm(_ text: String, _ expected: String) {
        let value = Self.decimal(text)
        #expect(value.map(Self.written) == expected)
    }

    @Test
    func writesTheInt128ExtremesPlain() {
        #expect(Self.written(DecimalValue(integer: .min)) == "-170141183460469231731687303715884105728")
        #expect(Self.written(DecimalValue(integer: .max)) == "170141183460469231731687303715884105727")
    }

    @Test
    func writesAnExponentPastIntMax() {
        let value = DecimalValue(negative: false, significand: 15, exponent: .max)
        #expect(Self.written(value) == "1.5e+9223372036854775808")
    }

    @Test
    func readsBackWhatItWritesForRandomValues() {
        var random = NumberFixture.Random(seed: 3)
        for _ in 0..<3_000 {
            let value = Self.randomDecimal(&random)
            let text = Self.written(value)
            #expect(Self.decimal(text) == value, "\(text)")
            #expect(NumberFixture.withText(text) { NumberText.isJSONNumber($0) }, "\(text)")
        }
    }

    // MARK: - Equality and order

    @Test
    func equalValuesAreEqualAndHashAlike() {
        let spellings = ["1", "1.0", "10e-1", "0.1e1", "1.000000000000000000000000000000000000000000000"]
        let values = spellings.compactMap(Self.decimal)
        #expect(values.count == spellings.count)
        #expect(Set(values).count == 1)
        #expect(Self.decimal("-0") == Self.decimal("0"))
        #expect(Set([Self.decimal("-0"), Self.decimal("0.000")]).count == 1)
    }

    @Test(
        arguments: [
            ("1", "2", -1), ("-1", "-2", 1), ("-1", "1", -1), ("0", "-0", 0), ("0", "1e-400", -1), ("0", "-1e-400", 1),
            ("1.5", "1.49999999999999999999999999999999", 1), ("1e30", "999999999999999999999999999999", 1),
            ("17014118346046923173168730371588410572", "1.7e37", 1), ("99", "990e-1", 0), ("12", "1.2e1", 0),
            ("123", "1234e-1", -1), ("1234e-1", "123", 1), ("-123", "-1234e-1", 1),
        ] as [(String, String, Int)])
    func ordersByValue(_ a: String, _ b: String, _ expected: Int) throws {
        let left = try #require(Self.decimal(a))
        let right = try #require(Self.decimal(b))
        #expect(DecimalValue.compare(left, right) == expected)
        #expect((left < right) == (expected < 0))
        #expect((left == right) == (expected == 0))
    }

    @Test
    func ordersLikeTheNumberTextForRandomValues() {
        var random = NumberFixture.Random(seed: 11)
        for _ in 0..<3_000 {
            let a = Self.randomDecimal(&random)
            let b = random.next() % 8 == 0 ? a : Self.randomDecimal(&random, near: a)
            let textA = Self.written(a)
            let textB = Self.written(b)
            let expected = NumberFixture.withText(textA) { left in
                NumberFixture.withText(textB) { right in NumberText.compare(left, right) }
            }
            #expect(DecimalValue.compare(a, b) == expected, "\(textA) vs \(textB)")
        }
    }

    @Test
    func ordersTheExtremesOfInt128() {
        let values = [Int128.min, -1, 0, 1, Int128.max].map { DecimalValue(integer: $0) }
        #expect(values.sorted() == values)
        #expect(values.reversed().sorted() == values)
    }

    // MARK: - Helpers

    /// A normalised decimal with 1…38 random digits and an exponent in -60…60.
    private static func randomDecimal(_ random: inout NumberFixture.Random) -> DecimalValue {
        let digitCount = Int(random.next() % 38) + 1
        var significand: UInt128 = 0
        for _ in 0..<digitCount { significand = significand * 10 + UInt128(random.next() % 10) }
        let exponent = Int(random.next() % 121) - 60
        return DecimalValue(negative: random.next() % 2 == 0, significand: significand, exponent: exponent)
    }

    /// A decimal close to `other`: the same digits shifted, or with one digit changed.
    private static func randomDecimal(_ random: inout NumberFixture.Random, near other: DecimalValue) -> DecimalValue {
        switch random.next() % 3 {
        case 0:
            return DecimalValue(negative: other.negative, significand: other.significand, exponent: other.exponent + 1)
        case 1:
            let bump = UInt128(random.next() % 3) + 1
            let changed = other.significand > bump ? other.significand - bump : other.significand + bump
            return DecimalValue(negative: other.negative, significand: changed, exponent: other.exponent)
        default:
            return DecimalValue(negative: !other.negative, significand: other.significand, exponent: other.exponent)
        }
    }
}

@Suite struct DecimalHugeExponentTests {
    @Test(arguments: [
        ("999", false, 1, "1000"), ("1000", false, -1, "999"), ("12", true, 3, "9"), ("12", true, -3, "15"),
        ("100000000000000000000000", false, -1, "99999999999999999999999"),
    ])
    func addsASmallShiftToALongExponent(digits: String, negative: Bool, shift: Int, expected: String) {
        let result = DecimalValue.add(Array(digits.utf8), negative: negative, shift)
        #expect(result.negative == negative)
        #expect(String(decoding: result.digits, as: UTF8.self) == expected)
    }

    @Test(arguments: [
        ("1e99999999999999999999", "1e+99999999999999999999"),
        ("12.5e99999999999999999999", "1.25e+100000000000000000000"),
        ("-0.0015E-99999999999999999999", "-1.5e-100000000000000000002"),
        ("120e-100000000000000000000", "1.2e-99999999999999999998"),
    ])
    func writesExponentsBeyondSixtyFourBits(text: String, expected: String) {
        var out: [UInt8] = []
        let written = Array(text.utf8).withUnsafeBytes { DecimalValue.writeHugeExponent($0, into: &out) }
        #expect(written)
        #expect(String(decoding: out, as: UTF8.self) == expected)
    }
}
