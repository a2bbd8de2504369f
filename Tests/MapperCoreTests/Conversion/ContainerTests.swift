// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// `array`, `set` and `dictionary` with and without `of` (docs/coercion-rules.md, "Containers"): YYModel's
/// `modelContainerPropertyGenericClass` tests carried over — element conversion, `element_dropped`, set dedupe by
/// output bytes, nested containers, containers of models.
struct ContainerTests {
    static let registry = ConversionFixture.snapshot([
        #"{"name":"C_User","properties":{"uid":"int32","name":"string"}}"#,
        #"{"name":"C_Strict","properties":{"uid":{"type":"int32","required":true}}}"#,
        #"{"name":"C_Containers","properties":{"#
            + #""arr":"array","set":"set","dict":"dictionary","#
            + #""ints":{"type":"array","of":"int32"},"strs":{"type":"array","of":"string"},"#
            + #""bools":{"type":"array","of":"bool"},"nums":{"type":"array","of":"number"},"#
            + #""decs":{"type":"array","of":"decimal"},"dbls":{"type":"array","of":"double"},"#
            + #""dates":{"type":"array","of":"date"},"urls":{"type":"array","of":"url"},"#
            + #""anys":{"type":"array","of":"any"},"blobs":{"type":"array","of":{"type":"data","encoding":"base64"}},"#
            + #""users":{"type":"array","of":"C_User"},"#
            + #""matrix":{"type":"array","of":{"type":"array","of":"int32"}},"#
            + #""cube":{"type":"array","of":{"type":"array","of":{"type":"array","of":"uint8"}}},"#
            + #""intSet":{"type":"set","of":"int32"},"strSet":{"type":"set","of":"string"},"#
            + #""dblSet":{"type":"set","of":"double"},"decSet":{"type":"set","of":"decimal"},"#
            + #""userSet":{"type":"set","of":"C_User"},"setOfArrays":{"type":"set","of":{"type":"array","of":"int32"}},"#
            + #""intDict":{"type":"dictionary","of":"int32"},"userDict":{"type":"dictionary","of":"C_User"},"#
            + #""listDict":{"type":"dictionary","of":{"type":"array","of":"int32"}},"#
            + #""dictList":{"type":"array","of":{"type":"dictionary","of":"string"}},"#
            + #""bounded":{"type":"array","of":{"type":"int32","minimum":0}},"#
            + #""strictUsers":{"type":"array","of":"C_Strict"}"#
            + "}}",
        #"{"name":"C_Defaults","properties":{"ints":{"type":"array","of":"int32","default":[9]},"#
            + #""tags":{"type":"set","of":"string","default":["x"]},"map":{"type":"dictionary","default":{"k":1}}}}"#,
    ])

    private func run(_ model: String, _ input: String, mode: ConversionOptions.Mode = .lax) -> Produced {
        Self.registry.produce(model, input, mode: mode)
    }

    /// `{"<property>": value}` as `C_Containers`: the property's bytes (nil when omitted) and its entries.
    private func property(_ name: String, _ value: String, mode: ConversionOptions.Mode = .lax) -> Produced {
        run("C_Containers", "{\"\(name)\":\(value)}", mode: mode)
    }

    private func expected(_ name: String, _ value: String?, _ entries: [String] = [], status: Int = 200) -> Produced {
        Produced(status: status, output: value.map { "{\"\(name)\":\($0)}" } ?? "{}", entries: entries)
    }

    // MARK: - Without `of`

    @Test(
        arguments: [
            ("arr", #"[1,"x",null,{"b":1,"a":[]},1.50,1e3,true]"#, #"[1,"x",null,{"b":1,"a":[]},1.50,1e3,true]"#),
            ("arr", "[ ]", "[]"), ("arr", "[null]", "[null]"),
            ("arr", #"["caf\u00e9","\/","\u001F"]"#, #"["café","/","\u001f"]"#),
            ("arr", "[[[]]]", "[[[]]]"), ("dict", #"{ "b" : 1 , "a" : null }"#, #"{"b":1,"a":null}"#),
            ("dict", "{}", "{}"),
            ("dict", #"{"caf\u00e9":{"x":[null]}}"#, #"{"café":{"x":[null]}}"#),
            (
                "set", #"[1,1.0,"1",1,{"a":1},{"a":1},{"a":1,"b":2},{"b":2,"a":1},[1],[1],null,null,"\u0031"]"#,
                #"[1,"1",{"a":1},{"a":1,"b":2},[1],null]"#
            ),
        ] as [(String, String, String)])
    func keepsUntypedContainersAsTheyAre(_ name: String, _ input: String, _ output: String) {
        #expect(property(name, input) == expected(name, output))
    }

    @Test(
        arguments: [
            ("arr", "{}"), ("arr", "\"[]\""), ("arr", "1"), ("arr", "true"), ("set", "{}"), ("set", "\"x\""),
            ("dict", "[]"), ("dict", "\"{}\""), ("dict", "0"), ("ints", "{}"), ("ints", "\"1\""), ("intDict", "[1]"),
            ("users", "{\"uid\":1}"), ("intSet", "false"),
        ] as [(String, String)])
    func dropsAContainerOfTheWrongKind(_ name: String, _ input: String) {
        #expect(property(name, input) == expected(name, nil, ["/\(name) wrong_type"]))
    }

    @Test(arguments: ["arr", "set", "dict", "ints", "intSet", "intDict", "users", "matrix"])
    func leavesANullContainerWithoutAValue(_ name: String) {
        #expect(property(name, "null") == expected(name, nil))
    }

    @Test
    func reportsDuplicateKeysInsideUntypedContainers() {
        #expect(
            property("dict", #"{"a":1,"b":2,"a":3}"#) == expected("dict", #"{"a":3,"b":2}"#, ["/dict/a duplicate_key"]))
        #expect(property("arr", #"[{"a":1,"a":2}]"#) == expected("arr", #"[{"a":2}]"#, ["/arr/0/a duplicate_key"]))
    }

    // MARK: - With `of`: element rules

    @Test(
        arguments: [
            (
                "ints", #"[1,"2","x",3.7]"#, "[1,2,3]",
                ["/ints/1 coerced", "/ints/2 element_dropped", "/ints/3 fraction_truncated"]
            ),
            ("ints", "[]", "[]", [String]()),
            (
                "ints", #"[null,"null","<null>",1e10,[1],{},"",true,false,0,-0,"-0"]"#, "[1,0,0,0,0]",
                [
                    "/ints/0 element_dropped", "/ints/1 element_dropped", "/ints/2 element_dropped",
                    "/ints/3 element_dropped",
                    "/ints/4 element_dropped", "/ints/5 element_dropped", "/ints/6 element_dropped", "/ints/7 coerced",
                    "/ints/8 coerced", "/ints/11 coerced",
                ]
            ),
            (
                "ints", #"["yes","NO"," 5 ",2147483648,-2147483648]"#, "[1,0,5,-2147483648]",
                ["/ints/0 coerced", "/ints/1 coerced", "/ints/2 coerced", "/ints/3 element_dropped"]
            ),
            (
                "strs", #"[1,null,"a",true,{},"",[],1.50]"#, #"["1","a","true","","1.50"]"#,
                [
                    "/strs/0 coerced", "/strs/1 element_dropped", "/strs/3 coerced", "/strs/4 element_dropped",
                    "/strs/6 element_dropped", "/strs/7 coerced",
                ]
            ),
            (
                "bools", #"[0,1,2,"yes","null",null,"x",false]"#, "[false,true,true,true,false]",
                [
                    "/bools/2 coerced", "/bools/3 coerced", "/bools/4 element_dropped", "/bools/5 element_dropped",
                    "/bools/6 element_dropped",
                ]
            ),
            (
                "nums", #"[1.50,"2","null",null,"x",true]"#, #"[1.50,2,true]"#,
                ["/nums/1 coerced", "/nums/2 element_dropped", "/nums/3 element_dropped", "/nums/4 element_dropped"]
            ),
            (
                "decs", #"[1.50,"2.0",null,"true",123456789012345678901234567890123456789]"#, "[1.5,2]",
                ["/decs/1 coerced", "/decs/2 element_dropped", "/decs/3 element_dropped", "/decs/4 element_dropped"]
            ),
            (
                "dbls", #"[0.1,1e309,"1e3",null,-0]"#, "[0.1,1000,0]",
                ["/dbls/1 element_dropped", "/dbls/2 coerced", "/dbls/3 element_dropped"]
            ),
            (
                "dates", #"["2015-09-03","2015-02-29",0,null,true,"2015-09-03T16:12:21.1234567Z"]"#,
                #"["2015-09-03T00:00:00Z","1970-01-01T00:00:00Z","2015-09-03T16:12:21.123456Z"]"#,
                [
                    "/dates/1 element_dropped", "/dates/2 coerced", "/dates/3 element_dropped",
                    "/dates/4 element_dropped",
                    "/dates/5 fraction_truncated",
                ]
            ),
            (
                "urls", #"[" http://a.b ","","a b",null,"x"]"#, #"["http://a.b","x"]"#,
                ["/urls/1 element_dropped", "/urls/2 element_dropped", "/urls/3 element_dropped"]
            ),
            (
                "anys", #"[null,1,{"a":null},[null],"null"]"#, #"[1,{"a":null},[null],"null"]"#,
                ["/anys/0 element_dropped"]
            ),
            (
                "blobs", #"["YQ","!!",1,"YWJj"]"#, #"["YQ==","YWJj"]"#,
                ["/blobs/1 element_dropped", "/blobs/2 element_dropped"]
            ),
        ] as [(String, String, String, [String])])
    func convertsEachElementAndDropsWhatGivesNoValue(
        _ name: String, _ input: String, _ output: String, _ entries: [String]
    ) {
        #expect(property(name, input) == expected(name, output, entries))
    }

    @Test
    func strictModeMakesElementEntriesErrors() {
        #expect(
            property("ints", #"[1,"2","x"]"#, mode: .strict)
                == expected("ints", "[1,2]", ["!/ints/1 coerced", "!/ints/2 element_dropped"], status: 422))
    }

    @Test
    func keepsAnElementThatFailsAConstraintAndFailsTheModel() {
        #expect(
            property("bounded", "[-1,1,\"x\"]")
                == expected(
                    "bounded", "[-1,1]", ["!/bounded/0 constraint_failed", "/bounded/2 element_dropped"], status: 422))
    }

    // MARK: - Nested containers

    @Test(
        arguments: [
            (
                "matrix", #"[[1,"2"],[3,"x"],"nope",null,[],[[4]]]"#, "[[1,2],[3],[],[]]",
                [
                    "/matrix/0/1 coerced", "/matrix/1/1 element_dropped", "/matrix/2 element_dropped",
                    "/matrix/3 element_dropped",
                    "/matrix/5/0 element_dropped",
                ]
            ),
            (
                "cube", #"[[[1,256],[]],[[-1]],[null]]"#, "[[[1],[]],[[]],[]]",
                ["/cube/0/0/1 element_dropped", "/cube/1/0/0 element_dropped", "/cube/2/0 element_dropped"]
            ),
            (
                "listDict", #"{"a":[1,"x"],"b":"no","c":[],"a\/b":[2.5]}"#, #"{"a":[1],"c":[],"a/b":[2]}"#,
                ["/listDict/a/1 element_dropped", "/listDict/b element_dropped", "/listDict/a~1b/0 fraction_truncated"]
            ),
            (
                "dictList", #"[{"k":1},{"k":null},3,{}]"#, #"[{"k":"1"},{},{}]"#,
                ["/dictList/0/k coerced", "/dictList/1/k element_dropped", "/dictList/2 element_dropped"]
            ),
        ] as [(String, String, String, [String])])
    func nestsContainersThroughPropertyObjects(_ name: String, _ input: String, _ output: String, _ entries: [String]) {
        #expect(property(name, input) == expected(name, output, entries))
    }

    // MARK: - Sets

    @Test(
        arguments: [
            ("intSet", #"[1,"1",1.0]"#, "[1]", ["/intSet/1 coerced"]),
            ("intSet", "[3,1,3,2,1]", "[3,1,2]", [String]()),
            ("intSet", #"[1e0,10e-1,"x",1]"#, "[1]", ["/intSet/2 element_dropped"]),
            ("strSet", #"["a","a","b","\u0061",1,"1"]"#, #"["a","b","1"]"#, ["/strSet/4 coerced"]),
            (
                "dblSet", #"[1,1.0,1e0,"1",0.1,0.10000000000000001]"#, "[1,0.1]",
                ["/dblSet/3 coerced", "/dblSet/5 precision_lost"]
            ),
            ("decSet", #"[1.50,1.5,"1.500",15e-1,2]"#, "[1.5,2]", ["/decSet/2 coerced"]),
            (
                "userSet", #"[{"uid":1},{"uid":"1"},{"name":"x","uid":1},{"uid":1,"name":"x"},{"uid":2}]"#,
                #"[{"uid":1},{"uid":1,"name":"x"},{"uid":2}]"#, ["/userSet/1/uid coerced"]
            ),
            (
                "setOfArrays", #"[[1,2],[1,"2"],[2,1],[1,2,"x"]]"#, "[[1,2],[2,1]]",
                ["/setOfArrays/1/1 coerced", "/setOfArrays/3/2 element_dropped"]
            ),
        ] as [(String, String, String, [String])])
    func removesElementsWhoseOutputBytesRepeat(_ name: String, _ input: String, _ output: String, _ entries: [String]) {
        #expect(property(name, input) == expected(name, output, entries))
    }

    // MARK: - Dictionaries

    @Test(
        arguments: [
            (
                "intDict", #"{"a":"1","b":"x","c":2.5,"d":null,"e":3}"#, #"{"a":1,"c":2,"e":3}"#,
                [
                    "/intDict/a coerced", "/intDict/b element_dropped", "/intDict/c fraction_truncated",
                    "/intDict/d element_dropped",
                ]
            ),
            ("intDict", #"{"a\u0062":1,"~":2}"#, #"{"ab":1,"~":2}"#, [String]()),
            ("intDict", #"{"a":1,"a":"x"}"#, "{}", ["/intDict/a duplicate_key", "/intDict/a element_dropped"]),
            (
                "userDict", #"{"x":{"uid":"5"},"y":"nope","z":null,"w":{}}"#, #"{"x":{"uid":5},"w":{"uid":0}}"#,
                ["/userDict/x/uid coerced", "/userDict/y element_dropped", "/userDict/z element_dropped"]
            ),
        ] as [(String, String, String, [String])])
    func convertsDictionaryValuesAndKeepsKeys(_ name: String, _ input: String, _ output: String, _ entries: [String]) {
        #expect(property(name, input) == expected(name, output, entries))
    }

    // MARK: - Models as elements

    @Test
    func convertsModelElementsAndDropsTheOnesThatAreNotObjects() {
        #expect(
            property("users", #"[{"uid":1},"x",null,{"uid":"2","name":3},[]]"#)
                == expected(
                    "users",
                    #"[{"uid":1},{"uid":2,"name":"3"}]"#,
                    [
                        "/users/1 element_dropped", "/users/2 element_dropped", "/users/3/uid coerced",
                        "/users/3/name coerced",
                        "/users/4 element_dropped",
                    ]))
    }

    @Test
    func keepsAModelElementThatFailsValidationAndFailsTheWhole() {
        #expect(
            property("strictUsers", #"[{"uid":1},{},{"uid":null}]"#)
                == expected(
                    "strictUsers",
                    #"[{"uid":1},{"uid":0},{"uid":0}]"#,
                    [
                        "!/strictUsers/1/uid missing_required", "/strictUsers/2/uid null_to_default",
                        "!/strictUsers/2/uid missing_required",
                    ], status: 422))
    }

    // MARK: - Defaults

    @Test(
        arguments: [
            ("{}", #"{"ints":[9],"tags":["x"],"map":{"k":1}}"#, [String]()),
            (
                #"{"ints":"x","tags":{},"map":[]}"#, #"{"ints":[9],"tags":["x"],"map":{"k":1}}"#,
                ["/ints wrong_type", "/tags wrong_type", "/map wrong_type"]
            ),
            (#"{"ints":null,"tags":null,"map":null}"#, "{}", []),
            (#"{"ints":["x"],"tags":[],"map":{}}"#, #"{"ints":[],"tags":[],"map":{}}"#, ["/ints/0 element_dropped"]),
        ] as [(String, String, [String])])
    func usesADeclaredDefaultOnlyWhenAbsentOrDropped(_ input: String, _ output: String, _ entries: [String]) {
        #expect(run("C_Defaults", input) == Produced(status: 200, output: output, entries: entries))
    }
}
