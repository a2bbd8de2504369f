// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

@Suite struct ComparisonTests {
    static let schemas = [
        #"{"name":"Owner","properties":{"uid":{"type":"uint64","key":"id"},"login":"string"}}"#,
        #"{"name":"Repo","properties":{"id":"uint64","owner":"Owner","tags":{"type":"array","of":"string"},"meta":"dictionary","extra":"any","when":"date","#
            + #""labels":{"type":"set","of":"string"},"score":"number","scores":{"type":"dictionary","of":"number"},"#
            + #""pets":{"type":"array","of":"Pet"}}}"#,
        #"{"name":"Pet","properties":{"name":"string"},"classForDictionary":[{"when":{"has":"cat"},"use":"Cat"}]}"#,
        #"{"name":"Cat","extends":"Pet","properties":{"whiskers":"string"}}"#,
    ]

    func compare(_ body: String, mode: ConversionOptions.Mode = .lax) throws -> (status: Int, body: String) {
        let snapshot = try SchemaRegistry.make(Self.schemas[0], Self.schemas[1], Self.schemas[2], Self.schemas[3])
            .current
        var options = ConversionOptions()
        options.mode = mode
        let result = Array(body.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in try snapshot.compare(body, model: "Repo", options: options) }
        }
        switch result {
        case .success(let converted): return (200, String(decoding: converted.body, as: UTF8.self))
        case .failure(let error): return (error.status, String(decoding: error.body(requestId: nil), as: UTF8.self))
        }
    }

    @Test func equalWhenTheModelsAreEqualWhateverTheSpelling() throws {
        let result = try compare(
            #"{"a":{"id":"7","when":"2015-09-03T16:12:21Z","x":1},"b":{"when":1441296741,"id":7}}"#)
        #expect(result.status == 200)
        #expect(result.body == #"{"equal":true,"differences":[]}"#)
    }

    @Test func listsDifferencesInDeclarationOrderDescendingIntoModelsAndEqualLengthArrays() throws {
        let result = try compare(
            """
            {"a":{"id":1,"owner":{"id":1,"login":"x"},"tags":["a","b"],"meta":{"k":1},"extra":{"p":1}},
             "b":{"id":2,"owner":{"id":1,"login":"y"},"tags":["a","c"],"meta":{"k":2},"extra":{"p":2}}}
            """)
        #expect(result.body == #"{"equal":false,"differences":["/id","/owner/login","/tags/1","/meta/k","/extra"]}"#)
    }

    @Test func listsAContainerOnceWhenItsLengthOrKeysDiffer() throws {
        let result = try compare(
            #"{"a":{"tags":["a"],"meta":{"k":1,"j":2}},"b":{"tags":["a","b"],"meta":{"j":2,"l":1}}}"#)
        #expect(result.body == #"{"equal":false,"differences":["/tags","/meta"]}"#)
    }

    @Test func comparesSetsAndDictionariesRegardlessOfOrderAndNumbersByValue() throws {
        let result = try compare(
            """
            {"a":{"labels":["x","y"],"meta":{"k":1,"j":[2.0]},"extra":{"p":1,"q":{"r":1e2}},"score":1.0,"scores":{"s":10,"t":0.5}},
             "b":{"labels":["y","x","y"],"meta":{"j":[2],"k":1.00},"extra":{"q":{"r":100},"p":1},"score":1,"scores":{"t":"0.50","s":1e1}}}
            """)
        #expect(result.status == 200)
        #expect(result.body == #"{"equal":true,"differences":[]}"#)
    }

    @Test func listsASetOnceAndDescendsIntoDictionariesWithTheSameKeys() throws {
        let result = try compare(
            #"{"a":{"labels":["x","y"],"scores":{"s":1,"t":2}},"b":{"labels":["x","z"],"scores":{"t":2,"s":1.5}}}"#)
        #expect(result.body == #"{"equal":false,"differences":["/labels","/scores/s"]}"#)
    }

    @Test func aModelBuiltAsAnotherModelIsADifferenceEvenWithTheSameModelForm() throws {
        let result = try compare(
            #"{"a":{"pets":[{"name":"Tom"},{"name":"Rex"}]},"b":{"pets":[{"name":"Tom","cat":true},{"name":"Rex"}]}}"#)
        #expect(result.body == #"{"equal":false,"differences":["/pets/0"],"models":{"/pets/0":["Pet","Cat"]}}"#)
    }

    @Test func anyValuesCompareAsJSONValuesAndABoolNeverEqualsANumber() throws {
        #expect(
            try compare(#"{"a":{"extra":[1,{"x":0.10}]},"b":{"extra":[1.0,{"x":1e-1}]}}"#).body
                == #"{"equal":true,"differences":[]}"#)
        #expect(
            try compare(#"{"a":{"extra":[true]},"b":{"extra":[1]}}"#).body
                == #"{"equal":false,"differences":["/extra/0"]}"#)
    }

    @Test func listsAPropertyPresentOnOneSideOnly() throws {
        let result = try compare(#"{"a":{"owner":{"login":"x"}},"b":{}}"#)
        #expect(result.body == #"{"equal":false,"differences":["/owner"]}"#)
    }

    @Test func anInvalidSideGivesAReportWithPrefixedPaths() throws {
        let result = try compare(#"{"a":{"id":"x"},"b":{"id":1}}"#, mode: .strict)
        #expect(result.status == 422)
        #expect(result.body.contains(#""errors":[{"path":"/a/id","code":"not_a_number""#))
        #expect(result.body.contains(#""result":{"a":{"id":0},"b":{"id":1}}"#))
    }

    @Test(arguments: [
        (#"[]"#, "the body must be an object"),
        (#"{"a":{}}"#, #"member \"b\" must be an object"#),
        (#"{"a":{},"b":[]}"#, #"member \"b\" must be an object"#),
        (#"{"a":{},"b":{},"c":{}}"#, #"not \"c\""#),
    ])
    func rejectsBodiesThatAreNotTwoObjects(body: String, message: String) throws {
        let result = try compare(body)
        #expect(result.status == 400)
        #expect(result.body.contains(#""code":"not_an_object""#))
        #expect(result.body.contains(message))
    }
}
