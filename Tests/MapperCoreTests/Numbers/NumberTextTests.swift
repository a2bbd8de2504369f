// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct NumberTextTests {
    // MARK: - Fixtures

    private static func withText<Result>(_ text: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        NumberFixture.withText(text, body)
    }

    private static func read(_ text: String, in range: ClosedRange<Int128>) -> IntegerReading {
        withText(text) { NumberText.readInteger($0, min: range.lowerBound, max: range.upperBound) }
    }

    private static func compare(_ a: String, _ b: String) -> Int {
        withText(a) { left in withText(b) { right in NumberText.compare(left, right) } }
    }

    /// The ranges of the schema's integer types.
    enum Ranges {
        static let int8 = Int128(Int8.min)...Int128(Int8.max)
        static let int16 = Int128(Int16.min)...Int128(Int16.max)
        static let int32 = Int128(Int32.min)...Int128(Int32.max)
        static let int64 = Int128(Int64.min)...Int128(Int64.max)
        static let uint8 = Int128(0)...Int128(UInt8.max)
        static let uint16 = Int128(0)...Int128(UInt16.max)
        static let uint32 = Int128(0)...Int128(UInt32.max)
        static let uint64 = Int128(0)...Int128(UInt64.max)
        static let int128 = Int128.min...Int128.max
    }

    // MARK: - Grammar

    @Test(arguments: [
        "0", "-0", "1", "-1", "10", "0.5", "-0.0", "1.25", "1e5", "1E5", "1e+5", "1e-5", "0e0", "-0.0e-0",
        "12345678901234567890123456789012345678901234567890", "1.5E+0010", "9.999e-999",
    ])
    func acceptsGrammarValidNumbers(_ text: String) {
        #expect(Self.withText(text) { NumberText.isJSONNumber($0) })
    }

    @Test(arguments: [
        "", "-", "+5", "007", "01", "-01", ".5", "5.", "0x1A", "12abc", "1,5", "NaN", "inf", "-inf", "Infinity",
        " 1", "1 ", "1e", "1e+", "1E-", "--1", "1.e5", "-.5", "1.5.5", "1ee5", "0.", "\u{2212}1", "1e5.5", "e5",
        "1_000", "١", "1\u{0}",
    ])
    func rejectsTextOutsideTheGrammar(_ text: String) {
        #expect(!Self.withText(text) { NumberText.isJSONNumber($0) })
    }

    @Test(arguments: [
        ("  42 ", "42"), ("\t\n\r 7\r\n", "7"), ("   ", ""), ("", ""), ("a b", "a b"), (" 1 2 ", "1 2"),
        ("\u{0B}1\u{0C}", "\u{0B}1\u{0C}"), ("\u{A0}1", "\u{A0}1"),
    ])
    func trimsOnlyJSONWhitespaceAtBothEnds(_ text: String, _ expected: String) {
        let trimmed = Self.withText(text) { Array(NumberText.trimmingJSONWhitespace($0)) }
        #expect(trimmed == Array(expected.utf8))
    }

    @Test
    func trimmingReturnsASliceOfTheSameBytes() {
        Self.withText(" 5 ") { text in
            let trimmed = NumberText.trimmingJSONWhitespace(text)
            #expect(trimmed.baseAddress == text.baseAddress! + 1)
            #expect(trimmed.count == 1)
        }
    }

    // MARK: - Integers

    /// One `readInteger` question and its answer.
    struct IntegerCase: Sendable, CustomTestStringConvertible {
        let text: String
        let range: ClosedRange<Int128>
        let expected: IntegerReading

        init(_ text: String, _ range: ClosedRange<Int128>, _ expected: IntegerReading) {
            (self.text, self.range, self.expected) = (text, range, expected)
        }

        var testDescription: String { "\(text) in \(range)" }
    }

    private static func exact(_ value: Int128) -> IntegerReading { .value(value, truncated: false) }
    private static func truncated(_ value: Int128) -> IntegerReading { .value(value, truncated: true) }

    static let widthBoundaries: [IntegerCase] = [
        IntegerCase("-128", Ranges.int8, exact(-128)),
        IntegerCase("127", Ranges.int8, exact(127)),
        IntegerCase("128", Ranges.int8, .outOfRange),
        IntegerCase("-129", Ranges.int8, .outOfRange),
        IntegerCase("-32768", Ranges.int16, exact(-32768)),
        IntegerCase("32767", Ranges.int16, exact(32767)),
        IntegerCase("32768", Ranges.int16, .outOfRange),
        IntegerCase("-2147483648", Ranges.int32, exact(-2_147_483_648)),
        IntegerCase("2147483648", Ranges.int32, .outOfRange),
        IntegerCase("-9223372036854775808", Ranges.int64, exact(Int128(Int64.min))),
        IntegerCase("-9223372036854775809", Ranges.int64, .outOfRange),
        IntegerCase("9223372036854775807", Ranges.int64, exact(Int128(Int64.max))),
        IntegerCase("9223372036854775808", Ranges.int64, .outOfRange),
        IntegerCase("9007199254740993", Ranges.int64, exact(9_007_199_254_740_993)),
        IntegerCase("255", Ranges.uint8, exact(255)),
        IntegerCase("256", Ranges.uint8, .outOfRange),
        IntegerCase("-1", Ranges.uint8, .outOfRange),
        IntegerCase("65535", Ranges.uint16, exact(65535)),
        IntegerCase("65536", Ranges.uint16, .outOfRange),
        IntegerCase("4294967295", Ranges.uint32, exact(4_294_967_295)),
        IntegerCase("4294967296", Ranges.uint32, .outOfRange),
        IntegerCase("18446744073709551615", Ranges.uint64, exact(Int128(UInt64.max))),
        IntegerCase("18446744073709551616", Ranges.uint64, .outOfRange),
        IntegerCase("1.8446744073709551615e19", Ranges.uint64, exact(Int128(UInt64.max))),
        IntegerCase("18446744073709551615.999", Ranges.uint64, truncated(Int128(UInt64.max))),
        // Int128 itself, and 39-digit values beyond it and beyond UInt128
        IntegerCase("170141183460469231731687303715884105727", Ranges.int128, exact(.max)),
        IntegerCase("170141183460469231731687303715884105728", Ranges.int128, .outOfRange),
        IntegerCase("-170141183460469231731687303715884105728", Ranges.int128, exact(.min)),
        IntegerCase("-170141183460469231731687303715884105729", Ranges.int128, .outOfRange),
        IntegerCase("340282366920938463463374607431768211456", Ranges.int128, .outOfRange),
        IntegerCase("999999999999999999999999999999999999999", Ranges.int128, .outOfRange),
        IntegerCase("1e38", Ranges.int128, exact(100_000_000_000_000_000_000_000_000_000_000_000_000)),
        IntegerCase("1e39", Ranges.int128, .outOfRange),
    ]

    @Test(arguments: widthBoundaries)
    func readsIntegerWidthBoundariesExactly(_ question: IntegerCase) {
        #expect(Self.read(question.text, in: question.range) == question.expected)
    }

    static let fractionsAndExponents: [IntegerCase] = [
        IntegerCase("1.5e1", Ranges.int8, exact(15)),
        IntegerCase("12.50e1", Ranges.int8, exact(125)),
        IntegerCase("1.25e1", Ranges.int8, truncated(12)),
        IntegerCase("100e-2", Ranges.int8, exact(1)),
        IntegerCase("150e-2", Ranges.int8, truncated(1)),
        IntegerCase("-1.5", Ranges.int8, truncated(-1)),
        IntegerCase("-0.5", Ranges.int8, truncated(0)),
        IntegerCase("-0.5", Ranges.uint8, truncated(0)),
        IntegerCase("0.000", Ranges.int8, exact(0)),
        IntegerCase("-0", Ranges.int8, exact(0)),
        IntegerCase("-0.0e-5", Ranges.uint8, exact(0)),
        IntegerCase("127.9", Ranges.int8, truncated(127)),
        IntegerCase("-128.9", Ranges.int8, truncated(-128)),
        IntegerCase("128.5", Ranges.int8, .outOfRange),
        IntegerCase("-129.5", Ranges.int8, .outOfRange),
        IntegerCase("255.5", Ranges.uint8, truncated(255)),
        IntegerCase("0e99999999999999999999", Ranges.int8, exact(0)),
        IntegerCase("1e-99999999999999999999", Ranges.int8, truncated(0)),
        IntegerCase("-1e-99999999999999999999", Ranges.uint8, truncated(0)),
        IntegerCase("1e1000000000", Ranges.int128, .outOfRange),
        IntegerCase("-1e1000000000", Ranges.int128, .outOfRange),
        IntegerCase("0.001e3", Ranges.int8, exact(1)),
        IntegerCase("12e0000000000000000000000000000000000000001", Ranges.int8, exact(120)),
        IntegerCase("0.5", 1...10, .outOfRange),
        IntegerCase("0", 1...10, .outOfRange),
        IntegerCase("10.5", 1...10, truncated(10)),
    ]

    @Test(arguments: fractionsAndExponents)
    func truncatesFractionsTowardZeroBeforeCheckingTheRange(_ question: IntegerCase) {
        #expect(Self.read(question.text, in: question.range) == question.expected)
    }

    @Test
    func readsTenThousandDigitTextsByTheirValue() {
        let zeros = String(repeating: "0", count: 9_999)
        let nines = String(repeating: "9", count: 10_000)
        #expect(Self.read("1" + zeros, in: Ranges.int128) == .outOfRange)
        #expect(Self.read("-" + nines, in: Ranges.int128) == .outOfRange)
        #expect(Self.read("0." + zeros + "1", in: 0...10) == .value(0, truncated: true))
        #expect(Self.read("5." + zeros + "0", in: 0...10) == .value(5, truncated: false))
        #expect(Self.read("0." + zeros + "7e10000", in: 0...10) == .value(7, truncated: false))
        #expect(Self.read("1" + zeros + "e-9999", in: 0...10) == .value(1, truncated: false))
        #expect(Self.read("1e" + nines, in: Ranges.int64) == .outOfRange)
        #expect(Self.read("1e-" + nines, in: Ranges.int64) == .value(0, truncated: true))
        #expect(Self.read("0e" + nines, in: Ranges.int64) == .value(0, truncated: false))
    }

    @Test
    func readsRandomIntegersInEverySpellingExactly() {
        var random = NumberFixture.Random(seed: 42)
        for _ in 0..<2_000 {
            let value = Int64(bitPattern: random.next()) >> (random.next() % 63)
            let spellings = Self.spellings(of: value, shift: Int(random.next() % 5))
            for text in spellings {
                let expected = IntegerReading.value(Int128(value), truncated: false)
                #expect(Self.read(text, in: Ranges.int64) == expected, "\(text)")
            }
        }
    }

    // MARK: - Comparison

    @Test(arguments: [
        ("1.0", "1", 0), ("1", "10e-1", 0), ("-0", "0", 0), ("0e5", "-0.0e-7", 0), ("1", "2", -1), ("-1", "-2", 1),
        ("-1", "1", -1), ("0", "-1e-400", 1), ("0", "1e-400", -1), ("1e1000000000", "9e999999999", 1),
        ("0.1", "0.09999999999999999999999", 1), ("123.456", "123.4560001", -1), ("123.4560", "1234.56e-1", 0),
        ("9007199254740993", "9007199254740992", 1), ("-9007199254740993", "-9007199254740992", -1),
        ("1e99999999999999999999999999999999999999", "1e99999999999999999999999999999999999998", 1),
        ("10e99999999999999999999999999999999999998", "1e99999999999999999999999999999999999999", 0),
        ("1e-99999999999999999999999999999999999999", "1e-99999999999999999999999999999999999998", -1),
        ("100e-100000000000000000000000000000000000002", "1e-100000000000000000000000000000000000000", 0),
        ("1e1000000000000000000000000000000000000000", "1e-1000000000000000000000000000000000000000", 1),
        ("-1e1000000000000000000000000000000000000000", "-1e5", -1),
        ("1e1000000000000000000000000000000000000000", "1e100000000000000000000000000000", 1),
        ("1e-1000000000000000000000000000000000000000", "1e-100000000000000000000000000000", -1),
        ("1e1000000000000000000000000000000", "1e999999999999999999999999999999", 1),
        ("0.001e1000000000000000000000000000003", "1e1000000000000000000000000000000", 0),
        ("2e1000000000000000000000000000000", "10e999999999999999999999999999999", 1),
        ("0e1000000000000000000000000000000000000000", "-0e-1000000000000000000000000000000000000000", 0),
    ])
    func comparesByExactValue(_ a: String, _ b: String, _ expected: Int) {
        #expect(Self.compare(a, b) == expected)
        #expect(Self.compare(b, a) == -expected)
    }

    @Test(
        arguments: [
            (
                "1e1500000000000000000000000000000", "1e1000000000000000000000000000000",
                500_000_000_000_000_000_000_000_000_000
            ),
            ("1e1000000000000000000000000000000000000005", "1e1000000000000000000000000000000000000000", 5),
            ("1e-1000000000000000000000000000000000000005", "1e-1000000000000000000000000000000000000000", -5),
            ("1e-1000000000000000000000000000000000000000", "1e-1000000000000000000000000000000000000005", 5),
            ("1e1000000000000000000000000000000", "1e-1", NumberText.Anatomy.exponentLimit),
            ("1e-1000000000000000000000000000000", "1e1", -NumberText.Anatomy.exponentLimit),
            (
                "1e2000000000000000000000000000000", "1e1000000000000000000000000000000",
                NumberText.Anatomy.exponentLimit
            ),
            (
                "1e1999999999999999999999999999999", "1e1000000000000000000000000000000",
                999_999_999_999_999_999_999_999_999_999
            ),
            ("1e5", "1e7", -2), ("1", "1e-0", 0), ("1e-00000000000000000000000000000000000000003", "1e3", -6),
        ] as [(String, String, Int128)])
    func subtractsExponentsOfAnyLengthExactlyUpToTheLimit(_ a: String, _ b: String, _ expected: Int128) {
        let difference = Self.withText(a) { left in
            Self.withText(b) { right in
                NumberText.Anatomy.exponentDifference(NumberText.Anatomy(left), NumberText.Anatomy(right))
            }
        }
        #expect(difference == expected)
    }

    @Test
    func comparesTenThousandDigitTextsByValue() {
        let zeros = String(repeating: "0", count: 10_000)
        #expect(Self.compare("1" + zeros, "1e10000") == 0)
        #expect(Self.compare("1" + zeros + "1", "1e10001") == 1)
        #expect(Self.compare("0." + zeros + "1", "1e-10001") == 0)
        #expect(Self.compare("3." + zeros + "1", "3." + zeros + "2") == -1)
        #expect(Self.compare("1e" + String(repeating: "9", count: 10_000), "1e" + zeros + "9") == 1)
    }

    @Test
    func comparesRandomIntegersInAnySpellingLikeTheirValues() {
        var random = NumberFixture.Random(seed: 7)
        for _ in 0..<2_000 {
            let a = Int64(bitPattern: random.next()) >> (random.next() % 63)
            let b = random.next() % 4 == 0 ? a : Int64(bitPattern: random.next()) >> (random.next() % 63)
            let textA = Self.spellings(of: a, shift: Int(random.next() % 5)).randomElement(using: &random)!
            let textB = Self.spellings(of: b, shift: Int(random.next() % 5)).randomElement(using: &random)!
            let expected = a == b ? 0 : (a < b ? -1 : 1)
            #expect(Self.compare(textA, textB) == expected, "\(textA) vs \(textB)")
        }
    }

    // MARK: - Zero and one

    @Test(arguments: [
        ("0", true, false), ("-0", true, false), ("0.000", true, false), ("0e99999999999999999999", true, false),
        ("1", false, true), ("1.000", false, true), ("0.1e1", false, true), ("100e-2", false, true),
        ("-1", false, false), ("1.0000000000000000000001", false, false), ("10", false, false),
        ("0.1", false, false), ("1e-99999999999999999999", false, false), ("2", false, false),
    ])
    func recognisesExactZeroAndOne(_ text: String, _ zero: Bool, _ one: Bool) {
        #expect(Self.withText(text) { NumberText.isZero($0) } == zero)
        #expect(Self.withText(text) { NumberText.isOne($0) } == one)
    }

    // MARK: - Helpers

    /// The same integer written as digits, with a fraction of zeros, and shifted through an exponent.
    private static func spellings(of value: Int64, shift: Int) -> [String] {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        var texts = [sign + digits, sign + digits + ".000", sign + digits + "e0"]
        texts.append(sign + digits + String(repeating: "0", count: shift) + "e-\(shift)")
        if digits.count > 1 {
            // d.ddd e(count-1)
            let head = digits.prefix(1)
            let tail = digits.dropFirst()
            texts.append(sign + head + "." + tail + "e+\(digits.count - 1)")
        }
        return texts
    }
}

extension NumberTextTests {
    /// The one-pass reading agrees with its definition: canonical digits (`isCanonicalInteger`) of at most 18
    /// digits, read as their value; nil for everything else, "-0", leading zeros and 19 digits included.
    @Test(arguments: [
        "0", "-0", "7", "-7", "10", "00", "01", "-01", "1.0", "1e3", "-", "", "12a", " 1", "+1",
        "999999999999999999", "-999999999999999999", "1000000000000000000", "-1000000000000000000",
        "123456789012345678", "3952070245142421", "9223372036854775807",
    ])
    func canonicalIntegerReadsExactlyTheCanonicalDigits(_ text: String) {
        #expect(Self.withText(text) { TypeCoercion.canonicalInteger($0) } == Self.canonicalValue(text), "\(text)")
    }

    /// Every length from 1 to 19 digits, with and without a sign, as digits; and every length that is read (up
    /// to 18) with each digit in turn replaced by a byte next to the digits' range (`/`, `:`) or far from it.
    @Test
    func canonicalIntegerReadsEveryLengthAndRefusesANonDigitAnywhere() {
        var generator = NumberFixture.Random(seed: 0x5EED)
        for length in 1...19 {
            for _ in 0..<20 {
                let digits = (0..<length).map { position in
                    UInt8(ascii: "0")
                        + UInt8(
                            position == 0
                                ? Int.random(in: 1...9, using: &generator)
                                : Int.random(in: 0...9, using: &generator))
                }
                for sign in [[], [UInt8(ascii: "-")]] {
                    let text = String(decoding: sign + digits, as: UTF8.self)
                    #expect(
                        Self.withText(text) { TypeCoercion.canonicalInteger($0) } == Self.canonicalValue(text),
                        "\(text)")
                    for position in digits.indices where length <= 18 {
                        for stray in [UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "a"), 0x80, 0xF9, 0xFF] {
                            var bad = digits
                            bad[position] = stray
                            let badText = sign + bad
                            let value = badText.withUnsafeBytes { TypeCoercion.canonicalInteger($0) }
                            #expect(value == nil, "\(String(decoding: badText, as: UTF8.self))")
                        }
                    }
                }
            }
        }
    }

    /// `canonicalInteger`'s definition: the canonical digits (`isCanonicalInteger`) of at most 18 digits, read as
    /// their value.
    private static func canonicalValue(_ text: String) -> Int64? {
        let digits = text.hasPrefix("-") ? text.count - 1 : text.count
        return Self.withText(text) { TypeCoercion.isCanonicalInteger($0) } && digits <= 18 ? Int64(text) : nil
    }
}

extension NumberTextTests {
    /// The digit counts every number of which each integer type holds.
    @Test func integerBoundsCountTheDigitsEveryNumberFits() {
        let expected: [(BuiltinType, Int, Int)] = [
            (.int8, 2, 2), (.uint8, 2, 0), (.int16, 4, 4), (.uint16, 4, 0), (.int32, 9, 9), (.uint32, 9, 0),
            (.int64, 18, 18), (.uint64, 18, 0),
        ]
        for (type, positive, negative) in expected {
            let bounds = IntegerBounds(type.integerRange!)
            #expect(bounds.positiveDigits == positive && bounds.negativeDigits == negative, "\(type)")
        }
    }

    /// The common-value path's check agrees with reading the value and checking the range, for every integer type,
    /// at the edges of each range and of each digit count, with signs, leading zeros and stray bytes.
    @Test func canonicalIntegerWithinBoundsAgreesWithReadingTheValue() {
        var texts = [
            "0", "-0", "00", "01", "-", "", "+1", "1a", " 1", "1.0", "999999999999999999",
            "-999999999999999999", "1000000000000000000", "9223372036854775807", "18446744073709551615",
        ]
        for digits in 1...19 {
            let nines = String(repeating: "9", count: digits)
            let power = "1" + String(repeating: "0", count: digits - 1)
            texts += [nines, "-" + nines, power, "-" + power]
        }
        for edge in [
            Int64(Int8.min), Int64(Int8.max), Int64(UInt8.max), Int64(Int16.min), Int64(Int16.max),
            Int64(UInt16.max), Int64(Int32.min), Int64(Int32.max), Int64(UInt32.max),
        ] {
            texts += [String(edge - 1), String(edge), String(edge + 1)]
        }
        for type in [BuiltinType.int8, .uint8, .int16, .uint16, .int32, .uint32, .int64, .uint64] {
            let range = type.integerRange!
            let bounds = IntegerBounds(range)
            for text in texts {
                let expected =
                    Self.withText(text) { TypeCoercion.canonicalInteger($0) }.map { range.contains(Int128($0)) }
                    ?? false
                #expect(
                    Self.withText(text) { TypeCoercion.isCanonicalInteger($0, within: bounds) } == expected,
                    "\(text) as \(type)")
            }
        }
    }
}
