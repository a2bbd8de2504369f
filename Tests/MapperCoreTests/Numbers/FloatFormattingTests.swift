// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct FloatFormattingTests {
    // MARK: - Fixtures

    private static func written(_ value: Double) -> String {
        var out: [UInt8] = []
        FloatFormatting.write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func written(_ value: Float) -> String {
        var out: [UInt8] = []
        FloatFormatting.write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func readDouble(_ text: String) -> Double {
        NumberFixture.withText(text) { FloatFormatting.readDouble($0) }
    }

    private static func readFloat(_ text: String) -> Float {
        NumberFixture.withText(text) { FloatFormatting.readFloat($0) }
    }

    /// 1 + 2⁻⁵³, exactly halfway between 1 and the next Double.
    private static let doubleHalfwayAboveOne = "1.00000000000000011102230246251565404236316680908203125"
    /// 1 + 2⁻²⁴, exactly halfway between 1 and the next Float.
    private static let floatHalfwayAboveOne = "1.000000059604644775390625"

    // MARK: - Writing doubles

    @Test(
        arguments: [
            (0.0, "0"), (-0.0, "0"), (1.0, "1"), (-1.0, "-1"), (100.0, "100"), (0.1, "0.1"), (1.5, "1.5"),
            (-2.5, "-2.5"),
            (123.456, "123.456"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"), (999999999999999900000.0, "999999999999999900000"),
            (1e-6, "0.000001"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (-1e-7, "-1e-7"), (0.000001234, "0.000001234"),
            (1.234e-7, "1.234e-7"), (Double.leastNonzeroMagnitude, "5e-324"),
            (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (-Double.greatestFiniteMagnitude, "-1.7976931348623157e+308"),
            (Double.leastNormalMagnitude, "2.2250738585072014e-308"), (0.1 + 0.2, "0.30000000000000004"),
            (-2.5e30, "-2.5e+30"), (1e16, "10000000000000000"),
            (Double(9_007_199_254_740_993 as Int64), "9007199254740992"),
            (4294967296.5, "4294967296.5"), (1.5e300, "1.5e+300"), (1e-5, "0.00001"),
            (12e-7, "0.0000012"), (0.5e-6, "5e-7"), (1 / 3.0, "0.3333333333333333"), (2.0 / 3.0, "0.6666666666666666"),
        ] as [(Double, String)])
    func writesDoublesLikeECMAScript(_ value: Double, _ expected: String) {
        #expect(Self.written(value) == expected)
    }

    // MARK: - Writing floats

    @Test(
        arguments: [
            (Float(0.1), "0.1"), (Float(0.3), "0.3"), (Float(1) / 3, "0.33333334"), (Float(1e7), "10000000"),
            (Float(16_777_217), "16777216"), (Float(-0.0), "0"), (Float(1e-7), "1e-7"), (Float(1e-6), "0.000001"),
            (Float(1e21), "1e+21"), (Float(1e20), "100000000000000000000"), (Float(-2.5e30), "-2.5e+30"),
            (Float.leastNonzeroMagnitude, "1e-45"), (Float.greatestFiniteMagnitude, "3.4028235e+38"),
            (Float.leastNormalMagnitude, "1.1754944e-38"), (Float(3.14159), "3.14159"), (Float(100), "100"),
        ] as [(Float, String)])
    func writesFloatsFromTheirOwnShortestDigits(_ value: Float, _ expected: String) {
        #expect(Self.written(value) == expected)
    }

    // MARK: - Writing integers

    @Test(
        arguments: [
            (Int128(0), "0"), (-1, "-1"), (7, "7"), (Int128(Int64.min), "-9223372036854775808"),
            (Int128(UInt64.max), "18446744073709551615"), (Int128(UInt64.max) + 1, "18446744073709551616"),
            (.min, "-170141183460469231731687303715884105728"), (.max, "170141183460469231731687303715884105727"),
        ] as [(Int128, String)])
    func writesIntegersAsPlainDigits(_ value: Int128, _ expected: String) {
        var out: [UInt8] = Array("x".utf8)
        FloatFormatting.writeInteger(value, into: &out)
        #expect(out == Array(("x" + expected).utf8))
    }

    // MARK: - Reading

    @Test(arguments: [
        "0", "1", "0.1", "1e21", "5e-324", "2.4703282292062328e-324", "2.4703282292062327e-324", "9007199254740993",
        "9007199254740995", "1e23", "8.98846567431158e307", "1.7976931348623157e308", "1.7976931348623158e308",
        "2.2250738585072011e-308", "2.2250738585072012e-308", "4.9406564584124654e-324",
        "123456789012345678901234567890",
        "0.30000000000000004", "3.14159", "1e-22", "1e22", "4503599627370497.5", "1e25", "1.5e300", "1e-300",
        "0.000000000000000000000000000000000000000001", "7e-10", "12345678901234e-8", "999999999999999e22",
    ])
    func readsDoublesCorrectlyRounded(_ text: String) {
        let expected = Double(text)!
        #expect(Self.readDouble(text).bitPattern == expected.bitPattern)
        #expect(Self.readDouble("-" + text).bitPattern == (-expected).bitPattern)
    }

    @Test(
        arguments: [
            ("1.7976931348623159e308", Double.infinity), ("1e309", .infinity), ("1e400", .infinity),
            ("1e99999999999999999999999", .infinity), ("1e-400", 0), ("1e-99999999999999999999999", 0),
            ("0e99999999999999999999999", 0), ("2.4703282292062327e-324", 0),
            ("2.4703282292062328e-324", .leastNonzeroMagnitude),
        ] as [(String, Double)])
    func overflowsToInfinityAndUnderflowsToZero(_ text: String, _ expected: Double) {
        #expect(Self.readDouble(text) == expected)
        #expect(Self.readDouble("-" + text) == -expected)
        #expect(Self.readDouble("-" + text).sign == .minus)
    }

    @Test
    func keepsRoundingPastEightHundredDigits() {
        let one = 1.0
        let zeros = String(repeating: "0", count: 10_000)
        // Exactly halfway: ties to even (1). Anything beyond, however far out, rounds up.
        #expect(Self.readDouble(Self.doubleHalfwayAboveOne) == one)
        #expect(Self.readDouble(Self.doubleHalfwayAboveOne + zeros) == one)
        #expect(Self.readDouble(Self.doubleHalfwayAboveOne + zeros + "1") == one.nextUp)
        #expect(Self.readDouble("0." + Self.doubleHalfwayAboveOne.filter { $0 != "." } + zeros + "1e1") == one.nextUp)
        #expect(Self.readDouble("1" + zeros + "e-10000") == one)
        #expect(Self.readDouble("0." + zeros + "1e10001") == one)
        #expect(Self.readFloat(Self.floatHalfwayAboveOne + zeros + "1") == Float(1).nextUp)
        #expect(Self.readFloat(Self.floatHalfwayAboveOne + zeros) == 1)
    }

    @Test
    func roundsFloatsDirectlyFromTheDecimalText() {
        // Through a Double this rounds to the exact halfway point 1 + 2⁻²⁴, then ties to even: 1. Wrong.
        let justAboveHalfway = Self.floatHalfwayAboveOne + "001"
        #expect(Self.readFloat(justAboveHalfway) == Float(1).nextUp)
        #expect(Self.readFloat("0.1") == Float(0.1))
        #expect(Self.readFloat("16777217") == 16_777_216)
        #expect(Self.readFloat("16777219") == 16_777_220)
        #expect(Self.readFloat("3.4028235e38") == .greatestFiniteMagnitude)
        #expect(Self.readFloat("3.4028235677973e38") == .greatestFiniteMagnitude)
        #expect(Self.readFloat("3.40282357e38") == .infinity)
        #expect(Self.readFloat("3.5e38") == .infinity)
        #expect(Self.readFloat("-1e39") == -.infinity)
        #expect(Self.readFloat("1e-45") == .leastNonzeroMagnitude)
        #expect(Self.readFloat("1e-46") == 0)
        #expect(Self.readFloat("-0").sign == .minus)
    }

    // MARK: - Properties

    @Test
    func readsRandomDecimalTextsLikeTheStandardLibrary() {
        var random = NumberFixture.Random(seed: 5)
        for _ in 0..<5_000 {
            var text = random.next() % 2 == 0 ? "-" : ""
            let digitCount = Int(random.next() % 25) + 1
            for index in 0..<digitCount {
                let digit = random.next() % 10
                text += String(index == 0 && digit == 0 ? 1 : digit)
                if index == 0 && random.next() % 3 == 0 { text += "." }
            }
            if text.hasSuffix(".") { text += "5" }
            text += "e\(Int(random.next() % 700) - 350)"
            #expect(Self.readDouble(text).bitPattern == Double(text)!.bitPattern, "\(text)")
            #expect(Self.readFloat(text).bitPattern == Float(text)!.bitPattern, "\(text)")
        }
    }

    @Test
    func writesDoublesThatReadBackToTheSameBits() {
        var random = NumberFixture.Random(seed: 1)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite, value != 0 else { continue }
            let text = Self.written(value)
            #expect(NumberFixture.withText(text) { NumberText.isJSONNumber($0) }, "\(text)")
            #expect(Self.readDouble(text).bitPattern == value.bitPattern, "\(text)")
        }
    }

    @Test
    func writesFloatsThatReadBackToTheSameBits() {
        var random = NumberFixture.Random(seed: 2)
        for _ in 0..<20_000 {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            guard value.isFinite, value != 0 else { continue }
            let text = Self.written(value)
            #expect(NumberFixture.withText(text) { NumberText.isJSONNumber($0) }, "\(text)")
            #expect(Self.readFloat(text).bitPattern == value.bitPattern, "\(text)")
        }
    }

    @Test
    func writesTheSameDigitsAsTheStandardLibrary() {
        // The layout differs from `description`, the digits and their scale must not.
        var random = NumberFixture.Random(seed: 9)
        for _ in 0..<5_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite, value != 0 else { continue }
            let text = Self.written(value)
            #expect(Double(text) == value && Self.significantDigits(text) == Self.significantDigits(value.description))
        }
    }

    /// The digits of a number text from the first to the last nonzero one.
    private static func significantDigits(_ text: String) -> String {
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
        return String(digits.reversed().drop { $0 == "0" }.reversed())
    }
}
