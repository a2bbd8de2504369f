// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// The coercion matrix of docs/coercion-rules.md ("Numbers in strings", "The matrix"), case by case: every
/// target type against JSON numbers, number strings, the YYModel true/false/null spellings, booleans, `null`,
/// arrays and objects — YYModel's own automatic-type-conversion tests carried over to schemas. Each target is a
/// one-property model `T_<type>` with the property `v`.
struct CoercionMatrixTests {
    static let models =
        [
            "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float", "double",
            "string", "number", "decimal", "date", "url", "data", "any",
        ].map { "{\"name\":\"T_\($0)\",\"properties\":{\"v\":\"\($0)\"}}" } + [
            "{\"name\":\"T_data_base64\",\"properties\":{\"v\":{\"type\":\"data\",\"encoding\":\"base64\"}}}"
        ]
    static let registry = ConversionFixture.snapshot(models)

    @Test(arguments: CoercionCase.all)
    func convertsAsTheMatrixSays(_ item: CoercionCase) {
        let produced = Self.registry.produce(item.model, "{\"v\":\(item.input)}")
        #expect(produced == Produced(status: 200, output: item.expectedObject, entries: item.entries))
    }

    @Test(arguments: CoercionCase.all)
    func strictModeReportsTheSameEntriesAsErrors(_ item: CoercionCase) {
        let produced = Self.registry.produce(item.model, "{\"v\":\(item.input)}", mode: .strict)
        let status = item.entries.isEmpty ? 200 : 422
        #expect(
            produced == Produced(status: status, output: item.expectedObject, entries: item.entries.map { "!" + $0 }))
    }

    @Test(arguments: CoercionCase.all)
    func writesTheSameBytesInWireForm(_ item: CoercionCase) {
        let produced = Self.registry.produce(item.model, "{\"v\":\(item.input)}", output: .wire)
        #expect(produced.output == item.expectedObject)
    }

    @Test
    func theMatrixCoversEveryTargetType() {
        let covered = Set(CoercionCase.all.map(\.type))
        #expect(covered == Set(Self.models.map { String($0.split(separator: "\"")[3].dropFirst(2)) }))
        #expect(CoercionCase.all.count > 900)
    }
}

/// One cell of the matrix: `{"v": input}` converted as `T_<type>` gives `output` (the property's bytes, `nil`
/// when it is omitted) and `entries`.
struct CoercionCase: Sendable, CustomTestStringConvertible {
    var type: String
    var input: String
    var output: String?
    var entries: [String]

    /// `codes` are report codes at `/v`, or whole `"/path code"` entries.
    init(_ type: String, _ input: String, _ output: String?, _ codes: [String] = []) {
        self.type = type
        self.input = input
        self.output = output
        entries = codes.map { $0.contains(" ") ? $0 : "/v " + $0 }
    }

    var model: String { "T_" + type }
    var expectedObject: String { output.map { "{\"v\":\($0)}" } ?? "{}" }
    var testDescription: String { "\(type) ← \(input)" }
}

// MARK: - Shared inputs

extension CoercionCase {
    static let yesSpellings = ["TRUE", "True", "true", "YES", "Yes", "yes"]
    static let noSpellings = ["FALSE", "False", "false", "NO", "No", "no"]
    static let nullSpellings = [
        "NIL", "Nil", "nil", "NULL", "Null", "null", "(NULL)", "(Null)", "(null)", "<NULL>", "<Null>", "<null>",
    ]
    /// Strings that are neither number text (after trimming) nor a spelling of the table.
    static let nonNumbers = [
        "+5", "007", ".5", "5.", "0x1A", "12abc", "1,5", "NaN", "inf", "-inf", "Infinity", "", "abc", " ", "1 2", "- 1",
        "1e", "1e+", "--1", "-", "0.", "1.e3", "١", "tRUE", "yES", " true", "true ", "nulL", "(nil)", "<nil>", "y",
        "on",
    ]
    /// Number-like strings spelled with escapes: no-break space, vertical tab and NUL are not JSON whitespace.
    static let escapedNonNumbers = ["\\u00a042", "\\u000b42", "42\\u0000", "\\u0034\\u0032\\u0078"]
    /// Kinds no scalar target accepts.
    static let structures = ["[]", "[1]", "[null]", "{}", "{\"a\":1}"]

    static func quoted(_ text: String) -> String { "\"" + text + "\"" }

    static let all: [CoercionCase] =
        bools + integers + floats + numbers + decimals + strings + dates + urls + datas + anys + longTexts

    /// Number texts far longer than any type's digits: read in time linear in their length, never through a float.
    static let longTexts: [CoercionCase] = {
        let big = "1" + String(repeating: "0", count: 400)
        let tiny = "0." + String(repeating: "0", count: 400) + "1"
        let long = "1." + String(repeating: "0", count: 400) + "1"
        return [
            CoercionCase("int64", big, "0", ["out_of_range"]), CoercionCase("uint8", tiny, "0", ["fraction_truncated"]),
            CoercionCase("int32", long, "1", ["fraction_truncated"]),
            CoercionCase("int32", quoted(long), "1", ["coerced"]),
            CoercionCase("double", big, "0", ["out_of_range"]), CoercionCase("float", big, "0", ["out_of_range"]),
            CoercionCase("double", tiny, "0", ["precision_lost"]),
            CoercionCase("double", long, "1", ["precision_lost"]),
            CoercionCase("float", long, "1", ["precision_lost"]),
            CoercionCase("bool", tiny, "true", ["coerced"]), CoercionCase("bool", long, "true", ["coerced"]),
            CoercionCase("decimal", big, "1e+400"), CoercionCase("decimal", long, nil, ["out_of_range"]),
            CoercionCase("number", big, big), CoercionCase("string", tiny, quoted(tiny), ["coerced"]),
            CoercionCase("any", "[\(big)]", "[\(big)]"), CoercionCase("date", big, nil, ["invalid_date"]),
        ]
    }()
}

// MARK: - bool

extension CoercionCase {
    static let bools: [CoercionCase] =
        [
            CoercionCase("bool", "0", "false"), CoercionCase("bool", "1", "true"), CoercionCase("bool", "-0", "false"),
            CoercionCase("bool", "0.0", "false"), CoercionCase("bool", "1.0", "true"),
            CoercionCase("bool", "1e0", "true"),
            CoercionCase("bool", "10e-1", "true"), CoercionCase("bool", "0e1000000000", "false"),
            CoercionCase("bool", "2", "true", ["coerced"]), CoercionCase("bool", "-1", "true", ["coerced"]),
            CoercionCase("bool", "0.5", "true", ["coerced"]), CoercionCase("bool", "1e3", "true", ["coerced"]),
            CoercionCase("bool", "1e-400", "true", ["coerced"]),
            CoercionCase("bool", "1e1000000000", "true", ["coerced"]),
            CoercionCase("bool", "1.0000000000000000000001", "true", ["coerced"]),
            CoercionCase("bool", "true", "true"), CoercionCase("bool", "false", "false"),
            CoercionCase("bool", quoted("42"), "true", ["coerced"]),
            CoercionCase("bool", quoted("0"), "false", ["coerced"]),
            CoercionCase("bool", quoted("1"), "true", ["coerced"]),
            CoercionCase("bool", quoted("  42 "), "true", ["coerced"]),
            CoercionCase("bool", quoted("\\t1\\r\\n"), "true", ["coerced"]),
            CoercionCase("bool", quoted("-0"), "false", ["coerced"]),
            CoercionCase("bool", quoted("0.0"), "false", ["coerced"]),
            CoercionCase("bool", quoted("1e3"), "true", ["coerced"]),
            CoercionCase("bool", "null", "false", ["null_to_default"]),
            CoercionCase("bool", quoted("\\u0074rue"), "true", ["coerced"]),
        ]
        + yesSpellings.map { CoercionCase("bool", quoted($0), "true", ["coerced"]) }
        + noSpellings.map { CoercionCase("bool", quoted($0), "false", ["coerced"]) }
        + nullSpellings.map { CoercionCase("bool", quoted($0), "false", ["null_to_default"]) }
        + (nonNumbers + escapedNonNumbers).map { CoercionCase("bool", quoted($0), "false", ["not_a_number"]) }
        + structures.map { CoercionCase("bool", $0, "false", ["wrong_type"]) }
}

// MARK: - Integer types

extension CoercionCase {
    enum Reading: Sendable { case exact, truncated, coerced }

    static let integerRanges: [(String, ClosedRange<Int128>)] = [
        ("int8", -128...127), ("uint8", 0...255), ("int16", -32_768...32_767), ("uint16", 0...65_535),
        ("int32", -2_147_483_648...2_147_483_647), ("uint32", 0...4_294_967_295),
        ("int64", -9_223_372_036_854_775_808...9_223_372_036_854_775_807), ("uint64", 0...18_446_744_073_709_551_615),
    ]

    /// JSON input, its value after truncation toward zero (`nil`: beyond every integer type), how it was read.
    static let integerInputs: [(String, Int128?, Reading)] = {
        var rows: [(String, Int128?, Reading)] = [
            ("0", 0, .exact), ("-0", 0, .exact), ("1", 1, .exact), ("-1", -1, .exact), ("42", 42, .exact),
            ("1.0", 1, .exact), ("1.50", 1, .truncated), ("3.7", 3, .truncated), ("-3.7", -3, .truncated),
            ("0.5", 0, .truncated), ("-0.5", 0, .truncated), ("-0.99", 0, .truncated), ("1e3", 1000, .exact),
            ("1E3", 1000, .exact), ("1e+2", 100, .exact), ("12e-1", 1, .truncated), ("100e-2", 1, .exact),
            ("1e-400", 0, .truncated), ("0e1000000000", 0, .exact), ("1e1000000000", nil, .exact),
            ("-1e1000000000", nil, .exact), ("1e-1000000000", 0, .truncated), ("127.9", 127, .truncated),
            ("128.5", 128, .truncated), ("-128.9", -128, .truncated), ("255.99", 255, .truncated),
            ("9007199254740993", 9_007_199_254_740_993, .exact),
            ("12345678901234567890", 12_345_678_901_234_567_890, .exact),
            ("123456789012345678901234567890", nil, .exact), ("0.000000000000000000000000000001e30", 1, .exact),
            (quoted("42"), 42, .coerced), (quoted("  42 "), 42, .coerced), (quoted("\\n-7\\t"), -7, .coerced),
            (quoted("1e3"), 1000, .coerced), (quoted("3.7"), 3, .coerced), (quoted("300"), 300, .coerced),
            (quoted("-1"), -1, .coerced), (quoted("1e1000000000"), nil, .coerced),
            (quoted("18446744073709551616"), 18_446_744_073_709_551_616, .coerced),
            (quoted("\\u0034\\u0032"), 42, .coerced),
        ]
        for (_, range) in integerRanges {
            for value in [range.lowerBound - 1, range.lowerBound, range.upperBound, range.upperBound + 1] {
                rows.append((String(value), value, .exact))
            }
        }
        return rows
    }()

    static let integers: [CoercionCase] = integerRanges.flatMap { type, range in
        integerInputs.map { input, value, reading in
            guard let value, range.contains(value) else { return CoercionCase(type, input, "0", ["out_of_range"]) }
            switch reading {
            case .exact: return CoercionCase(type, input, String(value))
            case .truncated: return CoercionCase(type, input, String(value), ["fraction_truncated"])
            case .coerced: return CoercionCase(type, input, String(value), ["coerced"])
            }
        } + numericCommon(type, one: "1", zero: "0")
    }

    /// Inputs every numeric type other than `bool` treats alike.
    static func numericCommon(_ type: String, one: String, zero: String) -> [CoercionCase] {
        [
            CoercionCase(type, "true", one, ["coerced"]), CoercionCase(type, "false", zero, ["coerced"]),
            CoercionCase(type, "null", zero, ["null_to_default"]),
        ]
            + yesSpellings.map { CoercionCase(type, quoted($0), one, ["coerced"]) }
            + noSpellings.map { CoercionCase(type, quoted($0), zero, ["coerced"]) }
            + nullSpellings.map { CoercionCase(type, quoted($0), zero, ["null_to_default"]) }
            + (nonNumbers + escapedNonNumbers).map { CoercionCase(type, quoted($0), zero, ["not_a_number"]) }
            + structures.map { CoercionCase(type, $0, zero, ["wrong_type"]) }
    }
}

// MARK: - float, double

extension CoercionCase {
    /// JSON input, `float` output, `double` output (`nil`: rounds to ±infinity, so `out_of_range`).
    static let floatInputs: [(String, String?, String?)] = [
        ("0", "0", "0"), ("-0", "0", "0"), ("1", "1", "1"), ("-1", "-1", "-1"), ("1.0", "1", "1"),
        ("1.50", "1.5", "1.5"), ("3.7", "3.7", "3.7"), ("-3.7", "-3.7", "-3.7"), ("0.1", "0.1", "0.1"),
        ("1e3", "1000", "1000"), ("1E+3", "1000", "1000"), ("123e-2", "1.23", "1.23"),
        ("16777217", "16777216", "16777217"), ("9007199254740993", "9007199000000000", "9007199254740992"),
        ("12345678901234567890", "12345679000000000000", "12345678901234567000"),
        ("1e20", "100000000000000000000", "100000000000000000000"), ("1e21", "1e+21", "1e+21"),
        ("-1e21", "-1e+21", "-1e+21"), ("0.000001", "0.000001", "0.000001"), ("1e-7", "1e-7", "1e-7"),
        ("1.5e-7", "1.5e-7", "1.5e-7"), ("0.30000000000000004", "0.3", "0.30000000000000004"),
        ("3.4028235e38", "3.4028235e+38", "3.4028235e+38"), ("3.4028236e38", nil, "3.4028236e+38"),
        ("-3.5e38", nil, "-3.5e+38"), ("1e-45", "1e-45", "1e-45"), ("1e-50", "0", "1e-50"), ("5e-324", "0", "5e-324"),
        ("1e-400", "0", "0"), ("-1e-400", "0", "0"), ("1.7976931348623157e308", nil, "1.7976931348623157e+308"),
        ("1e309", nil, nil), ("-1e309", nil, nil), ("1e1000000000", nil, nil), ("1e-1000000000", "0", "0"),
    ]

    /// Inputs whose written `float` / `double` differs numerically from the input (`precision_lost`, kept).
    static let lossyAsFloat: Set<String> = [
        "16777217", "9007199254740993", "12345678901234567890", "0.30000000000000004", "1e-50", "5e-324", "1e-400",
        "-1e-400", "1e-1000000000",
    ]
    static let lossyAsDouble: Set<String> = [
        "9007199254740993", "12345678901234567890", "1e-400", "-1e-400", "1e-1000000000",
    ]

    static func floatEntries(_ written: String?, lossy: Bool) -> [String] {
        written == nil ? ["out_of_range"] : lossy ? ["precision_lost"] : []
    }

    static let floats: [CoercionCase] =
        floatInputs.flatMap { input, float, double in
            [
                CoercionCase("float", input, float ?? "0", floatEntries(float, lossy: lossyAsFloat.contains(input))),
                CoercionCase(
                    "double", input, double ?? "0", floatEntries(double, lossy: lossyAsDouble.contains(input))),
            ]
        } + [
            CoercionCase("float", quoted("16777217"), "16777216", ["coerced", "precision_lost"]),
            CoercionCase("double", quoted(" 1e-400"), "0", ["coerced", "precision_lost"]),
            CoercionCase("float", quoted("0.1"), "0.1", ["coerced"]),
            CoercionCase("float", quoted("  1.5 "), "1.5", ["coerced"]),
            CoercionCase("double", quoted("  1.5 "), "1.5", ["coerced"]),
            CoercionCase("float", quoted("-3.7"), "-3.7", ["coerced"]),
            CoercionCase("double", quoted("-3.7"), "-3.7", ["coerced"]),
            CoercionCase("float", quoted("1e3"), "1000", ["coerced"]),
            CoercionCase("double", quoted("1e3"), "1000", ["coerced"]),
            CoercionCase("float", quoted("0.1"), "0.1", ["coerced"]),
            CoercionCase("double", quoted("0.1"), "0.1", ["coerced"]),
            CoercionCase("float", quoted("1e39"), "0", ["out_of_range"]),
            CoercionCase("double", quoted("1e39"), "1e+39", ["coerced"]),
            CoercionCase("double", quoted("1e309"), "0", ["out_of_range"]),
        ] + numericCommon("float", one: "1", zero: "0") + numericCommon("double", one: "1", zero: "0")
}

// MARK: - number, decimal, string

extension CoercionCase {
    static let numbers: [CoercionCase] =
        [
            "0", "-0", "1.50", "1e3", "1E+3", "12345678901234567890", "1e1000000000", "0.1", "-3.7e-5", "123456789.000",
        ].map { CoercionCase("number", $0, $0) } + [
            CoercionCase("number", "true", "true"), CoercionCase("number", "false", "false"),
            CoercionCase("number", "null", nil),
            CoercionCase("number", quoted("42"), "42", ["coerced"]),
            CoercionCase("number", quoted("  42 "), "42", ["coerced"]),
            CoercionCase("number", quoted("\\t-1.5e3\\n"), "-1.5e3", ["coerced"]),
            CoercionCase("number", quoted("1e3"), "1e3", ["coerced"]),
            CoercionCase("number", quoted("1.50"), "1.50", ["coerced"]),
            CoercionCase("number", quoted("-0"), "-0", ["coerced"]),
        ]
        + yesSpellings.map { CoercionCase("number", quoted($0), "true", ["coerced"]) }
        + noSpellings.map { CoercionCase("number", quoted($0), "false", ["coerced"]) }
        + nullSpellings.map { CoercionCase("number", quoted($0), nil) }
        + nonNumbers.map { CoercionCase("number", quoted($0), nil, ["not_a_number"]) }
        + structures.map { CoercionCase("number", $0, nil, ["wrong_type"]) }

    static let digits38 = "12345678901234567890123456789012345678"

    static let decimals: [CoercionCase] =
        [
            ("0", "0"), ("-0", "0"), ("-0.000", "0"), ("1.50", "1.5"), ("1e3", "1000"), ("0.0012", "0.0012"),
            ("-12.5", "-12.5"), ("1200", "1200"), ("0.1", "0.1"), ("1e-7", "0.0000001"), ("123.456e-2", "1.23456"),
            ("100e-2", "1"), ("9007199254740993", "9007199254740993"), (digits38, digits38),
            ("-" + digits38 + "e-38", "-1.2345678901234567890123456789012345678e-1"),
            ("1e39", "1" + String(repeating: "0", count: 39)), ("1e40", "1e+40"), ("1e1000000000", "1e+1000000000"),
            ("12000000000000000000000000000000000000000000000", "1.2e+46"),
            (digits38 + "000", "1.2345678901234567890123456789012345678e+40"), (digits38 + "00", digits38 + "00"),
            ("0." + String(repeating: "0", count: 400) + "1", "1e-401"),
            ("1" + String(repeating: "0", count: 60), "1e+60"),
        ].map { CoercionCase("decimal", $0, $1) } + [
            CoercionCase("decimal", digits38 + "9", nil, ["out_of_range"]),
            CoercionCase("decimal", "1" + String(repeating: "0", count: 37) + "1", nil, ["out_of_range"]),
            CoercionCase("decimal", "0." + digits38 + "1", nil, ["out_of_range"]),
            CoercionCase("decimal", "true", "1", ["coerced"]), CoercionCase("decimal", "false", "0", ["coerced"]),
            CoercionCase("decimal", "null", nil),
            CoercionCase("decimal", quoted("1.50"), "1.5", ["coerced"]),
            CoercionCase("decimal", quoted("  42 "), "42", ["coerced"]),
            CoercionCase("decimal", quoted("1e3"), "1000", ["coerced"]),
            CoercionCase("decimal", quoted("-0"), "0", ["coerced"]),
            CoercionCase("decimal", quoted(digits38 + "9"), nil, ["out_of_range"]),
        ]
        + (yesSpellings + noSpellings + nullSpellings + nonNumbers).map {
            CoercionCase("decimal", quoted($0), nil, ["not_a_number"])
        }
        + structures.map { CoercionCase("decimal", $0, nil, ["wrong_type"]) }

    static let strings: [CoercionCase] =
        [
            "1.50", "12345678901234567890", "-0", "1e3", "0", "1E+400",
        ].map { CoercionCase("string", $0, quoted($0), ["coerced"]) } + [
            CoercionCase("string", "true", quoted("true"), ["coerced"]),
            CoercionCase("string", "false", quoted("false"), ["coerced"]),
            CoercionCase("string", "null", nil),
            CoercionCase("string", quoted("caf\\u00e9"), quoted("café")),
            CoercionCase("string", quoted("\\u0041"), quoted("A")),
            CoercionCase("string", quoted("a\\/b"), quoted("a/b")),
            CoercionCase("string", quoted("\\u0000"), quoted("\\u0000")),
            CoercionCase("string", quoted("\\u001F\\u001f"), quoted("\\u001f\\u001f")),
            CoercionCase("string", quoted("\\b\\f\\n\\r\\t"), quoted("\\b\\f\\n\\r\\t")),
            CoercionCase("string", quoted("\\u0008\\u000C\\u000a\\u000D\\u0009"), quoted("\\b\\f\\n\\r\\t")),
            CoercionCase("string", quoted("\\u000b"), quoted("\\u000b")),
            CoercionCase("string", quoted("\\u007f\u{7F}"), quoted("\u{7F}\u{7F}")),
            CoercionCase("string", quoted("\\ud83d\\ude00"), quoted("😀")),
            CoercionCase("string", quoted("\\u2028"), quoted("\u{2028}")),
            CoercionCase("string", quoted("\\\"\\\\"), quoted("\\\"\\\\")),
            CoercionCase("string", quoted("é€😀"), quoted("é€😀")),
        ]
        + (yesSpellings + noSpellings + nullSpellings + nonNumbers + ["  42 ", "42", "1e3"]).map {
            CoercionCase("string", quoted($0), quoted($0))
        }
        + structures.map { CoercionCase("string", $0, nil, ["wrong_type"]) }
}

// MARK: - date, url, data, any

extension CoercionCase {
    static let dates: [CoercionCase] =
        [
            ("2015-09-03", "2015-09-03T00:00:00Z"), ("2015-09-03T16:12:21Z", "2015-09-03T16:12:21Z"),
            ("2015-09-03t16:12:21z", "2015-09-03T16:12:21Z"), ("2015-09-03 16:12:21", "2015-09-03T16:12:21Z"),
            ("2015-09-04T00:12:21+08:00", "2015-09-03T16:12:21Z"), ("2015-09-04T00:12:21+0800", "2015-09-03T16:12:21Z"),
            ("2015-09-03T10:12:21-06:00", "2015-09-03T16:12:21Z"),
            ("2015-09-03T16:12:21.5Z", "2015-09-03T16:12:21.500Z"),
            ("2015-09-03T16:12:21.5", "2015-09-03T16:12:21.500Z"), ("2015-09-03T16:12:21.000Z", "2015-09-03T16:12:21Z"),
            ("2015-09-03T16:12:21.12Z", "2015-09-03T16:12:21.120Z"),
            ("2015-09-03T16:12:21.123456Z", "2015-09-03T16:12:21.123456Z"),
            ("2015-09-03T16:12:21.000001Z", "2015-09-03T16:12:21.000001Z"),
            ("Fri Sep 04 00:12:21 +0800 2015", "2015-09-03T16:12:21Z"),
            ("Fri Sep 04 00:12:21.500 +0800 2015", "2015-09-03T16:12:21.500Z"),
            ("Mon Sep 04 00:12:21 +0800 2015", "2015-09-03T16:12:21Z"), ("2016-02-29", "2016-02-29T00:00:00Z"),
            ("2000-02-29", "2000-02-29T00:00:00Z"), ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
            ("9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999Z"),
            ("0001-01-01T00:30:00+00:30", "0001-01-01T00:00:00Z"),
        ].map { CoercionCase("date", quoted($0), quoted($1)) } + [
            CoercionCase(
                "date", quoted("2015-09-03T16:12:21.1234567Z"), quoted("2015-09-03T16:12:21.123456Z"),
                ["fraction_truncated"]),
            CoercionCase(
                "date", quoted("2015-09-03T16:12:21.999999999Z"), quoted("2015-09-03T16:12:21.999999Z"),
                ["fraction_truncated"]),
            CoercionCase("date", "0", quoted("1970-01-01T00:00:00Z"), ["coerced"]),
            CoercionCase("date", "1441296741", quoted("2015-09-03T16:12:21Z"), ["coerced"]),
            CoercionCase("date", "1441296741.5", quoted("2015-09-03T16:12:21.500Z"), ["coerced"]),
            CoercionCase("date", "1.441296741e9", quoted("2015-09-03T16:12:21Z"), ["coerced"]),
            CoercionCase("date", "-1", quoted("1969-12-31T23:59:59Z"), ["coerced"]),
            CoercionCase("date", "253402300799", quoted("9999-12-31T23:59:59Z"), ["coerced"]),
            CoercionCase("date", "253402300800", nil, ["invalid_date"]),
            CoercionCase("date", "-62135596801", nil, ["invalid_date"]),
            CoercionCase("date", "1e1000000000", nil, ["invalid_date"]),
            CoercionCase("date", "null", nil),
        ]
        + [
            "2015-02-29", "1900-02-29", "2015-13-01", "2015-00-10", "2015-04-31", "2015-09-00", "2015-09-03T24:00:00Z",
            "2015-09-03T23:60:00Z", "2015-09-03T23:59:60Z", "0000-01-01", "10000-01-01", "2015-9-3", "2015-09-03T16:12",
            "2015-09-03T16:12:21.", "2015-09-03T16:12:21.1234567890Z", "2015-09-03T16:12:21+24:00",
            "2015-09-03T16:12:21+23:60", "2015-09-03T16:12:21+8:00", "2015-09-03X16:12:21", "  2015-09-03",
            "2015-09-03 ", "9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+00:01", "Fri Sep 04 00:12:21 2015",
            "fri sep 04 00:12:21 +0800 2015", "Fri Sept 04 00:12:21 +0800 2015", "0", "1441296741", "", "now", "null",
            "true",
        ].map { CoercionCase("date", quoted($0), nil, ["invalid_date"]) }
        + (["true", "false"] + structures).map { CoercionCase("date", $0, nil, ["wrong_type"]) }

    static let urls: [CoercionCase] =
        [
            ("https://example.com/a?b=c#d", "https://example.com/a?b=c#d"), ("  http://a.b/c\\n", "http://a.b/c"),
            ("\\thttp://a.b/c \\r", "http://a.b/c"), ("github.com", "github.com"), ("/relative/path", "/relative/path"),
            ("?q=1", "?q=1"), ("#frag", "#frag"), ("mailto:a@b.c", "mailto:a@b.c"),
            ("http://[::1]:80/", "http://[::1]:80/"),
            ("http://a.b/%20x", "http://a.b/%20x"), ("urn:isbn:0451450523", "urn:isbn:0451450523"), ("true", "true"),
            ("(null)", "(null)"), ("http:\\/\\/a.b", "http://a.b"), ("HTTP://A.B/~x", "HTTP://A.B/~x"),
        ].map { CoercionCase("url", quoted($0), quoted($1)) }
        + [
            "http://exa mple.com", "https://例え.jp", "http://a.b/%zz", "http://a.b/%2", "http://a.b/<x>", "a b",
            "http://a.b/\\\\", "http://a.b/\\\"", "http://[::1/", "1:2", "http://a.b/c d", "<null>", "http://a.b/{x}",
            "http://a.b/\\u0000",
        ].map { CoercionCase("url", quoted($0), nil, ["invalid_url"]) } + [
            CoercionCase("url", quoted(""), nil), CoercionCase("url", quoted(" \\t\\n"), nil),
            CoercionCase("url", "null", nil),
        ] + (["42", "true", "false"] + structures).map { CoercionCase("url", $0, nil, ["wrong_type"]) }

    static let datas: [CoercionCase] =
        [
            ("abc", "abc"), ("", ""), ("caf\\u00e9", "café"), ("\\u0000", "\\u0000"), ("null", "null"),
            ("  YWJj ", "  YWJj "),
        ].map { CoercionCase("data", quoted($0), quoted($1)) }
        + [
            ("YWJj", "YWJj"), ("YWI=", "YWI="), ("YWI", "YWI="), ("YQ", "YQ=="), ("YQ==", "YQ=="), ("", ""),
            ("+/+/", "+/+/"),
            ("AAAA", "AAAA"), ("YWJjZA", "YWJjZA=="), ("YWJj\\/w==", "YWJj/w=="),
        ].map { CoercionCase("data_base64", quoted($0), quoted($1)) }
        + [
            "YW Jj", "YWJj\\n", " YWJj", "YW_j", "YW-j", "Y", "YWJjZ", "YWJ=j", "Y===", "YWJj====", "é", "YWJj=",
        ].map { CoercionCase("data_base64", quoted($0), nil, ["invalid_base64"]) }
        + ["data", "data_base64"].flatMap { type in
            [CoercionCase(type, "null", nil)]
                + (["42", "true", "false"] + structures).map { CoercionCase(type, $0, nil, ["wrong_type"]) }
        }

    static let anys: [CoercionCase] =
        [
            ("42", "42"), ("1.50", "1.50"), ("1e3", "1e3"), ("-0", "-0"),
            ("12345678901234567890", "12345678901234567890"),
            ("true", "true"), ("false", "false"), (quoted("caf\\u00e9"), quoted("café")),
            (quoted("\\u00e9\\/\\u001F\\u007f"), quoted("é/\\u001f\u{7F}")), ("[1, 2 ,\"x\"]", "[1,2,\"x\"]"),
            ("[null, 1]", "[null,1]"), ("{ \"b\": 1, \"a\": [ ] }", "{\"b\":1,\"a\":[]}"), ("{}", "{}"), ("[]", "[]"),
            ("{\"x\":{\"y\":[{},{\"z\":null}]}}", "{\"x\":{\"y\":[{},{\"z\":null}]}}"),
            (quoted("null"), quoted("null")),
            ("{\"a\\u0062\":\"\\ud83d\\ude00\"}", "{\"ab\":\"😀\"}"),
        ].map { CoercionCase("any", $0, $1) } + [
            CoercionCase("any", "null", nil),
            CoercionCase("any", "{\"a\":1,\"a\":2}", "{\"a\":2}", ["/v/a duplicate_key"]),
            CoercionCase("any", "{\"a\":1,\"b\":2,\"a\":3}", "{\"a\":3,\"b\":2}", ["/v/a duplicate_key"]),
            CoercionCase("any", "[{\"k\":1,\"\\u006b\":[]}]", "[{\"k\":[]}]", ["/v/0/k duplicate_key"]),
        ]
}
