// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// docs/schema.md, "transformToJSON": `/normalize` output reads back as the same model. Keys that
/// `transformToJSON.set` writes are read and ignored (under `unknownKeys: reject` too), and a `transformToJSON` that
/// would remove what a rule needs or overwrite what a property reads is a schema problem.
struct RoundTripTests {
    /// The `Order` model of docs/schema.md ("willTransform").
    static let order = #"""
        {"name":"Order","properties":{"id":{"type":"uint64","required":true},"status":{"type":"string","enum":["open","paid"]},
         "total":{"type":"decimal","key":"amount.total","minimum":0},"currency":{"type":"string","key":"amount.currency","pattern":"^[A-Z]{3}$"},
         "note":"string","email":"string","phone":"string"},
         "willTransform":{"unwrap":"data","rename":{"order_id":"id"},"remove":["debug"],"defaults":{"status":"open"}},
         "validate":{"requireAny":[["email","phone"]]},"unknownKeys":"reject",
         "transformToJSON":{"omit":["note"],"set":{"meta.schemaVersion":2}}}
        """#
    static let registry = ConversionFixture.snapshot([order])

    @Test
    func theDocsOrderExampleReadsItsOwnNormalizeOutputInStrictMode() {
        let input =
            #"{"data":{"order_id":7,"amount":{"total":"19.90","currency":"EUR"},"debug":true,"note":"n","email":"a@b"}}"#
        let normalized = Self.registry.produce("Order", input, output: .wire)
        #expect(
            normalized.output
                == #"{"data":{"id":7,"status":"open","amount":{"total":19.9,"currency":"EUR"},"email":"a@b","meta":{"schemaVersion":2}}}"#
        )
        let again = Self.registry.produce("Order", normalized.output, mode: .strict, output: .wire)
        #expect(again == Produced(status: 200, output: normalized.output, entries: []))
        #expect(
            Self.registry.produce("Order", normalized.output, mode: .strict).output
                == #"{"id":7,"status":"open","total":19.9,"currency":"EUR","email":"a@b"}"#)
    }

    @Test
    func setKeysAreIgnoredWhateverTheirValueWhileOtherStrayKeysBesideThemStayUnknown() {
        let input = #"{"data":{"id":1,"email":"a@b","meta":{"schemaVersion":{"any":[1]},"x":1},"y":2}}"#
        #expect(
            Self.registry.produce("Order", input)
                == Produced(
                    status: 422, output: #"{"id":1,"status":"open","email":"a@b"}"#,
                    entries: ["!/data/meta/x unknown_key", "!/data/y unknown_key"]))
        #expect(Self.registry.produce("Order", #"{"data":{"id":1,"email":"a@b","meta":"v"}}"#).status == 200)
    }

    static let problemCases: [SchemaValidationTests.Case] = [
        .init(
            "omit of a required: true property",
            [#"{"name":"A","properties":{"id":{"type":"int32","required":true}},"transformToJSON":{"omit":["id"]}}"#],
            at: "doc0.json /transformToJSON/omit/0"),
        .init(
            "omit of a validate.required property",
            [
                #"{"name":"A","properties":{"a":"string","b":"string"},"validate":{"required":["b"]},"transformToJSON":{"omit":["a","b"]}}"#
            ],
            at: "doc0.json /transformToJSON/omit/1"),
        .init(
            "omit of every member of a requireAny group",
            [
                #"{"name":"A","properties":{"a":"string","b":"string"},"validate":{"requireAny":[["a","b"]]},"transformToJSON":{"omit":["b","a"]}}"#
            ],
            at: "doc0.json /transformToJSON/omit/1"),
        .init(
            "set key equal to a property's key",
            [
                #"{"name":"A","properties":{"a":{"type":"string","key":["x","y.z"]}},"transformToJSON":{"set":{"y.z":1}}}"#
            ],
            at: "doc0.json /transformToJSON/set/y.z"),
        .init(
            "set key that is a prefix of a key path",
            [
                #"{"name":"A","properties":{"a":{"type":"string","key":"meta.v"}},"transformToJSON":{"set":{"meta":{}}}}"#
            ],
            at: "doc0.json /transformToJSON/set/meta"),
        .init(
            "set key that extends a property's key",
            [#"{"name":"A","properties":{"a":"string"},"transformToJSON":{"set":{"a.b":1}}}"#],
            at: "doc0.json /transformToJSON/set/a.b"),
        .init(
            "inherited omit of a property the child requires",
            [
                #"{"name":"A","properties":{"a":"string"},"transformToJSON":{"omit":["a"]}}"#,
                #"{"name":"B","extends":"A","properties":{"a":{"type":"string","required":true}}}"#,
            ],
            at: "doc1.json "),
    ]

    @Test(arguments: problemCases)
    func aTransformToJSONThatBreaksTheRoundTripIsASchemaProblem(_ testCase: SchemaValidationTests.Case) {
        SchemaValidationTests.expectReported(testCase)
    }

    @Test
    func anInheritedConflictIsReportedOnceWhereItIsDeclared() {
        let problems = SchemaValidationTests.problems([
            #"{"name":"A","properties":{"a":{"type":"string","required":true}},"transformToJSON":{"omit":["a"]}}"#,
            #"{"name":"B","extends":"A","properties":{"b":"string"}}"#,
        ])
        #expect(SchemaValidationTests.located(problems) == ["doc0.json /transformToJSON/omit/0"])
    }

    @Test
    func omitAndSetThatKeepTheRoundTripAreAccepted() {
        #expect(
            SchemaValidationTests.problems([
                #"{"name":"A","properties":{"a":"string","b":{"type":"string","key":"x.b"},"c":{"type":"int32","required":true}},"#
                    + #""validate":{"requireAny":[["a","b"]]},"transformToJSON":{"omit":["a"],"set":{"x.v":1,"xb":2}}}"#,
                #"{"name":"B","extends":"A","blacklist":["c"],"transformToJSON":{"omit":["c"]}}"#,
            ]).isEmpty)
    }
}
