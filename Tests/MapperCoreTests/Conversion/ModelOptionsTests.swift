// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// The second edition's options (docs/schema.md): `keyCase`, `unknownKeys: keep`, `nullable`, `optional`, `strict`
/// per property and per model, `acceptSingle`, and the `uuid` and `calendarDate` types.
struct ModelOptionsTests {
    static let registry = ConversionFixture.snapshot([
        #"{"name":"O_Snake","keyCase":"snake_case","properties":{"userID":"int32","HTTPServer":"string","#
            + #""avatarURL2":"url","loginName":{"type":"string","key":"login"}}}"#,
        #"{"name":"O_Camel","extends":"O_Snake","keyCase":"camelCase","properties":{"created_at":"string"}}"#,
        #"{"name":"O_Pascal","keyCase":"PascalCase","properties":{"user_id":"int32","HTTPServer":"string"}}"#,
        #"{"name":"O_Kebab","keyCase":"kebab-case","properties":{"userID":"int32","avatar_url":"string"}}"#,
        #"{"name":"O_Keep","unknownKeys":"keep","properties":{"id":"int32","name":{"type":"string","key":"n"},"#
            + #""inner":"O_Plain"}}"#,
        #"{"name":"O_Plain","properties":{"a":"int32"}}"#,
        #"{"name":"O_Null","properties":{"n":{"type":"int32","nullable":true},"s":{"type":"string","nullable":true},"#
            + #""b":{"type":"bool","nullable":true},"u":{"type":"O_Plain","nullable":true},"#
            + #""r":{"type":"int32","nullable":true,"required":true},"#
            + #""l":{"type":"array","of":{"type":"int32","nullable":true}}}}"#,
        #"{"name":"O_Optional","properties":{"i":{"type":"int32","optional":true},"b":{"type":"bool","optional":true},"#
            + #""d":{"type":"double","optional":true,"default":1.5},"z":"int32"}}"#,
        #"{"name":"O_StrictProp","properties":{"i":{"type":"int32","strict":true},"j":"int32","#
            + #""l":{"type":"array","of":"int32","strict":true},"p":"O_Plain"}}"#,
        #"{"name":"O_StrictModel","strict":true,"properties":{"i":"int32","j":{"type":"int32","strict":false},"#
            + #""p":"O_Plain","ps":{"type":"array","of":"O_Plain"}}}"#,
        #"{"name":"O_KeepOuter","properties":{"k":"O_Keep","list":{"type":"array","of":"O_Keep"}}}"#,
        #"{"name":"O_Base","properties":{"t":"string"},"classForDictionary":[{"when":{"has":"extra"},"use":"O_Child"}]}"#,
        #"{"name":"O_Child","extends":"O_Base","unknownKeys":"keep","properties":{"extra":"int32"}}"#,
        #"{"name":"O_Single","properties":{"tags":{"type":"array","of":"string","acceptSingle":true},"#
            + #""ids":{"type":"set","of":"int32","acceptSingle":true},"any":{"type":"array","acceptSingle":true},"#
            + #""users":{"type":"array","of":"O_Plain","acceptSingle":true},"plain":{"type":"array","of":"int32"}}}"#,
        #"{"name":"O_Types","properties":{"id":"uuid","day":"calendarDate"}}"#,
    ])

    private func run(
        _ model: String, _ input: String, mode: ConversionOptions.Mode = .lax,
        output: ConversionOptions.Form = .model, from: ConversionOptions.Form = .wire
    ) -> Produced {
        Self.registry.produce(model, input, mode: mode, output: output, from: from)
    }

    // MARK: - keyCase

    @Test func keyCaseSplitsWordsAsDocumented() {
        let cases: [(String, [String])] = [
            ("userID", ["user_id", "userId", "UserId", "user-id"]),
            ("HTTPServer", ["http_server", "httpServer", "HttpServer", "http-server"]),
            ("avatarURL2", ["avatar_url2", "avatarUrl2", "AvatarUrl2", "avatar-url2"]),
            ("created_at", ["created_at", "createdAt", "CreatedAt", "created-at"]),
            ("__a--b", ["a_b", "aB", "AB", "a-b"]),
            ("ID", ["id", "id", "Id", "id"]),
        ]
        for (name, expected) in cases {
            #expect([KeyCase.snake, .camel, .pascal, .kebab].map { $0.apply(to: name) } == expected, "\(name)")
        }
    }

    @Test func keyCaseRenamesPropertiesWithoutKeyInBothDirections() {
        let input = #"{"user_id":7,"http_server":"h","avatar_url2":"http://a","login":"x","userID":8}"#
        #expect(
            run("O_Snake", input)
                == Produced(
                    status: 200,
                    output:
                        #"{"userID":7,"HTTPServer":"h","avatarURL2":"http://a","loginName":"x"}"#, entries: []))
        #expect(
            run("O_Snake", input, output: .wire)
                == Produced(
                    status: 200,
                    output:
                        #"{"user_id":7,"http_server":"h","avatar_url2":"http://a","login":"x"}"#, entries: []))
        // Model form reads property names whatever the case.
        #expect(run("O_Snake", #"{"userID":1}"#, output: .wire, from: .model).output == #"{"user_id":1}"#)
    }

    @Test func keyCaseOfTheBuiltModelAppliesToInheritedProperties() {
        #expect(
            run("O_Camel", #"{"userId":1,"httpServer":"h","createdAt":"t","login":"x"}"#, output: .wire).output
                == #"{"userId":1,"httpServer":"h","login":"x","createdAt":"t"}"#)
        #expect(run("O_Pascal", #"{"UserId":1,"HttpServer":"h"}"#).output == #"{"user_id":1,"HTTPServer":"h"}"#)
        #expect(run("O_Kebab", #"{"user-id":1,"avatar-url":"a"}"#).output == #"{"userID":1,"avatar_url":"a"}"#)
    }

    // MARK: - unknownKeys: keep

    @Test func keepWritesUnreadKeysAfterThePropertiesInInputOrder() {
        let input = #"{"z":[1,{"b":2}],"id":"3","n":"a","x":null,"z":true,"inner":{"a":1,"q":2}}"#
        #expect(
            run("O_Keep", input)
                == Produced(
                    status: 200,
                    output:
                        #"{"id":3,"name":"a","inner":{"a":1},"z":true,"x":null}"#,
                    entries: ["/id coerced", "/z duplicate_key"]))
        #expect(run("O_Keep", input, output: .wire).output == #"{"id":3,"n":"a","inner":{"a":1},"z":true,"x":null}"#)
        #expect(run("O_Keep", #"{}"#).output == #"{"id":0}"#)
        #expect(run("O_Keep", #"{"q":1}"#, output: .wire).output == #"{"id":0,"q":1}"#)
    }

    @Test func keepAppliesWhereverTheModelIsBuilt() {
        #expect(
            run("O_KeepOuter", #"{"k":{"x":1},"list":[{"y":2},{"id":3}],"z":0}"#)
                == Produced(
                    status: 200,
                    output: #"{"k":{"id":0,"x":1},"list":[{"id":0,"y":2},{"id":3}]}"#, entries: []))
        // Chosen by classForDictionary: the built model's unknownKeys applies.
        #expect(run("O_Base", #"{"t":"a","extra":1,"z":2}"#).output == #"{"t":"a","extra":1,"z":2}"#)
        #expect(run("O_Base", #"{"t":"a","z":2}"#).output == #"{"t":"a"}"#)
    }

    @Test func aKeptKeyThatAPropertyWritesIsNotKept() {
        // In model form `name` is the property's output key; its input key is `n`.
        #expect(
            run("O_Keep", #"{"n":"a","name":"b"}"#)
                == Produced(
                    status: 200, output: #"{"id":0,"name":"a"}"#,
                    entries: ["/name output_conflict"]))
        #expect(run("O_Keep", #"{"n":"a","name":"b"}"#, output: .wire).output == #"{"id":0,"n":"a","name":"b"}"#)
        #expect(
            run("O_Keep", #"{"name":"a","n":"b"}"#, output: .wire, from: .model)
                == Produced(status: 200, output: #"{"id":0,"n":"a"}"#, entries: ["/n output_conflict"]))
    }

    // MARK: - nullable

    @Test func nullableKeepsNullAsAValueInBothForms() {
        let input = #"{"n":null,"s":null,"b":"<null>","u":null,"r":null,"l":[1,null,"nil"]}"#
        let expected = #"{"n":null,"s":null,"b":null,"u":null,"r":null,"l":[1,null,null]}"#
        #expect(run("O_Null", input) == Produced(status: 200, output: expected, entries: []))
        #expect(run("O_Null", input, mode: .strict) == Produced(status: 200, output: expected, entries: []))
        #expect(run("O_Null", expected, output: .wire, from: .model).output == expected)
        // Absent: as before (a number's zero), and required still needs the key.
        #expect(
            run("O_Null", "{}")
                == Produced(status: 422, output: #"{"n":0,"b":false,"r":0}"#, entries: ["!/r missing_required"]))
        #expect(run("O_Null", #"{"s":"nil","r":1}"#).output == #"{"n":0,"s":"nil","b":false,"r":1}"#)
    }

    // MARK: - optional

    @Test func optionalNumbersWithNoValueAreOmitted() {
        #expect(run("O_Optional", "{}") == Produced(status: 200, output: #"{"d":1.5,"z":0}"#, entries: []))
        #expect(
            run("O_Optional", #"{"i":null,"b":"x","d":null,"z":null}"#)
                == Produced(
                    status: 200,
                    output: #"{"d":1.5,"z":0}"#,
                    entries: [
                        "/i null_to_default", "/b not_a_number", "/d null_to_default",
                        "/z null_to_default",
                    ]))
        #expect(run("O_Optional", #"{"i":0,"b":false}"#).output == #"{"i":0,"b":false,"d":1.5,"z":0}"#)
    }

    // MARK: - strict

    @Test func aStrictPropertyMakesItsOwnAndItsElementsWarningsErrors() {
        #expect(
            run("O_StrictProp", #"{"i":"1","j":"2","l":[1,"x"],"p":{"a":"3"}}"#)
                == Produced(
                    status: 422,
                    output: #"{"i":1,"j":2,"l":[1],"p":{"a":3}}"#,
                    entries: ["!/i coerced", "/j coerced", "!/l/1 element_dropped", "/p/a coerced"]))
        #expect(run("O_StrictProp", #"{"i":null}"#).entries == ["!/i null_to_default"])
    }

    @Test func aStrictModelCoversItsOwnEntriesNotNestedModelsNorOptedOutProperties() {
        #expect(
            run("O_StrictModel", #"{"i":"1","j":"2","p":{"a":"3"},"i":1}"#)
                == Produced(
                    status: 422,
                    output: #"{"i":1,"j":2,"p":{"a":3}}"#, entries: ["!/i duplicate_key", "/j coerced", "/p/a coerced"])
        )
        #expect(run("O_StrictModel", #"{"j":"2"}"#, mode: .strict).entries == ["!/j coerced"])
        // Models in a strict model's containers read as the mode says too; the container's own entries are errors.
        #expect(
            run("O_StrictModel", #"{"ps":[{"a":"1"},7]}"#).entries == ["/ps/0/a coerced", "!/ps/1 element_dropped"])
    }

    // MARK: - acceptSingle

    @Test func acceptSingleReadsOneRecordAsAOneElementArray() {
        #expect(
            run("O_Single", #"{"tags":"a","ids":"7","any":{"k":1},"users":{"a":2},"plain":3}"#)
                == Produced(
                    status: 200, output: #"{"tags":["a"],"ids":[7],"any":[{"k":1}],"users":[{"a":2}]}"#,
                    entries: [
                        "/tags wrapped_in_array", "/ids wrapped_in_array", "/ids coerced", "/any wrapped_in_array",
                        "/users wrapped_in_array", "/plain wrong_type",
                    ]))
        #expect(
            run("O_Single", #"{"tags":["a"],"ids":null}"#)
                == Produced(status: 200, output: #"{"tags":["a"]}"#, entries: []))
        #expect(
            run("O_Single", #"{"ids":"x"}"#)
                == Produced(
                    status: 200, output: #"{"ids":[]}"#,
                    entries: ["/ids wrapped_in_array", "/ids element_dropped"]))
        #expect(run("O_Single", #"{"tags":"a"}"#, mode: .strict).status == 422)
    }

    // MARK: - uuid, calendarDate

    @Test(
        arguments: [
            (#""6FA459EA-ee8a-3CA4-894E-DB77E160355E""#, #"{"id":"6fa459ea-ee8a-3ca4-894e-db77e160355e"}"#, [String]()),
            (#""{6fa459ea-ee8a-3ca4-894e-db77e160355e}""#, "{}", ["/id not_a_uuid"]),
            (#""urn:uuid:6fa459ea-ee8a-3ca4-894e-db77e160355e""#, "{}", ["/id not_a_uuid"]),
            (#""6fa459eaee8a3ca4894edb77e160355e""#, "{}", ["/id not_a_uuid"]),
            (#"" 6fa459ea-ee8a-3ca4-894e-db77e160355e""#, "{}", ["/id not_a_uuid"]),
            (#""6fa459ea-ee8a-3ca4-894e-db77e160355g""#, "{}", ["/id not_a_uuid"]),
            (#""""#, "{}", ["/id not_a_uuid"]),
            ("12", "{}", ["/id wrong_type"]),
            ("null", "{}", []),
        ] as [(String, String, [String])])
    func uuidReadsTheTextFormInAnyCase(_ value: String, _ output: String, _ entries: [String]) {
        #expect(run("O_Types", "{\"id\":\(value)}") == Produced(status: 200, output: output, entries: entries))
    }

    @Test(
        arguments: [
            (#""2015-09-04""#, #"{"day":"2015-09-04"}"#, [String]()),
            (#""2015-09-04T00:12:21+08:00""#, #"{"day":"2015-09-03"}"#, ["/day coerced"]),
            (#""Fri Sep 04 00:12:21 +0800 2015""#, #"{"day":"2015-09-03"}"#, ["/day coerced"]),
            (#""0001-01-01""#, #"{"day":"0001-01-01"}"#, []),
            (#""0000-12-31""#, "{}", ["/day invalid_date"]),
            (#""2015-02-29""#, "{}", ["/day invalid_date"]),
            (#""04/09/2015""#, "{}", ["/day invalid_date"]),
            ("1441325541", "{}", ["/day wrong_type"]),
            ("null", "{}", []),
        ] as [(String, String, [String])])
    func calendarDateReadsDaysAndTheDateOfADateTimeInUTC(_ value: String, _ output: String, _ entries: [String]) {
        #expect(run("O_Types", "{\"day\":\(value)}") == Produced(status: 200, output: output, entries: entries))
    }

    // MARK: - Schema problems

    @Test func misplacedOptionsAreSchemaProblems() {
        let problems: [(String, String)] = [
            (#"{"name":"P","properties":{"s":{"type":"string","optional":true}}}"#, "/properties/s/optional"),
            (#"{"name":"P","properties":{"s":{"type":"string","acceptSingle":true}}}"#, "/properties/s/acceptSingle"),
            (#"{"name":"P","properties":{"s":{"type":"int32","nullable":1}}}"#, "/properties/s/nullable"),
            (#"{"name":"P","keyCase":"snake","properties":{}}"#, "/keyCase"),
            (#"{"name":"P","unknownKeys":"allow","properties":{}}"#, "/unknownKeys"),
            (#"{"name":"P","strict":"yes","properties":{}}"#, "/strict"),
            (
                #"{"name":"P","properties":{"l":{"type":"array","of":{"type":"int32","strict":true}}}}"#,
                "/properties/l/of/strict"
            ),
        ]
        for (document, pointer) in problems {
            guard case .failure(let error) = ConversionFixture.snapshot([document]) else {
                Testing.Issue.record("accepted: \(document)")
                continue
            }
            #expect(error.problems.map(\.path) == ["/models/0" + pointer], "\(document)")
        }
    }
}
