// SPDX-License-Identifier: Apache-2.0
import MapperCore
import Testing

/// The property members `transform` and `computed` (docs/rules.md, "Transform and computed properties").
@Suite struct PropertyExpressionTests {
    static let registry = ConversionFixture.snapshot([
        #"{"name":"Person","properties":{"#
            + #""email":{"type":"string","transform":"value.trim().lowerAscii()","maxLength":8},"#
            + #""first":"string","last":"string","#
            + #""full":{"type":"string","computed":"self.first + ' ' + self.last"},"#
            + #""tags":{"type":"array","of":"string","transform":"value.upperAscii()"},"#
            + #""age":{"type":"int32","transform":"value * 2"},"#
            + #""initials":{"type":"string","key":"ini","computed":"self.full.substring(0, 1) + self.last.substring(0, 1)"},"#
            + #""count":{"type":"uint8","computed":"size(self.tags)"}},"#
            + #""rules":[{"rule":"self.count < 3","message":"too many tags","path":"/tags"}]}"#,
        #"{"name":"Team","properties":{"lead":"Person","size":{"type":"int64","computed":"1"}}}"#,
        #"{"name":"Bad","properties":{"n":{"type":"int8","transform":"value + 200"},"d":{"type":"int8","computed":"1 / 0"}}}"#,
    ])

    @Test func transformRewritesAndComputedFillsInDeclarationOrder() {
        let input = #"{"email":"  Ada@X.io ","first":"Ada","last":"L","tags":["a","b"],"age":"21"}"#
        let produced = Self.registry.produce("Person", input)
        #expect(
            produced
                == Produced(
                    status: 200,
                    output:
                        #"{"email":"ada@x.io","first":"Ada","last":"L","full":"Ada L","tags":["A","B"],"age":42,"initials":"AL","count":2}"#,
                    entries: ["/age coerced"]), "\(produced)")
    }

    @Test func computedPropertiesAreWrittenUnderTheirKeyInWireForm() {
        let produced = Self.registry.produce("Person", #"{"first":"Ada","last":"L","tags":[]}"#, output: .wire)
        #expect(
            produced.output == #"{"first":"Ada","last":"L","full":"Ada L","tags":[],"age":0,"ini":"AL","count":0}"#,
            "\(produced)")
    }

    @Test func computedInputKeysAreNotRead() {
        let produced = Self.registry.produce("Person", #"{"first":"A","last":"B","full":"ignored","tags":[]}"#)
        #expect(produced.output.contains(#""full":"A B""#), "\(produced)")
    }

    @Test func constraintsApplyToTheTransformsResult() {
        // "  ABCDEFG  " is 11 characters before the transform, 7 after: within maxLength 8.
        #expect(
            Self.registry.produce("Person", #"{"email":"  ABCDEFG  ","first":"a","last":"b","tags":[]}"#).status == 200)
        let produced = Self.registry.produce("Person", #"{"email":"ABCDEFGHI","tags":[]}"#)
        #expect(produced.entries.contains("!/email constraint_failed"), "\(produced)")
    }

    @Test func failuresLeaveThePropertyWithoutAValue() {
        let produced = Self.registry.produce("Person", #"{"first":"A","tags":[]}"#)
        #expect(produced.status == 422)
        #expect(produced.entries.contains("!/full rule_failed"), "\(produced)")
        #expect(!produced.output.contains("full"))
        let bad = Self.registry.produce("Bad", #"{"n":100}"#)
        #expect(
            bad.entries == ["!/n out_of_range", "!/d rule_failed"] || bad.entries.contains("!/d rule_failed"), "\(bad)")
        #expect(bad.output == "{}", "\(bad)")
    }

    @Test func rulesSeeComputedValues() {
        let produced = Self.registry.produce("Person", #"{"first":"A","last":"B","tags":["x","y","z"]}"#)
        #expect(produced.entries == ["!/tags rule_failed"], "\(produced)")
    }

    @Test func expressionsRunInNestedModels() {
        let produced = Self.registry.produce("Team", #"{"lead":{"first":"A","last":"B","tags":[]}}"#)
        #expect(
            produced.output
                == #"{"lead":{"first":"A","last":"B","full":"A B","tags":[],"age":0,"initials":"AB","count":0},"size":1}"#,
            "\(produced)")
    }

    @Test(arguments: [
        (#"{"type":"int32","transform":"value +"}"#, "/models/0/properties/p/transform", "column 8"),
        (#"{"type":"int32","transform":"value + 'a'"}"#, "/models/0/properties/p/transform", "no matching overload"),
        (#"{"type":"int32","computed":"value"}"#, "/models/0/properties/p/computed", "undeclared reference to 'value'"),
        (#"{"type":"int32","computed":"1","default":2}"#, "/models/0/properties/p/default", "cannot have a default"),
        (#"{"type":"int32","computed":"1","required":true}"#, "/models/0/properties/p/required", "cannot be required"),
        (#"{"type":"int32","computed":"1","transform":"value"}"#, "/models/0/properties/p/computed", "both"),
        (#"{"type":"int32","transform":""}"#, "/models/0/properties/p/transform", "non-empty"),
    ])
    func badExpressionsAreSchemaProblems(_ property: String, _ pointer: String, _ message: String) {
        let result = ConversionFixture.snapshot([#"{"name":"P","properties":{"p":"# + property + "}}"])
        guard case .failure(let error) = result else {
            Issue.record("expected \(property) to be refused")
            return
        }
        #expect(error.problems.contains { $0.path == pointer && $0.message.contains(message) }, "\(error.problems)")
    }
}
