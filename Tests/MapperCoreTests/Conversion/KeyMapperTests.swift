// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// How a property finds its value in the input object (docs/schema.md, "key"; docs/semantics.md, "JSON input"):
/// YYModel's `modelCustomPropertyMapper` tests carried over — plain keys, key paths, literal keys
/// with dots, shared keys, fallback lists, escaped and duplicate input keys, `unknownKeys: reject`, and the report
/// paths of absent keys.
struct KeyMapperTests {
    static let registry = ConversionFixture.snapshot([
        #"{"name":"K_Plain","properties":{"name":{"type":"string","key":"n"},"page":{"type":"int32","key":"p"},"uid":"int64"}}"#,
        #"{"name":"K_Path","properties":{"v":{"type":"int32","key":"a.b.c"},"s":{"type":"string","key":"a.b.d"}}}"#,
        #"{"name":"K_Literal","properties":{"ext":{"type":"string","key":".ext"},"trail":{"type":"string","key":"a."},"#
            + #""dot":{"type":"string","key":"."},"dots":{"type":"string","key":".."},"inner":{"type":"string","key":".b."},"#
            + #""double":{"type":"string","key":"x..y"}}}"#,
        #"{"name":"K_Shared","properties":{"text":{"type":"string","key":"k"},"count":{"type":"int32","key":"k"},"#
            + #""raw":{"type":"any","key":"k"}}}"#,
        #"{"name":"K_Fallback","properties":{"id":{"type":"string","key":["id","ID","book_id"]},"#
            + #""n":{"type":"int32","key":["a.b","c"]}}}"#,
        #"{"name":"K_Required","properties":{"id":{"type":"string","key":["id","ID"],"required":true},"#
            + #""deep":{"type":"int32","key":"a.b","required":true},"plain":{"type":"string","required":true}}}"#,
        #"{"name":"K_Unwrapped","willTransform":{"unwrap":"data.inner"},"properties":{"id":{"type":"string","#
            + #""key":["id","ID"],"required":true},"deep":{"type":"int32","key":"a.b","required":true}}}"#,
        #"{"name":"K_Reject","unknownKeys":"reject","properties":{"uid":"int32","d":{"type":"string","key":"a.b"},"#
            + #""meta":"any","dict":"dictionary","list":"array","alt":{"type":"string","key":["x1","x2"]}}}"#,
        #"{"name":"K_RejectChild","unknownKeys":"reject","properties":{"uid":"int32"}}"#,
        #"{"name":"K_Empty","properties":{}}"#,
        #"{"name":"K_One","properties":{"a":"int32"}}"#,
        #"{"name":"K_Parent","properties":{"child":"K_RejectChild","children":{"type":"array","of":"K_RejectChild"}}}"#,
        #"{"name":"K_Unicode","properties":{"cafe":{"type":"string","key":"caf\u00e9"},"slash":{"type":"int32","key":"a/b"},"#
            + #""tilde":{"type":"int32","key":"m~n"},"empty":{"type":"int32","key":" "}}}"#,
    ])

    private func run(_ model: String, _ input: String, mode: ConversionOptions.Mode = .lax) -> Produced {
        Self.registry.produce(model, input, mode: mode)
    }

    // MARK: - Plain keys and key paths

    @Test
    func readsEachPropertyUnderItsMappedKey() {
        #expect(
            run("K_Plain", #"{"n":"Harry","p":"12","uid":7,"name":"ignored"}"#)
                == Produced(status: 200, output: #"{"name":"Harry","page":12,"uid":7}"#, entries: ["/p coerced"]))
    }

    @Test
    func writesAbsentNumericPropertiesAsZeroWithoutAWarning() {
        #expect(run("K_Plain", "{}") == Produced(status: 200, output: #"{"page":0,"uid":0}"#, entries: []))
    }

    @Test(
        arguments: [
            (#"{"a":{"b":{"c":5,"d":"x"}}}"#, #"{"v":5,"s":"x"}"#, [String]()),
            (#"{"a":{"b":{}}}"#, #"{"v":0}"#, []),
            (#"{"a":{"b":5}}"#, #"{"v":0}"#, []),
            (#"{"a":[{"b":{"c":1}}]}"#, #"{"v":0}"#, []),
            (#"{"a":"b.c"}"#, #"{"v":0}"#, []),
            (#"{"a":null}"#, #"{"v":0}"#, []),
            (#"{"a.b.c":5,"a.b":{"c":6},"a":{"b.c":7}}"#, #"{"v":0}"#, []),
            (#"{"a":{"b":{"c":null}}}"#, #"{"v":0}"#, ["/a/b/c null_to_default"]),
            (#"{"a":{"b":{"c":"x","d":1}}}"#, #"{"v":0,"s":"1"}"#, ["/a/b/c not_a_number", "/a/b/d coerced"]),
            (#"{"a":{"b":{"c":"9"}},"a":{"b":{"c":2}}}"#, #"{"v":2}"#, ["/a duplicate_key"]),
            (#"{"a":{"b":{"c":1}},"a":{"x":1}}"#, #"{"v":0}"#, ["/a duplicate_key"]),
            (#"{"a":{"b":{"c":1,"c":3}}}"#, #"{"v":3}"#, ["/a/b/c duplicate_key"]),
        ] as [(String, String, [String])])
    func walksKeyPathsThroughNestedObjectsOnly(_ input: String, _ output: String, _ entries: [String]) {
        #expect(run("K_Path", input) == Produced(status: 200, output: output, entries: entries))
    }

    @Test
    func treatsKeysWithFewerThanTwoComponentsAsLiteralStrings() {
        let input =
            #"{".ext":"1",".":"2","..":"3",".b.":"4","a.":"5","ext":"no","a":{"":"no"},"b":"no","x":{"y":"6"},"x..y":"no"}"#
        #expect(
            run("K_Literal", input)
                == Produced(
                    status: 200,
                    output: #"{"ext":"1","trail":"5","dot":"2","dots":"3","inner":"4","double":"6"}"#, entries: []))
    }

    @Test
    func doesNotMatchALiteralKeyWithoutItsDots() {
        #expect(
            run("K_Literal", #"{"ext":"1","a":"2","b":"3","x":"4","xy":"5"}"#)
                == Produced(status: 200, output: "{}", entries: []))
    }

    @Test
    func givesEveryPropertyOnTheSameKeyTheValue() {
        #expect(
            run("K_Shared", #"{"k":"12"}"#)
                == Produced(status: 200, output: #"{"text":"12","count":12,"raw":"12"}"#, entries: ["/k coerced"]))
        #expect(
            run("K_Shared", #"{"k":3.5}"#)
                == Produced(
                    status: 200,
                    output: #"{"text":"3.5","count":3,"raw":3.5}"#, entries: ["/k coerced", "/k fraction_truncated"]))
    }

    @Test
    func reportsASharedKeysDuplicateOnce() {
        #expect(
            run("K_Shared", #"{"k":"x","k":7}"#)
                == Produced(
                    status: 200,
                    output: #"{"text":"7","count":7,"raw":7}"#, entries: ["/k duplicate_key", "/k coerced"]))
    }

    // MARK: - Fallback lists

    @Test(
        arguments: [
            (#"{"book_id":"c","ID":"b"}"#, #"{"id":"b","n":0}"#, [String]()),
            (#"{"book_id":"c","ID":"b","id":"a"}"#, #"{"id":"a","n":0}"#, []),
            (#"{"book_id":"c"}"#, #"{"id":"c","n":0}"#, []),
            (#"{"id":null,"ID":"b"}"#, #"{"n":0}"#, []),
            (#"{"ID":null,"book_id":"c"}"#, #"{"n":0}"#, []),
            (#"{"ID":[],"book_id":"c"}"#, #"{"n":0}"#, ["/ID wrong_type"]),
            (#"{"a":{"b":1},"c":2}"#, #"{"n":1}"#, []),
            (#"{"a":5,"c":2}"#, #"{"n":2}"#, []),
            (#"{"a":{"x":1},"c":"2"}"#, #"{"n":2}"#, ["/c coerced"]),
            (#"{"a":{"b":null},"c":2}"#, #"{"n":0}"#, ["/a/b null_to_default"]),
            (#"{"a":{"b":"x"},"c":2}"#, #"{"n":0}"#, ["/a/b not_a_number"]),
            (#"{"c":null}"#, #"{"n":0}"#, ["/c null_to_default"]),
            ("{}", #"{"n":0}"#, []),
        ] as [(String, String, [String])])
    func takesTheFirstPresentKeyOfAFallbackListCountingNull(_ input: String, _ output: String, _ entries: [String]) {
        #expect(run("K_Fallback", input) == Produced(status: 200, output: output, entries: entries))
    }

    // MARK: - Report paths of absent keys

    @Test
    func reportsAnAbsentKeyWhereItWouldBe() {
        #expect(
            run("K_Required", "{}")
                == Produced(
                    status: 422, output: #"{"deep":0}"#,
                    entries: ["!/id missing_required", "!/a/b missing_required", "!/plain missing_required"]))
        #expect(
            run("K_Required", #"{"a":7,"ID":null,"plain":"p"}"#)
                == Produced(
                    status: 422, output: #"{"deep":0,"plain":"p"}"#,
                    entries: ["!/ID missing_required", "!/a/b missing_required"]))
    }

    @Test
    func reportsAbsentKeysUnderTheUnwrapPrefix() {
        #expect(
            run("K_Unwrapped", #"{"data":{"inner":{}}}"#)
                == Produced(
                    status: 422, output: #"{"deep":0}"#,
                    entries: ["!/data/inner/id missing_required", "!/data/inner/a/b missing_required"]))
        #expect(
            run("K_Unwrapped", #"{"data":{"inner":{"ID":"x","a":{"b":"2"}}}}"#)
                == Produced(status: 200, output: #"{"id":"x","deep":2}"#, entries: ["/data/inner/a/b coerced"]))
    }

    // MARK: - Input keys: escapes, duplicates, pointer escaping

    @Test(
        arguments: [
            (#"{"\u0075id":7}"#, #"{"page":0,"uid":7}"#, [String]()),
            (#"{"\u0075id":"7"}"#, #"{"page":0,"uid":7}"#, ["/uid coerced"]),
            (#"{"uid":1,"\u0075id":2}"#, #"{"page":0,"uid":2}"#, ["/uid duplicate_key"]),
            (#"{"uid":1,"uid":"x"}"#, #"{"page":0,"uid":0}"#, ["/uid duplicate_key", "/uid not_a_number"]),
            (#"{"uid":"x","uid":2,"uid":3}"#, #"{"page":0,"uid":3}"#, ["/uid duplicate_key"]),
            (#"{"\n":1,"n":"a","n":"b"}"#, #"{"name":"b","page":0,"uid":0}"#, ["/n duplicate_key"]),
            (
                #"{"zz":1,"zz":2,"aa":[],"aa":{},"uid":1}"#, #"{"page":0,"uid":1}"#,
                ["/aa duplicate_key", "/zz duplicate_key"]
            ),
            (
                #"{"b":1,"a":1,"b":2,"a":2,"B":0,"B":0}"#, #"{"page":0,"uid":0}"#,
                ["/B duplicate_key", "/a duplicate_key", "/b duplicate_key"]
            ),
        ] as [(String, String, [String])])
    func resolvesEscapesAndLetTheLastDuplicateWin(_ input: String, _ output: String, _ entries: [String]) {
        #expect(run("K_Plain", input) == Produced(status: 200, output: output, entries: entries))
    }

    @Test(
        arguments: [
            ("K_Empty", #"{"a":1,"a":2}"#, "{}", ["/a duplicate_key"]),
            ("K_Empty", #"{"a":1,"b":0,"a":2}"#, "{}", ["/a duplicate_key"]),
            ("K_One", #"{"b":1,"b":2}"#, #"{"a":0}"#, ["/b duplicate_key"]),
            ("K_One", #"{"b":1,"b":2,"a":3,"a":4}"#, #"{"a":4}"#, ["/a duplicate_key", "/b duplicate_key"]),
            // A repeat is found among keys of one length at any length (the in-place pre-check must not miss one:
            // 12 bytes take its eight-byte comparison, 6 its four-byte one); keys that differ in a byte are none.
            ("K_Empty", #"{"abcd":1,"abce":2,"abc":3,"abcde":4,"x":5}"#, "{}", []),
            (
                "K_Empty", #"{"longer_key_1":1,"longer_key_2":2,"longer_key_1":3}"#, "{}",
                ["/longer_key_1 duplicate_key"]
            ),
            ("K_Empty", #"{"k":1,"abcdef":2,"abcdeg":3,"abcdef":4}"#, "{}", ["/abcdef duplicate_key"]),
        ] as [(String, String, String, [String])])
    func reportsDuplicatesOfKeysNoPropertyReads(_ model: String, _ input: String, _ output: String, _ entries: [String])
    {
        #expect(run(model, input) == Produced(status: 200, output: output, entries: entries))
    }

    @Test
    func matchesSchemaKeysAgainstDecodedInputKeysByteForByte() {
        #expect(
            run("K_Unicode", #"{"caf\u00e9":"1","a\/b":"2","m~n":3," ":4}"#)
                == Produced(
                    status: 200,
                    output: #"{"cafe":"1","slash":2,"tilde":3,"empty":4}"#, entries: ["/a~1b coerced"]))
        #expect(
            run("K_Unicode", #"{"cafe\u0301":"1"}"#)
                == Produced(status: 200, output: #"{"slash":0,"tilde":0,"empty":0}"#, entries: []))
        #expect(
            run("K_Unicode", #"{"m~n":"x","a/b":null}"#)
                == Produced(
                    status: 200,
                    output: #"{"slash":0,"tilde":0,"empty":0}"#,
                    entries: ["/a~1b null_to_default", "/m~0n not_a_number"]))
    }

    // MARK: - unknownKeys: reject

    @Test(
        arguments: [
            (#"{"uid":1}"#, 200, #"{"uid":1}"#, [String]()),
            (#"{"uid":1,"x":2}"#, 422, #"{"uid":1}"#, ["!/x unknown_key"]),
            (
                #"{"é":1,"b":1,"B":1,"c":1,"uid":1}"#, 422, #"{"uid":1}"#,
                ["!/B unknown_key", "!/b unknown_key", "!/c unknown_key", "!/é unknown_key"]
            ),
            (#"{"a/b":1,"~":1}"#, 422, #"{"uid":0}"#, ["!/a~1b unknown_key", "!/~0 unknown_key"]),
            (#"{"a":{"b":"s","c":1}}"#, 422, #"{"uid":0,"d":"s"}"#, ["!/a/c unknown_key"]),
            (#"{"a":5}"#, 200, #"{"uid":0}"#, []),
            (#"{"a":{"c":{"z":1}}}"#, 422, #"{"uid":0}"#, ["!/a/c unknown_key"]),
            (#"{"a":[{"b":1}]}"#, 200, #"{"uid":0}"#, []),
            (
                #"{"meta":{"zz":1},"dict":{"zz":1},"list":[{"zz":1}]}"#, 200,
                #"{"uid":0,"meta":{"zz":1},"dict":{"zz":1},"list":[{"zz":1}]}"#, []
            ),
            (#"{"x2":"b","x1":"a"}"#, 200, #"{"uid":0,"alt":"a"}"#, []),
            (#"{"x2":"b"}"#, 200, #"{"uid":0,"alt":"b"}"#, []),
            (#"{"\u0075id":1,"\u0078":1}"#, 422, #"{"uid":1}"#, ["!/x unknown_key"]),
            (#"{"q":1,"q":2}"#, 422, #"{"uid":0}"#, ["!/q unknown_key", "/q duplicate_key"]),
        ] as [(String, Int, String, [String])])
    func rejectsEveryKeyNothingReads(_ input: String, _ status: Int, _ output: String, _ entries: [String]) {
        #expect(run("K_Reject", input) == Produced(status: status, output: output, entries: entries))
    }

    /// A model that ignores unknown keys still reports one that repeats (`duplicate_key`). Unknown keys of
    /// different lengths are settled by their lengths alone; equal lengths, escapes, keys of 63 bytes or more and
    /// more than 32 unknown keys take the comparisons.
    @Test(
        arguments: [
            (#"{"zz":1,"zz":2}"#, ["/zz duplicate_key"]),
            (#"{"ab":1,"cd":2}"#, []),
            (#"{"q":1,"rr":2,"sss":3,"q":4}"#, ["/q duplicate_key"]),
            (#"{"q":1,"rr":2,"sss":3,"t":4}"#, []),
            (#"{"\u0061b":1,"ab":2}"#, ["/ab duplicate_key"]),
            (#"{"\u0061b":1,"ac":2}"#, []),
            (
                #"{"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk":1,"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkj":2}"#,
                []
            ),
            (
                #"{"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk":1,"x":2,"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk":3}"#,
                ["/kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk duplicate_key"]
            ),
            ("{" + (0..<40).map { #""u\#($0)":\#($0)"# }.joined(separator: ",") + "}", []),
            ("{" + (0..<40).map { #""u\#($0)":\#($0)"# }.joined(separator: ",") + #","u7":0}"#, ["/u7 duplicate_key"]),
        ] as [(String, [String])])
    func reportsRepeatedUnknownKeysOfAModelThatIgnoresThem(_ input: String, _ entries: [String]) {
        #expect(run("K_One", input) == Produced(status: 200, output: #"{"a":0}"#, entries: entries))
    }

    @Test
    func rejectsUnknownKeysAtAnyDepth() {
        #expect(
            run("K_Parent", #"{"child":{"uid":1,"x":1},"children":[{"uid":2},{"y":1}],"free":1}"#)
                == Produced(
                    status: 422, output: #"{"child":{"uid":1},"children":[{"uid":2},{"uid":0}]}"#,
                    entries: ["!/child/x unknown_key", "!/children/1/y unknown_key"]))
    }

    @Test
    func strictModeKeepsUnknownKeysAsErrorsAndMakesDuplicatesErrors() {
        #expect(
            run("K_Reject", #"{"uid":1,"uid":2,"x":0}"#, mode: .strict)
                == Produced(status: 422, output: #"{"uid":2}"#, entries: ["!/uid duplicate_key", "!/x unknown_key"]))
    }
}
