// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// `Converter.writeCommonValue` must write exactly what the general conversion writes and record exactly what it
/// records (nothing, or for an integer sent as a string its `coerced` warning): every input here is converted with
/// the shortcut and without it, in both output forms and both modes, with and without kept entries, and the
/// bodies, statuses and report entries (messages included) must be identical.
struct CommonValueShortcutTests {
    static let schema = ConversionFixture.snapshot([
        """
        {"name": "Everything", "properties": {
          "text": "string", "flag": "bool", "tiny": "int8", "small": "uint8", "count": "int32",
          "big": "int64", "huge": "uint64", "ratio": "double", "link": "url", "when": "date",
          "day": {"type": "date", "dateFormat": "dd/MM/yyyy"},
          "epoch": {"type": "date", "dateFormat": {"input": [], "output": "epoch"}},
          "short": {"type": "string", "maxLength": 3},
          "needed": {"type": "string", "required": true, "key": "need"},
          "renamed": {"type": "int32", "key": ["n1", "n2"]},
          "deep": {"type": "string", "key": "a.b"},
          "child": "Everything", "list": {"type": "array", "of": "int32"},
          "textOr": {"type": "string", "default": "d"}, "linkOr": {"type": "url", "default": "http://d/"},
          "whenOr": {"type": "date", "default": "2015-09-04T00:12:21Z"}
        }}
        """
    ])

    /// Values chosen at the edges of each shortcut: escapes, non-canonical and out-of-range numbers, null,
    /// null spellings, URLs the quick check must refuse, dates that are invalid or lose digits.
    static let values: [String] = [
        #""abc""#, #""a\"b""#, #""\u00e9\u0000""#, #""""#, #"" ""#, #""123""#, #""yes""#, #""null""#,
        "0", "-0", "1", "-1", "1.0", "1e2", "0.5", "-128", "-129", "127", "128", "255", "256",
        "2147483647", "2147483648", "123456789012345678", "-123456789012345678", "1234567890123456789",
        "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
        "true", "false", "null", "[1]", "{}", #"{"text":"x","need":"y"}"#,
        #""http://a/b""#, #""HTTPS://EXAMPLE.com/x?y#z""#, #""http://a:80/""#, #""http://a:b/""#,
        #""http://a#b#c""#, #""http://a b""#, #""https://""#, #""http://a%20b/""#, #""http:\/\/a\/b""#,
        #""ftp://x""#, #"" http://a/""#, #""http://user@host/""#, #""http://[::1]/""#,
        #""2015-09-04T00:12:21Z""#, #""2015-09-04""#, #""Fri Sep 04 00:12:21 +0800 2015""#,
        #""2015-02-30T00:00:00Z""#, #""2015-09-04T00:12:21.1234567Z""#, #""2015-09-04T00:12:21.5+01:00""#,
        #""0001-01-01T00:00:00Z""#, #""9999-12-31T23:59:59-01:00""#, #""04/09/2015""#, "1441296741",
        // Dates already in the written form are copied: these differ from it by one byte or are invalid.
        #""2016-07-03t10:22:47Z""#, #""2016-07-03T10:22:47z""#, #""2016-07-03 10:22:47Z""#, #""2016-02-29T23:59:59Z""#,
        #""2015-02-29T00:00:00Z""#, #""2016-07-03T24:00:00Z""#, #""2016-07-03T10:60:00Z""#, #""2016-07-03T10:22:60Z""#,
        #""0000-01-01T00:00:00Z""#, #""9999-12-31T23:59:59Z""#, #""2016-07-03T10:22:47.000Z""#,
        // Integers sent as strings, which the shortcut writes with their `coerced` warning: canonical or not, in
        // and out of each type's range, escaped, padded, signed.
        #""0""#, #""-0""#, #""007""#, #""-5""#, #""127""#, #""-128""#, #""128""#, #""-129""#, #""255""#,
        #""4294967296""#, #""9223372036854775807""#, #""-9223372036854775808""#, #""123456789012345678""#,
        #""18446744073709551615""#, #""18446744073709551616""#, #""1\u0032""#, #"" 12""#, #""12 ""#, #""+1""#,
        #""1.0""#, #""1e2""#, #""-""#, #""١٢""#,
    ]

    static let keys = [
        "text", "flag", "tiny", "small", "count", "big", "huge", "ratio", "link", "when", "day",
        "epoch", "short", "need", "n1", "n2", "child", "list", "textOr", "linkOr", "whenOr",
    ]

    @Test func everyValueConvertsTheSameBothWays() {
        for key in Self.keys {
            for value in Self.values {
                expectSame(#"{"need":"x","\#(key)":\#(value)}"#)
            }
        }
    }

    /// Each value alone, so that the required property (`need`) meets it too (above, `need` comes twice).
    @Test func everyValueOfTheRequiredPropertyConvertsTheSameBothWays() {
        for value in Self.values {
            expectSame(#"{"need":\#(value)}"#)
            expectSame(#"{"text":null,"need":\#(value),"link":null}"#)
        }
    }

    @Test func mixedObjectsConvertTheSameBothWays() {
        var random = NumberFixture.Random(seed: 20_151_004)
        for _ in 0..<400 {
            var members: [String] = []
            for key in Self.keys where random.next() % 3 != 0 {
                members.append(#""\#(key)":\#(Self.values[Int(random.next() % UInt64(Self.values.count))])"#)
            }
            if random.next() % 4 == 0 { members.append(#""a":{"b":"deep"}"#) }
            if random.next() % 8 == 0, let first = members.first { members.append(first) }  // a repeated key
            expectSame("{" + members.joined(separator: ",") + "}")
        }
    }

    @Test func benchmarkWorkloadShapesConvertTheSameBothWays() {
        expectSame(
            #"{"need":"n","text":"t","when":"2011-01-25T18:44:36Z","link":"https://api.github.com/users/x","#
                + #""count":12,"flag":false,"child":{"need":"c","big":-5,"list":[1,"2",null]},"n2":"7"}"#)
    }

    private func expectSame(_ input: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .success(let snapshot) = Self.schema else {
            Issue.record("the schema did not load: \(Self.schema)", sourceLocation: sourceLocation)
            return
        }
        for output in [ConversionOptions.Form.model, .wire] {
            for mode in [ConversionOptions.Mode.lax, .strict] {
                for keepsEntries in [true, false] {
                    let fast = convert(
                        snapshot, input, output: output, mode: mode, keepsEntries: keepsEntries,
                        shortcuts: true)
                    let slow = convert(
                        snapshot, input, output: output, mode: mode, keepsEntries: keepsEntries,
                        shortcuts: false)
                    #expect(
                        fast == slow, "\(input) as \(output), \(mode), keepsEntries \(keepsEntries)",
                        sourceLocation: sourceLocation)
                }
            }
        }
    }

    private func convert(
        _ snapshot: RegistrySnapshot, _ input: String, output: ConversionOptions.Form,
        mode: ConversionOptions.Mode, keepsEntries: Bool, shortcuts: Bool
    ) -> String {
        var options = ConversionOptions()
        options.output = output
        options.mode = mode
        options.keepsEntries = keepsEntries  // off, as the server's: a success keeps the count and codes only
        options.commonValueShortcuts = shortcuts
        let bytes = Array(input.utf8)
        switch bytes.withUnsafeBytes({ body in
            Result { () throws(MappingError) in try snapshot.convert(body, model: "Everything", options: options) }
        }) {
        case .success(let converted):
            return "200 \(String(decoding: converted.body, as: UTF8.self)) \(converted.warnings) "
                + "\(converted.diagnosticCodes) \(converted.diagnostics)"
        case .failure(.validationFailed(let report)):
            return "422 \(String(decoding: report.result, as: UTF8.self)) \(report.entries)"
        case .failure(let error):
            return "\(error.status) \(error.code)"
        }
    }
}
