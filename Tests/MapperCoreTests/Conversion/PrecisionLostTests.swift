// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// docs/coercion-rules.md, "float and double": a number whose written `float`/`double` value differs from the
/// input's exact value is kept with `precision_lost` (an error in strict mode); a value that reads back as written
/// adds nothing; a default or constraint operand that would lose precision is a schema problem.
struct PrecisionLostTests {
    static let registry = ConversionFixture.snapshot([
        #"{"name":"P","properties":{"f":"float","d":"double","ds":{"type":"set","of":"double"},"m":{"type":"dictionary","of":"float"}}}"#
    ])

    @Test(
        arguments: [
            (#"{"f":16777217}"#, #"{"f":16777216,"d":0}"#, ["/f precision_lost"]),
            (#"{"d":9007199254740993}"#, #"{"f":0,"d":9007199254740992}"#, ["/d precision_lost"]),
            (#"{"d":1e-400,"f":-1e-400}"#, #"{"f":0,"d":0}"#, ["/f precision_lost", "/d precision_lost"]),
            (#"{"f":"16777217"}"#, #"{"f":16777216,"d":0}"#, ["/f coerced", "/f precision_lost"]),
            (#"{"f":0.1,"d":0.1}"#, #"{"f":0.1,"d":0.1}"#, []),
            (#"{"f":16777216,"d":9007199254740992}"#, #"{"f":16777216,"d":9007199254740992}"#, []),
            (#"{"d":123456789012345678}"#, #"{"f":0,"d":123456789012345680}"#, ["/d precision_lost"]),
            (#"{"d":1.7976931348623157e308,"f":1e-45}"#, #"{"f":1e-45,"d":1.7976931348623157e+308}"#, []),
            (
                #"{"ds":[1e-400,0],"m":{"k":16777217}}"#, #"{"f":0,"d":0,"ds":[0],"m":{"k":16777216}}"#,
                ["/ds/0 precision_lost", "/m/k precision_lost"]
            ),
        ] as [(String, String, [String])])
    func keepsTheValueAndReportsAWrittenValueThatDiffersFromTheInput(
        _ input: String, _ output: String, _ entries: [String]
    ) {
        #expect(Self.registry.produce("P", input) == Produced(status: 200, output: output, entries: entries))
        let strict = Self.registry.produce("P", input, mode: .strict)
        #expect(
            strict == Produced(status: entries.isEmpty ? 200 : 422, output: output, entries: entries.map { "!" + $0 }))
    }

    @Test
    func aDefaultOrOperandThatLosesPrecisionIsASchemaProblem() {
        let problems = SchemaValidationTests.problems([
            #"{"name":"A","properties":{"f":{"type":"float","minimum":16777217},"d":{"type":"double","default":1e-400},"#
                + #""ds":{"type":"array","of":"double","default":[0.5,9007199254740993]},"ok":{"type":"double","default":0.1}}}"#
        ])
        #expect(
            SchemaValidationTests.located(problems).sorted()
                == [
                    "doc0.json /properties/d/default", "doc0.json /properties/ds/default",
                    "doc0.json /properties/f/minimum",
                ])
    }
}
