// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import MapperCore

/// The rule language's semantics beyond what cel-spec's files cover, and its compile errors with positions.
@Suite struct RuleLanguageTests {
    static func evaluate(
        _ source: String, _ variables: [(String, RuleValue)] = [], steps: Int = 10_000,
        size: Int = 1 << 20
    ) throws -> Result<RuleValue, RuleFailure> {
        let program = try RuleProgram.compile(source, variables: variables.map { ($0.0, RuleType.dyn) })
        var budget = RuleBudget(steps: steps, size: size)
        return program.evaluate(variables.map(\.1), budget: &budget)
    }

    static func json(_ source: String, _ variables: [(String, RuleValue)] = []) throws -> String {
        switch try evaluate(source, variables) {
        case .success(let value):
            var out: [UInt8] = []
            try RuleJSON.write(value, into: &out)
            return String(decoding: out, as: UTF8.self)
        case .failure(let failure): return "error: \(failure.message)"
        }
    }

    @Test(arguments: [
        ("9223372036854775807 + 1", "error: integer overflow"),
        ("-9223372036854775808 - 1", "error: integer overflow"),
        ("-9223372036854775808 / -1", "error: integer overflow"),
        ("1 / 0", "error: division by zero"),
        ("1 % 0", "error: modulus by zero"),
        ("0u - 1u", "error: unsigned integer overflow"),
        ("18446744073709551615u", "18446744073709551615"),
        ("7 / 2", "3"), ("-7 % 3", "-1"), ("7.0 / 2.0", "3.5"), ("1.0 / 0.0", "\"Infinity\""),
        ("1 < 1.5 && 2u > 1 && 1.0 == dyn(1)", "true"),
        ("false && (1 / 0 == 1)", "false"), ("(1 / 0 == 1) && false", "false"),
        ("true || (1 / 0 == 1)", "true"), ("(1 / 0 == 1) || true", "true"),
        ("(1 / 0 == 1) || false", "error: division by zero"),
        ("'\\u00e9\\x41\\101\\n'.size()", "4"), ("r'\\n'", "\"\\\\n\""), ("b'\\xff\\000'", "\"/wA=\""),
        ("'''a\nb'''", "\"a\\nb\""),
        ("[1, 2, 3].map(x, x * 2)", "[2,4,6]"), ("[1, 2, 3].filter(x, x > 1)", "[2,3]"),
        ("[1, 2, 3].map(x, x > 1, x * 10)", "[20,30]"),
        ("[1, 2, 3].exists_one(x, x > 2)", "true"), ("[1, 2].all(x, x > 0)", "true"),
        ("[1, 'a'].exists(x, x == 1)", "true"), ("[0, 'a'].all(x, x > 0)", "false"),
        ("[5, 6].all(i, v, v > i)", "true"), ("{'a': 1}.exists(k, v, k == 'a' && v == 1)", "true"),
        ("[3, 4].existsOne(i, v, i == 1)", "true"),
        ("[3, 4].transformList(i, v, i + v)", "[3,5]"), ("{'a': 1}.transformMap(k, v, v * 2)", "{\"a\":2}"),
        ("{'a': {'b': 2}}.a.b", "2"), ("has({'a': 1}.a) && !has({'a': 1}.b)", "true"),
        ("{'a': 1}.b", "error: no such key: b"), ("[1][1]", "error: index out of bounds: 1"),
        ("{1: 'x', 2u: 'y', true: 'z'}", "{\"1\":\"x\",\"2\":\"y\",\"true\":\"z\"}"),
        ("{1: 'x', 1u: 'y'}", "error: Failed with repeated key"),
        ("2 in [1, 2.0] && 'a' in {'a': 1}", "true"),
        ("' \\t hi\\u2003'.trim()", "\"hi\""), ("'AbC'.lowerAscii() + 'é'.upperAscii()", "\"abcé\""),
        ("'a,b,c'.split(',')", "[\"a\",\"b\",\"c\"]"), ("'a,b,c'.split(',', 2)", "[\"a\",\"b,c\"]"),
        ("'abc'.split('')", "[\"a\",\"b\",\"c\"]"), ("['a', 'b'].join('-') + ['c'].join()", "\"a-bc\""),
        ("'aaa'.replace('a', 'b', 2)", "\"bba\""), ("'héllo'.substring(1, 3)", "\"él\""),
        ("'héllo'.substring(4, 2)", "error: invalid substring range. start: 4, end: 2"),
        ("'hello'.indexOf('l') * 10 + 'hello'.lastIndexOf('l')", "23"), ("'hello'.indexOf('l', 4)", "-1"),
        ("'abc'.charAt(1) + 'abc'.charAt(3)", "\"b\""), ("'abc'.charAt(4)", "error: index out of range: 4"),
        ("'abc'.matches('^a.c$') && !'abc'.matches('^b')", "true"), ("matches('x1', '\\\\d')", "true"),
        ("'ab'.contains('b') && 'ab'.startsWith('a') && 'ab'.endsWith('b')", "true"),
        ("int('42') + int(3.9) + int(-3.9)", "42"),
        ("int(1e19)", "error: range error converting 10000000000000000000 to int"),
        ("uint(-1)", "error: range error converting -1 to uint"), ("double('1.5')", "1.5"), ("string(1.5)", "\"1.5\""),
        ("bool('true') && !bool('f')", "true"), ("bytes('a')", "\"YQ==\""),
        ("string(b'\\xff')", "error: invalid UTF-8 in bytes converted to string"),
        ("type(1) == int && type('a') == string && type(type(1)) == type", "true"), ("type(1u)", "\"uint\""),
        ("timestamp('2020-01-01T00:00:00Z') + duration('1h30m')", "\"2020-01-01T01:30:00Z\""),
        ("timestamp('2020-01-01T00:00:00.5Z')", "\"2020-01-01T00:00:00.500Z\""),
        ("timestamp('2020-01-01T00:00:00Z') - timestamp('2019-12-31T23:59:58.5Z')", "\"1.5s\""),
        ("timestamp('2021-03-04T05:06:07Z').getFullYear()", "2021"),
        ("timestamp('2021-03-04T05:06:07Z').getMonth()", "2"),
        ("timestamp('2021-03-04T05:06:07Z').getDayOfMonth()", "3"),
        ("timestamp('2021-03-04T05:06:07Z').getDate()", "4"),
        ("timestamp('2021-03-04T05:06:07Z').getDayOfWeek()", "4"),
        ("timestamp('2021-03-04T05:06:07Z').getDayOfYear()", "62"),
        ("timestamp('2021-03-04T23:06:07Z').getHours('+02:00')", "1"),
        ("timestamp('2021-03-04T05:06:07Z').getMinutes('-00:30')", "36"),
        ("timestamp('2021-03-04T05:06:07Z').getHours('UTC')", "5"),
        (
            "timestamp('2021-03-04T05:06:07Z').getHours('Mars/Olympus')",
            "error: unsupported time zone 'Mars/Olympus': use UTC or a fixed offset such as +05:30"
        ),
        ("duration('90m').getHours()", "1"), ("duration('1.234s').getMilliseconds()", "234"),
        ("timestamp('10000-01-01T00:00:00Z')", "error: cannot parse '10000-01-01T00:00:00Z' as a timestamp"),
        ("dyn(1) == 1.0 && dyn('a') != 1", "true"), ("null == null", "true"),
        ("1 == 1 ? 'yes' : 'no'", "\"yes\""),
    ])
    func evaluatesAsCELDefines(_ source: String, _ expected: String) throws {
        #expect(try Self.json(source) == expected, "\(source)")
    }

    @Test func variablesAreBoundBySlot() throws {
        let user = RuleJSON.value(try JSONValue.parse(Array(#"{"first":"Ada","last":"Lovelace","n":[1,2]}"#.utf8)))
        #expect(try Self.json("self.first + ' ' + self.last", [("self", user)]) == "\"Ada Lovelace\"")
        #expect(try Self.json("self.n.exists(x, x == 2) && size(self.n) == 2", [("self", user)]) == "true")
        #expect(try Self.json("has(self.middle)", [("self", user)]) == "false")
    }

    @Test(arguments: [
        ("1 +", 3, "unexpected the end of the expression"),
        ("x + 1", 0, "undeclared reference to 'x'"),
        ("'a'.foo()", 3, "undeclared reference to function 'foo'"),
        ("1 + 'a'", 2, "no matching overload for '_+_' applied to (int, string)"),
        ("1 == 1u", 2, "no matching overload for '_==_' applied to (int, uint)"),
        ("size(1, 2)", 0, "'size' does not take 2 arguments"),
        ("'abc", 0, "unterminated string"),
        ("'\\q'", 1, "invalid escape sequence '\\q'"),
        ("'a'.matches('(')", 12, "invalid pattern"),
        ("Msg{a: 1}", 0, "message construction (Msg{…}) is not supported"),
        ("if", 0, "reserved word 'if' cannot be used as a name"),
        ("9223372036854775808", 0, "integer literal is out of range"),
        ("[1].all(x, 1)", 11, "the predicate of all() must be bool, not 'int'"),
        ("contains('a', 'b')", 0, "contains() must be called on a value"),
    ])
    func rejectsBadExpressionsAtTheirOffset(_ source: String, _ offset: Int, _ message: String) {
        #expect {
            _ = try RuleProgram.compile(source, variables: [])
        } throws: { error in
            guard let error = error as? RuleSyntaxError else { return false }
            return error.offset == offset && error.message.hasPrefix(message)
        }
    }

    @Test func columnsCountCodePoints() {
        #expect(RuleSyntaxError(offset: 6, message: "").column(in: "'é' + x") == 6)
        #expect(RuleSyntaxError(offset: 0, message: "").column(in: "x") == 1)
    }

    @Test func staticTypesAreInferred() throws {
        #expect(try RuleProgram.compile("1 < 2.5", variables: []).type == .bool)
        #expect(try RuleProgram.compile("'a' + 'b'", variables: []).type == .string)
        #expect(try RuleProgram.compile("x.y", variables: [("x", .dyn)]).type == .dyn)
        #expect(try RuleProgram.compile("[1].map(x, x)", variables: []).type == .list)
    }

    @Test func fieldUseIsRecordedPerVariable() throws {
        let program = try RuleProgram.compile(
            "self.a < self.b && has(self.c)", variables: [("self", .map), ("input", .map)])
        #expect(program.fieldsUsed[0] == .some(["a", "b", "c"]))
        #expect(program.fieldsUsed[1] == nil)
        let whole = try RuleProgram.compile("size(self) > 0 && self.a == 1", variables: [("self", .map)])
        #expect(whole.fieldsUsed[0] == .some(nil))
    }
}
