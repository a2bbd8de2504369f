// SPDX-License-Identifier: Apache-2.0
import MapperCore
import Testing

/// A model's `rules` (docs/rules.md): compiled at registration, evaluated on `self` (the converted object) and
/// `input` at every depth, inherited as `validate` is, failing with `rule_failed` at the rule's path.
@Suite struct SchemaRulesTests {
    static let registry = ConversionFixture.snapshot([
        #"{"name":"Span","properties":{"start":"date","end":"date","n":"int32","label":"string"},"#
            + #""rules":[{"rule":"!has(self.start) || !has(self.end) || self.start <= self.end","message":"start must not be after end","path":"/end"},"#
            + #"{"rule":"!has(self.n) || self.n < 10","message":"n must be below 10","path":"/n"},"#
            + #"{"rule":"input.label == self.label || !has(input.label)","message":"label is kept"}]}"#,
        #"{"name":"Trip","properties":{"name":"string","legs":{"type":"array","of":"Span"},"first":"Span"}}"#,
        #"{"name":"Child","extends":"Span","properties":{}}"#,
        #"{"name":"Off","extends":"Span","properties":{},"rules":null}"#,
        #"{"name":"Own","extends":"Span","properties":{},"rules":[{"rule":"size(self) > 1","message":"too few"}]}"#,
        #"{"name":"Boom","properties":{"a":"int64","b":{"type":"int64","key":"bee"}},"#
            + #""rules":[{"rule":"self.a + self.b > 0","message":"sum must be positive"},"#
            + #"{"rule":"self.a / self.b != 0","message":"unused"},"#
            + #"{"rule":"[1, 2, 3].all(x, [1, 2, 3].all(y, [1, 2, 3].all(z, self.a * 0 == 0)))","message":"m"}]}"#,
    ])

    @Test(
        arguments: [
            (#"{"start":"2020-01-01T00:00:00Z","end":"2020-02-01T00:00:00Z","n":3}"#, 200, [String]()),
            (#"{"start":"2020-03-01T00:00:00Z","end":"2020-02-01T00:00:00Z"}"#, 422, ["!/end rule_failed"]),
            (#"{"start":"2020-01-01T00:00:00Z","end":"2020-02-01T00:00:00Z","n":30}"#, 422, ["!/n rule_failed"]),
            (#"{"end":"2020-02-01T00:00:00Z"}"#, 200, []),
            (#"{"start":"2020-01-01T00:00:00Z","end":"2020-02-01T00:00:00Z","label":"x"}"#, 200, []),
        ] as [(String, Int, [String])])
    func rulesJudgeTheConvertedObject(_ input: String, _ status: Int, _ entries: [String]) {
        let produced = Self.registry.produce("Span", input)
        #expect(produced.status == status && produced.entries == entries, "\(produced)")
    }

    @Test func aFailedRuleCarriesItsMessage() throws {
        let snapshot = try Self.registry.get()
        let result = snapshot.convertBothWays(
            Array(#"{"start":"2020-03-01T00:00:00Z","end":"2020-02-01T00:00:00Z"}"#.utf8),
            model: "Span", options: ConversionOptions())
        guard case .failure(.validationFailed(let report)) = result else {
            Issue.record("expected a failed validation")
            return
        }
        #expect(report.entries.map(\.message) == ["start must not be after end"])
    }

    @Test func rulesRunAtEveryDepthWithPathsBelowTheObject() {
        let input = #"{"legs":[{"n":1},{"n":11}],"first":{"n":12}}"#
        #expect(Self.registry.produce("Trip", input).entries == ["!/legs/1/n rule_failed", "!/first/n rule_failed"])
    }

    @Test func rulesAreInheritedReplacedOrSwitchedOff() {
        let input = #"{"n":12}"#
        #expect(Self.registry.produce("Child", input).entries == ["!/n rule_failed"])
        #expect(Self.registry.produce("Off", input).entries == [])
        #expect(Self.registry.produce("Own", input).entries == ["! rule_failed"])
    }

    @Test func runTimeErrorsAndTheBudgetAreRuleFailures() throws {
        let snapshot = try Self.registry.get()
        var options = ConversionOptions()
        let input = Array(#"{"a":9223372036854775807,"bee":1}"#.utf8)
        guard
            case .failure(.validationFailed(let report)) = snapshot.convertBothWays(
                input, model: "Boom", options: options)
        else {
            Issue.record("expected a failed validation")
            return
        }
        #expect(report.entries.map(\.message) == ["integer overflow"])
        options.maxRuleSteps = 100
        guard
            case .failure(.validationFailed(let limited)) = snapshot.convertBothWays(
                Array(#"{"a":1,"bee":1}"#.utf8), model: "Boom", options: options)
        else {
            Issue.record("expected a failed validation")
            return
        }
        #expect(limited.entries.map(\.message) == ["cost budget exceeded"])
    }

    @Test(arguments: [
        (#"{"rule":"self.a +","message":"m"}"#, "/models/0/rules/0/rule", "at column 9"),
        (
            #"{"rule":"self.a + nope","message":"m"}"#, "/models/0/rules/0/rule",
            "undeclared reference to 'nope' at column 10"
        ),
        (#"{"rule":"'x' + 1","message":"m"}"#, "/models/0/rules/0/rule", "column 5"),
        (#"{"rule":"1 + 1","message":"m"}"#, "/models/0/rules/0/rule", "a rule must be a bool expression, not int"),
        (#"{"rule":"true"}"#, "/models/0/rules/0", "a rule needs \"message\""),
        (#"{"rule":"true","message":"m","when":1}"#, "/models/0/rules/0/when", "unknown rule member \"when\""),
        (#"{"rule":"true","message":"m","path":"end"}"#, "/models/0/rules/0/path", "path must be a JSON Pointer"),
        (#"{"rule":"","message":"m"}"#, "/models/0/rules/0/rule", "rule must be a non-empty string"),
    ])
    func badRulesAreSchemaProblemsWithPointerAndColumn(_ rule: String, _ pointer: String, _ message: String) {
        let result = ConversionFixture.snapshot([#"{"name":"Bad","properties":{"a":"int32"},"rules":["# + rule + "]}"])
        guard case .failure(let error) = result else {
            Issue.record("expected \(rule) to be refused")
            return
        }
        #expect(error.problems.contains { $0.path == pointer && $0.message.contains(message) }, "\(error.problems)")
    }

    @Test func anEmptyRuleListIsAllowed() {
        #expect(
            ConversionFixture.snapshot([#"{"name":"E","properties":{"a":"int32"},"rules":[]}"#]).produce("E", "{}")
                .status == 200)
    }
}
