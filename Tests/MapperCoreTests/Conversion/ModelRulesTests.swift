// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// Model-level rules (docs/semantics.md, "Where model rules apply", "Reports"; docs/schema.md, "Model options"): nested
/// and recursive models, `classForDictionary`, inheritance, blacklist/whitelist, `willTransform`, `validate`,
/// constraints, defaults and strict mode — YYModel's nested-model, custom-class and protocol-hook tests carried over to
/// schemas, with the hooks applied at every depth.
struct ModelRulesTests {
    static let registry = ConversionFixture.snapshot([
        // Nested and recursive models.
        #"{"name":"M_User","properties":{"uid":"int64","name":"string"}}"#,
        #"{"name":"M_Repo","properties":{"id":"uint64","owner":"M_User"}}"#,
        #"{"name":"M_Node","properties":{"value":"int32","next":"M_Node"}}"#,
        #"{"name":"M_Tree","properties":{"label":"string","children":{"type":"array","of":"M_Tree"}}}"#,
        #"{"name":"M_A","properties":{"b":"M_B","n":"int32"}}"#,
        #"{"name":"M_B","properties":{"a":"M_A","s":"string"}}"#,
        // classForDictionary.
        #"{"name":"S_Shape","properties":{"kind":"string","size":"int32"},"classForDictionary":["#
            + #"{"when":{"key":"kind","equals":"circle"},"use":"S_Circle"},{"when":{"has":"side"},"use":"S_Square"}]}"#,
        #"{"name":"S_Circle","extends":"S_Shape","properties":{"radius":"double"},"#
            + #""classForDictionary":[{"when":{"has":"radius"},"use":"S_BigCircle"}]}"#,
        #"{"name":"S_BigCircle","extends":"S_Circle","properties":{"big":{"type":"bool","default":true}}}"#,
        #"{"name":"S_Square","extends":"S_Shape","properties":{"side":"int32"}}"#,
        #"{"name":"S_Holder","properties":{"shape":"S_Shape","shapes":{"type":"array","of":"S_Shape"},"#
            + #""byName":{"type":"dictionary","of":"S_Shape"},"circles":{"type":"set","of":"S_Circle"}}}"#,
        #"{"name":"N_Base","properties":{"x":"int32"},"classForDictionary":[{"when":{"has":"x"},"use":"N_Grand"}]}"#,
        #"{"name":"N_Child","extends":"N_Base","properties":{"c":{"type":"string","default":"child"}}}"#,
        #"{"name":"N_Grand","extends":"N_Child","properties":{"g":{"type":"string","default":"grand"}}}"#,
        #"{"name":"O_Shape","willTransform":{"rename":{"type":"kind"}},"properties":{"kind":"string"},"#
            + #""classForDictionary":[{"when":{"key":"kind","equals":"circle"},"use":"O_Circle"}]}"#,
        #"{"name":"O_Circle","extends":"O_Shape","willTransform":{"rename":{"r":"radius"}},"#
            + #""properties":{"radius":"double","r":"double"}}"#,
        // Inheritance.
        #"{"name":"I_Parent","properties":{"a":"int32","b":"string","c":"bool"}}"#,
        #"{"name":"I_Child","extends":"I_Parent","properties":{"d":"string","b":"int32"}}"#,
        #"{"name":"I_Grand","extends":"I_Child","properties":{"e":"string","a":"string"}}"#,
        #"{"name":"I_RParent","properties":{"a":"int32","secret":"string","b":"string"},"blacklist":["secret"],"#
            + #""validate":{"required":["a"]},"unknownKeys":"reject","willTransform":{"unwrap":"data"},"#
            + #""transformToJSON":{"set":{"v":1}}}"#,
        #"{"name":"I_RChild","extends":"I_RParent","properties":{"c":"string"}}"#,
        #"{"name":"I_ROff","extends":"I_RParent","properties":{},"blacklist":null,"validate":null,"#
            + #""unknownKeys":null,"willTransform":null,"transformToJSON":null}"#,
        #"{"name":"I_ROwn","extends":"I_RParent","properties":{},"blacklist":["b"],"validate":{"required":["secret"]}}"#,
        // Blacklist and whitelist.
        #"{"name":"B_Lists","unknownKeys":"reject","properties":{"a":"int32","b":"string","c":"string","d":"int32"},"#
            + #""whitelist":["a","b","d","nope"],"blacklist":["b","d","zzz"]}"#,
        #"{"name":"B_Black","unknownKeys":"reject","properties":{"a":"int32","hidden":{"type":"int32","key":"h.x"}},"#
            + #""blacklist":["hidden"]}"#,
        // willTransform.
        #"{"name":"W_Unwrap","willTransform":{"unwrap":"data"},"properties":{"uid":"int32"}}"#,
        #"{"name":"W_Deep","willTransform":{"unwrap":"a.b"},"properties":{"uid":"int32"}}"#,
        #"{"name":"W_Rename","willTransform":{"rename":{"user_id":"uid","a.b":"flat"}},"#
            + #""properties":{"uid":"int32","flat":"string"}}"#,
        #"{"name":"W_Remove","unknownKeys":"reject","willTransform":{"remove":["secret","x"]},"#
            + #""properties":{"secret":"string","uid":"int32"}}"#,
        #"{"name":"W_Defaults","willTransform":{"defaults":{"kind":"print","n":"x","m.k":3}},"#
            + #""properties":{"kind":"string","n":"int32","k":{"type":"int32","key":"m.k"}}}"#,
        #"{"name":"W_All","willTransform":{"unwrap":"data","rename":{"old":"new"},"remove":["new2"],"defaults":{"d":"1"}},"#
            + #""properties":{"new":"int32","new2":"string","d":"int32"}}"#,
        #"{"name":"W_RejectSteps","unknownKeys":"reject","willTransform":{"unwrap":"d","rename":{"a":"b"},"remove":["r"],"#
            + #""defaults":{"zz":1}},"properties":{"uid":"int32"}}"#,
        #"{"name":"W_RemovePath","willTransform":{"remove":["x.y"],"rename":{"p.q":"m.n"}},"#
            + #""properties":{"x":"any","n":{"type":"int32","key":"m.n"}}}"#,
        #"{"name":"P_Reject","unknownKeys":"reject","properties":{},"classForDictionary":[{"when":{"has":"t"},"use":"P_RejectHit"}]}"#,
        #"{"name":"P_RejectHit","extends":"P_Reject","properties":{}}"#,
        #"{"name":"W_DefaultsUnwrap","willTransform":{"unwrap":"data","defaults":{"n":"x","a/b":{"c~d":"1"}}},"#
            + #""validate":{"requireAny":[["s"]]},"properties":{"n":"int32","k":{"type":"int32","key":"a/b.c~d"},"s":"string"}}"#,
        #"{"name":"W_Holder","properties":{"inner":"W_Unwrap","list":{"type":"array","of":"W_Rename"}}}"#,
        // validate.
        #"{"name":"V_Req","properties":{"uid":"int64","name":"string","flag":{"type":"bool","required":true},"#
            + #""tags":{"type":"array","of":"string"}},"validate":{"required":["tags","name","uid"]}}"#,
        #"{"name":"V_Any","properties":{"homepage":"url","author":"M_User","count":"int32"},"#
            + #""validate":{"requireAny":[["homepage","author"],["count"]]}}"#,
        #"{"name":"V_AnyDefault","properties":{"alt":{"type":"int32","default":5},"s":{"type":"string","default":"x"}},"#
            + #""validate":{"requireAny":[["alt"],["s"]]}}"#,
        #"{"name":"V_Wrap","properties":{"inner":"V_Any","reqs":{"type":"dictionary","of":"V_Req"}}}"#,
        // Defaults.
        #"{"name":"D_All","properties":{"s":{"type":"string","default":"n/a"},"i":{"type":"int32","default":7},"#
            + #""b":{"type":"bool","default":true},"u":{"type":"M_User","default":{"uid":5}},"#
            + #""dt":{"type":"date","default":"2015-09-03"},"dec":{"type":"decimal","default":1.50},"#
            + #""m":{"type":"D_Mapped","default":{"id":9}}}}"#,
        #"{"name":"D_Mapped","properties":{"uid":{"type":"int32","key":"id"}}}"#,
        // Report order.
        #"{"name":"R_Order","willTransform":{"rename":{"old":"a"},"defaults":{"c":"x"}},"unknownKeys":"reject","#
            + #""properties":{"a":"int32","b":"R_Inner","c":"int32","d":{"type":"array","of":"int32"},"e":"string","#
            + #""f":"string"},"validate":{"required":["e"],"requireAny":[["f"]]}}"#,
        #"{"name":"R_Inner","unknownKeys":"reject","properties":{"x":"int32","y":{"type":"string","required":true}}}"#,
    ])

    private func run(
        _ model: String, _ input: String, mode: ConversionOptions.Mode = .lax,
        output: ConversionOptions.Form = .model
    ) -> Produced {
        Self.registry.produce(model, input, mode: mode, output: output)
    }

    // MARK: - Nested and recursive models

    @Test(
        arguments: [
            (
                #"{"id":"1","owner":{"uid":"2","name":"x"}}"#, #"{"id":1,"owner":{"uid":2,"name":"x"}}"#,
                ["/id coerced", "/owner/uid coerced"]
            ),
            (#"{"id":1,"owner":"x"}"#, #"{"id":1}"#, ["/owner wrong_type"]),
            (#"{"id":1,"owner":[]}"#, #"{"id":1}"#, ["/owner wrong_type"]),
            (#"{"id":1,"owner":null}"#, #"{"id":1}"#, [String]()),
            (#"{"owner":{}}"#, #"{"id":0,"owner":{"uid":0}}"#, []),
            (#"{"owner":{"name":null,"uid":true,"extra":{}}}"#, #"{"id":0,"owner":{"uid":1}}"#, ["/owner/uid coerced"]),
        ] as [(String, String, [String])])
    func convertsNestedModelsRecursively(_ input: String, _ output: String, _ entries: [String]) {
        #expect(run("M_Repo", input) == Produced(status: 200, output: output, entries: entries))
    }

    @Test
    func followsALinkedListAsFarAsTheDataGoes() {
        #expect(
            run("M_Node", #"{"value":1,"next":{"value":2,"next":{"value":"3","next":null}}}"#)
                == Produced(
                    status: 200, output: #"{"value":1,"next":{"value":2,"next":{"value":3}}}"#,
                    entries: ["/next/next/value coerced"]))
        let depth = 200
        let input =
            String(repeating: #"{"value":1,"next":"#, count: depth) + "null" + String(repeating: "}", count: depth)
        let output =
            String(repeating: #"{"value":1,"next":"#, count: depth - 1) + #"{"value":1}"#
            + String(repeating: "}", count: depth - 1)
        #expect(run("M_Node", input) == Produced(status: 200, output: output, entries: []))
    }

    @Test
    func convertsTreesAndMutuallyRecursiveModels() {
        #expect(
            run("M_Tree", #"{"label":"r","children":[{"label":"a","children":[{"label":1}]},{"children":[]},"x"]}"#)
                == Produced(
                    status: 200,
                    output: #"{"label":"r","children":[{"label":"a","children":[{"label":"1"}]},{"children":[]}]}"#,
                    entries: ["/children/0/children/0/label coerced", "/children/2 element_dropped"]))
        #expect(
            run("M_A", #"{"b":{"a":{"b":{"s":5},"n":"2"}}}"#)
                == Produced(
                    status: 200,
                    output: #"{"b":{"a":{"b":{"s":"5"},"n":2}},"n":0}"#,
                    entries: ["/b/a/b/s coerced", "/b/a/n coerced"]))
    }

    // MARK: - classForDictionary

    @Test(
        arguments: [
            ("S_Shape", #"{"kind":"circle","radius":2}"#, #"{"kind":"circle","size":0,"radius":2}"#, []),
            ("S_Shape", #"{"side":3,"kind":"square"}"#, #"{"kind":"square","size":0,"side":3}"#, []),
            ("S_Shape", #"{"side":null}"#, #"{"size":0,"side":0}"#, ["/side null_to_default"]),
            ("S_Shape", #"{"kind":"Circle","radius":2}"#, #"{"kind":"Circle","size":0}"#, []),
            ("S_Shape", #"{"kind":"circle","side":1}"#, #"{"kind":"circle","size":0,"radius":0}"#, []),
            ("S_Shape", #"{"kind":"circ\u006ce"}"#, #"{"kind":"circle","size":0,"radius":0}"#, []),
            ("S_Circle", #"{"radius":2}"#, #"{"size":0,"radius":2,"big":true}"#, []),
            ("S_Circle", #"{"kind":"x"}"#, #"{"kind":"x","size":0,"radius":0}"#, []),
            ("N_Base", #"{"x":1}"#, #"{"x":1,"c":"child","g":"grand"}"#, []),
            ("N_Child", #"{"x":1}"#, #"{"x":1,"c":"child"}"#, []),
            ("O_Shape", #"{"type":"circle","r":2,"radius":3}"#, #"{"kind":"circle","radius":3,"r":2}"#, []),
            ("O_Circle", #"{"r":2}"#, #"{"radius":2,"r":0}"#, []),
        ] as [(String, String, String, [String])])
    func picksTheModelToBuildAfterWillTransformWithoutRunningThePickedModelsOwnHooks(
        _ model: String, _ input: String, _ output: String, _ entries: [String]
    ) {
        #expect(run(model, input) == Produced(status: 200, output: output, entries: entries))
    }

    @Test
    func appliesClassForDictionaryInPropertiesAndContainers() {
        let input =
            #"{"shape":{"side":"2"},"shapes":[{"kind":"circle"},{"side":1},{}],"#
            + #""byName":{"c":{"kind":"circle","radius":1.5}},"circles":[{"radius":1},{"kind":"circle"}]}"#
        #expect(
            run("S_Holder", input)
                == Produced(
                    status: 200,
                    output:
                        #"{"shape":{"size":0,"side":2},"shapes":[{"kind":"circle","size":0,"radius":0},{"size":0,"side":1},"#
                        + #"{"size":0}],"byName":{"c":{"kind":"circle","size":0,"radius":1.5}},"#
                        + #""circles":[{"size":0,"radius":1,"big":true},{"kind":"circle","size":0,"radius":0}]}"#,
                    entries: ["/shape/side coerced"]))
    }

    @Test
    func evaluatesPredicatesOnTheLastOfDuplicateKeys() {
        #expect(
            PredicateCase.registry.produce("P3", #"{"n":2,"n":1}"#)
                == Produced(status: 200, output: #"{"hit":"y"}"#, entries: ["/n duplicate_key"]))
        #expect(
            PredicateCase.registry.produce("P3", #"{"n":1,"n":2}"#)
                == Produced(status: 200, output: "{}", entries: ["/n duplicate_key"]))
    }

    @Test(arguments: PredicateCase.all)
    func evaluatesPredicatesOnExactJSONValues(_ item: PredicateCase) {
        let produced = PredicateCase.registry.produce("P\(item.model)", item.input)
        #expect(produced == Produced(status: 200, output: item.hit ? #"{"hit":"y"}"# : "{}", entries: []))
    }

    // MARK: - Inheritance

    @Test
    func putsParentPropertiesFirstAndKeepsAnOverridesPosition() {
        #expect(
            run("I_Child", #"{"d":"x","b":"5","a":1,"c":true}"#)
                == Produced(status: 200, output: #"{"a":1,"b":5,"c":true,"d":"x"}"#, entries: ["/b coerced"]))
        #expect(
            run("I_Grand", #"{"e":"e","d":"d","c":0,"b":2,"a":1}"#)
                == Produced(status: 200, output: #"{"a":"1","b":2,"c":false,"d":"d","e":"e"}"#, entries: ["/a coerced"])
        )
    }

    @Test
    func inheritsModelRulesUnlessRedeclared() {
        #expect(
            run("I_RChild", #"{"data":{"a":1,"secret":"s","c":"x"}}"#)
                == Produced(status: 200, output: #"{"a":1,"c":"x"}"#, entries: []))
        #expect(
            run("I_RChild", #"{"data":{"a":1,"secret":"s","c":"x"}}"#, output: .wire)
                == Produced(status: 200, output: #"{"data":{"a":1,"c":"x","v":1}}"#, entries: []))
        #expect(
            run("I_RChild", #"{"data":{"z":1}}"#)
                == Produced(
                    status: 422, output: #"{"a":0}"#, entries: ["!/data/z unknown_key", "!/data/a missing_required"]))
        #expect(
            run("I_ROwn", #"{"data":{"b":"x","q":1}}"#)
                == Produced(
                    status: 422, output: #"{"a":0}"#,
                    entries: ["!/data/q unknown_key", "!/data/secret missing_required"]))
        #expect(
            run("I_ROwn", #"{"data":{"secret":"s","b":"x"}}"#)
                == Produced(status: 200, output: #"{"a":0,"secret":"s"}"#, entries: []))
    }

    @Test
    func checksOnlyTheUnwrappedObjectForUnknownKeys() {
        #expect(
            run("I_RChild", #"{"data":{"a":1},"meta":{},"x":1}"#)
                == Produced(status: 200, output: #"{"a":1}"#, entries: []))
    }

    @Test
    func turnsAnInheritedRuleOffWithAnExplicitNull() {
        #expect(
            run("I_ROff", #"{"a":"1","secret":"s","zz":1}"#)
                == Produced(status: 200, output: #"{"a":1,"secret":"s"}"#, entries: ["/a coerced"]))
        #expect(
            run("I_ROff", #"{"secret":"s"}"#, output: .wire)
                == Produced(status: 200, output: #"{"a":0,"secret":"s"}"#, entries: []))
    }

    // MARK: - Blacklist and whitelist

    @Test
    func letsTheBlacklistBeatTheWhitelistAndCountsBlacklistedKeysAsRead() {
        #expect(run("B_Lists", #"{"a":1,"b":"x","d":2}"#) == Produced(status: 200, output: #"{"a":1}"#, entries: []))
        #expect(run("B_Lists", "{}", output: .wire) == Produced(status: 200, output: #"{"a":0}"#, entries: []))
        #expect(
            run("B_Black", #"{"a":"1","h":{"x":"y"}}"#)
                == Produced(status: 200, output: #"{"a":1}"#, entries: ["/a coerced"]))
        #expect(run("B_Black", #"{"q":1}"#) == Produced(status: 422, output: #"{"a":0}"#, entries: ["!/q unknown_key"]))
    }

    // MARK: - willTransform

    @Test(
        arguments: [
            ("W_Unwrap", #"{"data":{"uid":"1"},"meta":1}"#, 200, #"{"uid":1}"#, ["/data/uid coerced"]),
            ("W_Unwrap", #"{"uid":1}"#, 422, "{}", ["!/data rule_failed"]),
            ("W_Unwrap", #"{"data":[]}"#, 422, "{}", ["!/data rule_failed"]),
            ("W_Unwrap", #"{"data":null}"#, 422, "{}", ["!/data rule_failed"]),
            ("W_Unwrap", #"{"data":{}}"#, 200, #"{"uid":0}"#, []),
            ("W_Deep", #"{"a":{"b":{"uid":2}}}"#, 200, #"{"uid":2}"#, []),
            ("W_Deep", #"{"a":{"b":1}}"#, 422, "{}", ["!/a/b rule_failed"]),
            ("W_Deep", #"{"a":1}"#, 422, "{}", ["!/a/b rule_failed"]),
            ("W_Rename", #"{"user_id":"5"}"#, 200, #"{"uid":5}"#, ["/user_id coerced"]),
            ("W_Rename", #"{"user_id":1,"uid":2}"#, 200, #"{"uid":1}"#, ["/uid duplicate_key"]),
            ("W_Rename", #"{"uid":2}"#, 200, #"{"uid":2}"#, []),
            ("W_Rename", #"{"zz":1,"zz":2,"uid":1}"#, 200, #"{"uid":1}"#, ["/zz duplicate_key"]),
            ("W_Rename", #"{"uid":1,"uid":"2"}"#, 200, #"{"uid":2}"#, ["/uid duplicate_key", "/uid coerced"]),
            ("W_Rename", #"{"user_id":1,"user_id":2}"#, 200, #"{"uid":2}"#, ["/user_id duplicate_key"]),
            ("W_Unwrap", #"{"data":{"uid":1,"uid":2}}"#, 200, #"{"uid":2}"#, ["/data/uid duplicate_key"]),
            ("W_Unwrap", #"{"data":{"uid":1},"data":{"uid":2}}"#, 200, #"{"uid":2}"#, ["/data duplicate_key"]),
            ("W_Rename", #"{"a":{"b":7}}"#, 200, #"{"uid":0,"flat":"7"}"#, ["/a/b coerced"]),
            ("W_Remove", #"{"secret":"s","uid":1,"x":{"y":1}}"#, 200, #"{"uid":1}"#, []),
            ("W_Defaults", "{}", 200, #"{"kind":"print","n":0,"k":3}"#, ["/n not_a_number"]),
            ("W_Defaults", #"{"kind":null,"n":1,"m":{"k":"2"}}"#, 200, #"{"n":1,"k":2}"#, ["/m/k coerced"]),
            (
                "W_All", #"{"data":{"old":"2","new":9,"new2":"x"}}"#, 200, #"{"new":2,"d":1}"#,
                ["/data/new duplicate_key", "/data/old coerced", "/data/d coerced"]
            ),
            ("W_RejectSteps", #"{"d":{"a":1,"uid":1,"r":2},"side":1}"#, 200, #"{"uid":1}"#, []),
            ("W_RejectSteps", #"{"d":{"q":1}}"#, 422, #"{"uid":0}"#, ["!/d/q unknown_key"]),
            ("W_RemovePath", #"{"x":{"y":1,"z":2},"p":{"q":"3"}}"#, 200, #"{"x":{"z":2},"n":3}"#, ["/p/q coerced"]),
            ("W_RemovePath", #"{"x":5,"p":5}"#, 200, #"{"x":5,"n":0}"#, []),
            ("P_Reject", #"{"t":1}"#, 200, "{}", []),
            ("P_Reject", #"{"u":1}"#, 422, "{}", ["!/u unknown_key"]),
            (
                "W_DefaultsUnwrap", #"{"data":{}}"#, 422, #"{"n":0,"k":1}"#,
                ["/data/n not_a_number", "/data/a~1b/c~0d coerced", "!/data rule_failed"]
            ),
            (
                "W_Holder", #"{"inner":{"data":{"uid":"3"}},"list":[{"user_id":"4"}]}"#, 200,
                #"{"inner":{"uid":3},"list":[{"uid":4}]}"#, ["/inner/data/uid coerced", "/list/0/user_id coerced"]
            ),
            ("W_Holder", #"{"inner":{"uid":3}}"#, 422, #"{"inner":{}}"#, ["!/inner/data rule_failed"]),
        ] as [(String, String, Int, String, [String])])
    func runsWillTransformStepsInOrderReportingOriginalPaths(
        _ model: String, _ input: String, _ status: Int, _ output: String, _ entries: [String]
    ) {
        #expect(run(model, input) == Produced(status: status, output: output, entries: entries))
    }

    // MARK: - validate

    @Test(
        arguments: [
            (
                "{}", 422, #"{"uid":0,"flag":false}"#,
                [
                    "!/uid missing_required", "!/name missing_required", "!/flag missing_required",
                    "!/tags missing_required",
                ]
            ),
            (
                #"{"uid":0,"name":"","flag":false,"tags":[]}"#, 200, #"{"uid":0,"name":"","flag":false,"tags":[]}"#,
                [String]()
            ),
            (
                #"{"uid":"1","name":1,"flag":1,"tags":["a",null]}"#, 200,
                #"{"uid":1,"name":"1","flag":true,"tags":["a"]}"#,
                ["/uid coerced", "/name coerced", "/tags/1 element_dropped"]
            ),
            (
                #"{"uid":null,"name":null,"flag":"x","tags":null}"#, 422, #"{"uid":0,"flag":false}"#,
                [
                    "/uid null_to_default", "/flag not_a_number", "!/uid missing_required", "!/name missing_required",
                    "!/flag missing_required", "!/tags missing_required",
                ]
            ),
            (
                #"{"uid":"abc","name":[],"flag":"null","tags":"x"}"#, 422, #"{"uid":0,"flag":false}"#,
                [
                    "/uid not_a_number", "/name wrong_type", "/flag null_to_default", "/tags wrong_type",
                    "!/uid missing_required",
                    "!/name missing_required", "!/flag missing_required", "!/tags missing_required",
                ]
            ),
            (
                #"{"uid":1e30,"name":"n","flag":true,"tags":[]}"#, 422, #"{"uid":0,"name":"n","flag":true,"tags":[]}"#,
                ["/uid out_of_range", "!/uid missing_required"]
            ),
        ] as [(String, Int, String, [String])])
    func requiresPresentNonNullConvertedValues(_ input: String, _ status: Int, _ output: String, _ entries: [String]) {
        #expect(run("V_Req", input) == Produced(status: status, output: output, entries: entries))
    }

    @Test(
        arguments: [
            ("V_Any", "{}", 422, #"{"count":0}"#, ["! rule_failed", "! rule_failed"]),
            (
                "V_Any", #"{"homepage":"a b","count":null}"#, 422, #"{"count":0}"#,
                ["/homepage invalid_url", "/count null_to_default", "! rule_failed", "! rule_failed"]
            ),
            ("V_Any", #"{"author":{},"count":0}"#, 200, #"{"author":{"uid":0},"count":0}"#, [String]()),
            ("V_Any", #"{"homepage":"x","count":"1"}"#, 200, #"{"homepage":"x","count":1}"#, ["/count coerced"]),
            ("V_AnyDefault", "{}", 200, #"{"alt":5,"s":"x"}"#, []),
            ("V_AnyDefault", #"{"alt":null,"s":null}"#, 422, #"{"alt":5}"#, ["/alt null_to_default", "! rule_failed"]),
            ("V_Wrap", #"{"inner":{"count":1}}"#, 422, #"{"inner":{"count":1}}"#, ["!/inner rule_failed"]),
            (
                "V_Wrap", #"{"reqs":{"k/1":{"flag":true,"tags":[],"name":"n"}}}"#, 422,
                #"{"reqs":{"k/1":{"uid":0,"name":"n","flag":true,"tags":[]}}}"#, ["!/reqs/k~11/uid missing_required"]
            ),
        ] as [(String, String, Int, String, [String])])
    func requiresAValueInEachRequireAnyGroup(
        _ model: String, _ input: String, _ status: Int, _ output: String,
        _ entries: [String]
    ) {
        #expect(run(model, input) == Produced(status: status, output: output, entries: entries))
    }

    // MARK: - Constraints

    @Test(arguments: ConstraintCase.all)
    func checksConstraintsOnConvertedValuesOnly(_ item: ConstraintCase) {
        let input = item.input.map { "{\"v\":\($0)}" } ?? "{}"
        let produced = ConstraintCase.registry.produce(item.model, input)
        let status = item.entries.contains { $0.hasPrefix("!") } ? 422 : 200
        #expect(
            produced
                == Produced(
                    status: status, output: item.output.map { "{\"v\":\($0)}" } ?? "{}",
                    entries: item.entries))
    }

    @Test(arguments: [
        #"{"type":"int32","pattern":"a"}"#, #"{"type":"int32","minLength":1}"#, #"{"type":"bool","maxLength":1}"#,
        #"{"type":"int32","enum":["x"]}"#, #"{"type":"int32","enum":["1"]}"#, #"{"type":"int32","enum":[1.5]}"#,
        #"{"type":"int8","maximum":300}"#, #"{"type":"date","minimum":"yesterday"}"#, #"{"type":"date","maximum":0}"#,
        #"{"type":"decimal","minimum":"0.1"}"#, #"{"type":"string","pattern":"(?=a)"}"#,
        #"{"type":"string","pattern":"\\b"}"#, #"{"type":"string","pattern":"(a)\\1"}"#,
        #"{"type":"string","pattern":"a{1001}"}"#,
        #"{"type":"string","pattern":"\\p{L}"}"#, #"{"type":"string","pattern":"(?<n>a)"}"#,
        #"{"type":"int32","minimum":0,"default":-1}"#, #"{"type":"string","enum":["a"],"default":"b"}"#,
        #"{"type":"int32","required":true,"default":1}"#, #"{"type":"string","minLength":-1}"#,
        #"{"type":"int32","default":"x"}"#, #"{"type":"M_Missing"}"#, #"{"type":"array","of":"nope"}"#,
        #"{"type":"string","key":""}"#, #"{"type":"string","key":[]}"#,
    ])
    func rejectsConstraintsAndOptionsThatDoNotFitTheType(_ property: String) {
        let problems = SchemaRegistry.problems(#"{"name":"X","properties":{"v":"# + property + "}}")
        #expect(!problems.isEmpty)
        #expect(problems.allSatisfy { $0.path.hasPrefix("/properties/v") })
    }

    // MARK: - Defaults

    @Test(
        arguments: [
            (
                "{}", #"{"s":"n/a","i":7,"b":true,"u":{"uid":5},"dt":"2015-09-03T00:00:00Z","dec":1.5,"m":{"uid":9}}"#,
                [String]()
            ),
            (
                #"{"s":null,"i":null,"b":null,"u":null,"dt":null,"dec":null,"m":null}"#, #"{"i":7,"b":true}"#,
                ["/i null_to_default", "/b null_to_default"]
            ),
            (
                #"{"s":[],"i":"x","b":"x","u":"x","dt":"bad","dec":"x","m":1}"#,
                #"{"s":"n/a","i":7,"b":true,"u":{"uid":5},"dt":"2015-09-03T00:00:00Z","dec":1.5,"m":{"uid":9}}"#,
                [
                    "/s wrong_type", "/i not_a_number", "/b not_a_number", "/u wrong_type", "/dt invalid_date",
                    "/dec not_a_number",
                    "/m wrong_type",
                ]
            ),
            (
                #"{"s":"","i":0,"b":false,"u":{},"dec":0,"m":{}}"#,
                #"{"s":"","i":0,"b":false,"u":{"uid":0},"dt":"2015-09-03T00:00:00Z","dec":0,"m":{"uid":0}}"#, []
            ),
            (
                #"{"i":1e10}"#,
                #"{"s":"n/a","i":7,"b":true,"u":{"uid":5},"dt":"2015-09-03T00:00:00Z","dec":1.5,"m":{"uid":9}}"#,
                ["/i out_of_range"]
            ),
        ] as [(String, String, [String])])
    func usesDeclaredDefaultsWhenAbsentOrDropped(_ input: String, _ output: String, _ entries: [String]) {
        #expect(run("D_All", input) == Produced(status: 200, output: output, entries: entries))
    }

    @Test
    func writesModelDefaultsInTheFormAsked() {
        #expect(
            run("D_All", "{}", output: .wire).output
                == #"{"s":"n/a","i":7,"b":true,"u":{"uid":5},"dt":"2015-09-03T00:00:00Z","dec":1.5,"m":{"id":9}}"#)
    }

    // MARK: - Strict mode

    @Test
    func strictModeTurnsEveryWarningIntoAnError() {
        #expect(
            run("M_Repo", #"{"id":"1","owner":{"uid":"2"}}"#, mode: .strict)
                == Produced(
                    status: 422, output: #"{"id":1,"owner":{"uid":2}}"#,
                    entries: ["!/id coerced", "!/owner/uid coerced"]))
        #expect(
            run("M_Repo", #"{"id":1,"owner":{"uid":2}}"#, mode: .strict)
                == Produced(status: 200, output: #"{"id":1,"owner":{"uid":2}}"#, entries: []))
        #expect(
            run("W_All", #"{"data":{"old":2,"new":9}}"#, mode: .strict)
                == Produced(
                    status: 422, output: #"{"new":2,"d":1}"#, entries: ["!/data/new duplicate_key", "!/data/d coerced"])
        )
        #expect(run("D_All", #"{"i":null}"#, mode: .strict).entries == ["!/i null_to_default"])
    }

    // MARK: - Report order

    @Test
    func ordersReportEntriesDepthFirstByStage() {
        let input = #"{"zz":1,"old":"1","a":2,"b":{"q":1,"x":"2"},"d":[1,"x","3"],"aa":1,"aa":2,"c":null}"#
        #expect(
            run("R_Order", input)
                == Produced(
                    status: 422, output: #"{"a":1,"b":{"x":2},"c":0,"d":[1,3]}"#,
                    entries: [
                        "/a duplicate_key", "/old coerced", "/b/x coerced", "!/b/q unknown_key",
                        "!/b/y missing_required",
                        "/c null_to_default", "/d/1 element_dropped", "/d/2 coerced", "!/aa unknown_key",
                        "/aa duplicate_key",
                        "!/zz unknown_key", "!/e missing_required", "! rule_failed",
                    ]))
    }
}

/// A `classForDictionary` predicate, an input, and whether the rule fires (`P<n>` picks `P<n>_Hit`, which adds
/// `"hit": "y"` by default).
struct PredicateCase: Sendable, CustomTestStringConvertible {
    var model: Int
    var predicate: String
    var input: String
    var hit: Bool

    var testDescription: String { "\(predicate) on \(input)" }

    static let table: [(String, [(String, Bool)])] = [
        (
            #"{"has":"k"}"#,
            [
                (#"{"k":1}"#, true), (#"{"k":null}"#, true), ("{}", false), (#"{"K":1}"#, false),
                (#"{"\u006b":0}"#, true), (#"{"x":{"k":1}}"#, false),
            ]
        ),
        (
            #"{"has":"a.b"}"#,
            [
                (#"{"a":{"b":null}}"#, true), (#"{"a":{}}"#, false), (#"{"a":5}"#, false),
                (#"{"a.b":1}"#, false), (#"{"a":[{"b":1}]}"#, false),
            ]
        ),
        (#"{"has":".ext"}"#, [(#"{".ext":1}"#, true), (#"{"ext":1}"#, false)]),
        (
            #"{"key":"n","equals":1}"#,
            [
                (#"{"n":1}"#, true), (#"{"n":1.0}"#, true), (#"{"n":1e0}"#, true),
                (#"{"n":10e-1}"#, true), (#"{"n":100E-2}"#, true), (#"{"n":"1"}"#, false),
                (#"{"n":true}"#, false), (#"{"n":[1]}"#, false), ("{}", false),
                (#"{"n":1.0000000000000000000001}"#, false),
            ]
        ),
        (
            #"{"key":"n","equals":12345678901234567890}"#,
            [
                (#"{"n":12345678901234567891}"#, false),
                (#"{"n":1.2345678901234567890e19}"#, true),
                (#"{"n":12345678901234567000}"#, false),
            ]
        ),
        (
            #"{"key":"n","equals":0}"#,
            [
                (#"{"n":-0}"#, true), (#"{"n":0e5}"#, true), (#"{"n":-0.0}"#, true),
                (#"{"n":false}"#, false), (#"{"n":null}"#, false), (#"{"n":1e-400}"#, false),
            ]
        ),
        (
            #"{"key":"s","equals":"circle"}"#,
            [
                (#"{"s":"circle"}"#, true), (#"{"s":"Circle"}"#, false),
                (#"{"s":"circ\u006ce"}"#, true), (#"{"s":" circle"}"#, false),
            ]
        ),
        (#"{"key":"s","equals":"café"}"#, [(#"{"s":"caf\u00e9"}"#, true), (#"{"s":"cafe\u0301"}"#, false)]),
        (
            #"{"key":"o","equals":{"a":1,"b":[1,2]}}"#,
            [
                (#"{"o":{"b":[1,2],"a":1}}"#, true), (#"{"o":{"a":1,"b":[2,1]}}"#, false),
                (#"{"o":{"a":1.0,"b":[1,2e0]}}"#, true),
                (#"{"o":{"a":1,"b":[1,2],"c":null}}"#, false),
                (#"{"o":{"a":1}}"#, false), (#"{"o":"{\"a\":1,\"b\":[1,2]}"}"#, false),
            ]
        ),
        (#"{"key":"z","equals":null}"#, [(#"{"z":null}"#, true), ("{}", false), (#"{"z":"null"}"#, false)]),
        (#"{"key":"t","equals":true}"#, [(#"{"t":true}"#, true), (#"{"t":1}"#, false), (#"{"t":"true"}"#, false)]),
        (
            #"{"key":"arr","equals":[]}"#,
            [(#"{"arr":[]}"#, true), (#"{"arr":{}}"#, false), (#"{"arr":[null]}"#, false)]
        ),
        (#"{"key":"a.b","equals":"x"}"#, [(#"{"a":{"b":"x"}}"#, true), (#"{"a.b":"x"}"#, false)]),
        (
            #"{"key":"t","in":["a",2,null,{"x":[]}]}"#,
            [
                (#"{"t":"a"}"#, true), (#"{"t":2.0}"#, true), (#"{"t":null}"#, true),
                (#"{"t":{"x":[]}}"#, true), (#"{"t":"2"}"#, false), ("{}", false),
                (#"{"t":"b"}"#, false), (#"{"t":[]}"#, false),
            ]
        ),
        (#"{"key":"t","in":[]}"#, [(#"{"t":1}"#, false), ("{}", false)]),
        (
            #"{"all":[{"has":"a"},{"has":"b"}]}"#,
            [(#"{"a":1,"b":1}"#, true), (#"{"a":1}"#, false), (#"{"b":1}"#, false)]
        ),
        (
            #"{"any":[{"has":"a"},{"key":"b","equals":1}]}"#,
            [(#"{"b":1}"#, true), (#"{"b":2}"#, false), (#"{"a":0}"#, true)]
        ),
        (#"{"not":{"has":"a"}}"#, [("{}", true), (#"{"a":null}"#, false)]),
        (
            #"{"not":{"any":[{"has":"a"},{"all":[{"has":"b"},{"not":{"has":"c"}}]}]}}"#,
            [("{}", true), (#"{"b":1}"#, false), (#"{"b":1,"c":1}"#, true), (#"{"a":1}"#, false)]
        ),
    ]

    static let all: [PredicateCase] = table.enumerated().flatMap { index, row in
        row.1.map { PredicateCase(model: index, predicate: row.0, input: $0.0, hit: $0.1) }
    }

    static let registry = ConversionFixture.snapshot(
        table.enumerated().flatMap { index, row in
            [
                #"{"name":"P\#(index)","properties":{},"classForDictionary":[{"when":\#(row.0),"use":"P\#(index)_Hit"}]}"#,
                #"{"name":"P\#(index)_Hit","extends":"P\#(index)","properties":{"hit":{"type":"string","default":"y"}}}"#,
            ]
        })
}

/// A one-property model `X<n>` with constraints, an input value (`nil`: absent), the output and the entries.
struct ConstraintCase: Sendable, CustomTestStringConvertible {
    var index: Int
    var property: String
    var input: String?
    var output: String?
    var entries: [String]

    var model: String { "X\(index)" }
    var testDescription: String { "\(property) ← \(input ?? "(absent)")" }

    static let table: [(String, [(String?, String?, [String])])] = [
        (
            #"{"type":"int32","minimum":0,"maximum":10}"#,
            [
                ("-1", "-1", ["!/v constraint_failed"]), ("11", "11", ["!/v constraint_failed"]), ("0", "0", []),
                ("10", "10", []), ("10.9", "10", ["/v fraction_truncated"]), ("-0.5", "0", ["/v fraction_truncated"]),
                (#""-1""#, "-1", ["/v coerced", "!/v constraint_failed"]), ("null", "0", ["/v null_to_default"]),
                (#""x""#, "0", ["/v not_a_number"]), (nil, "0", []), ("true", "1", ["/v coerced"]),
                ("1e10", "0", ["/v out_of_range"]),
            ]
        ),
        (
            #"{"type":"int32","minimum":5,"default":7}"#,
            [
                (nil, "7", []), ("null", "7", ["/v null_to_default"]), (#""x""#, "7", ["/v not_a_number"]),
                ("4", "4", ["!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"decimal","minimum":0.1,"maximum":1e40}"#,
            [
                ("0.1", "0.1", []), ("0.09999999999999999999", "0.09999999999999999999", ["!/v constraint_failed"]),
                ("0.1000000000000000000001", "0.1000000000000000000001", []), ("1e40", "1e+40", []),
                ("1.0000000000000000001e40", "1.0000000000000000001e+40", ["!/v constraint_failed"]),
                (#""0.1""#, "0.1", ["/v coerced"]), ("-5", "-5", ["!/v constraint_failed"]), (nil, nil, []),
                ("null", nil, []),
            ]
        ),
        (
            #"{"type":"number","minimum":-1,"maximum":9007199254740992}"#,
            [
                ("9007199254740992", "9007199254740992", []),
                ("9007199254740993", "9007199254740993", ["!/v constraint_failed"]),
                ("9.007199254740992e15", "9.007199254740992e15", []), ("-1.0", "-1.0", []),
                ("-1.0000000000000001", "-1.0000000000000001", ["!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"double","minimum":0.1,"maximum":1e308}"#,
            [
                ("0.1", "0.1", []), ("0.09999999999999999", "0.09999999999999999", ["!/v constraint_failed"]),
                ("0.1000000000000000001", "0.1", ["/v precision_lost"]), ("1e309", "0", ["/v out_of_range"]),
                (nil, "0", []),
                ("1.7e308", "1.7e+308", ["!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"float","maximum":0.1}"#,
            [
                ("0.1", "0.1", []), ("0.100000001", "0.1", ["/v precision_lost"]),
                (
                    "0.1000001", "0.1000001",
                    ["!/v constraint_failed"]
                ),
            ]
        ),
        (
            #"{"type":"string","minLength":2,"maxLength":3}"#,
            [
                (#""ab""#, #""ab""#, []), (#""a""#, #""a""#, ["!/v constraint_failed"]),
                (#""abcd""#, #""abcd""#, ["!/v constraint_failed"]), (#""é😀""#, #""é😀""#, []),
                (#""😀😀😀""#, #""😀😀😀""#, []),
                (
                    #""\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00""#, #""😀😀😀😀""#,
                    ["!/v constraint_failed"]
                ),
                (#""""#, #""""#, ["!/v constraint_failed"]), ("12", #""12""#, ["/v coerced"]), ("null", nil, []),
                (nil, nil, []),
            ]
        ),
        (
            #"{"type":"string","pattern":"^[a-z]+$"}"#,
            [
                (#""abc""#, #""abc""#, []), (#""abC""#, #""abC""#, ["!/v constraint_failed"]),
                (#""""#, #""""#, ["!/v constraint_failed"]), (#""abc\n""#, #""abc\n""#, ["!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"string","pattern":"b"}"#,
            [(#""abc""#, #""abc""#, []), (#""ac""#, #""ac""#, ["!/v constraint_failed"])]
        ),
        (
            #"{"type":"string","pattern":"^\\d{3}-\\w+$"}"#,
            [
                (#""123-ab_c""#, #""123-ab_c""#, []), (#""١٢٣-x""#, #""١٢٣-x""#, ["!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"string","pattern":"^.$"}"#,
            [
                (#""😀""#, #""😀""#, []), (#""\n""#, #""\n""#, ["!/v constraint_failed"]),
                (#""\u2028""#, "\"\u{2028}\"", ["!/v constraint_failed"]),
                (#""ab""#, #""ab""#, ["!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"string","enum":["a","b"]}"#,
            [
                (#""a""#, #""a""#, []), (#""c""#, #""c""#, ["!/v constraint_failed"]),
                ("1", #""1""#, ["/v coerced", "!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"int32","enum":[1,2]}"#,
            [
                (#""1""#, "1", ["/v coerced"]), ("1.0", "1", []), ("3", "3", ["!/v constraint_failed"]), (nil, "0", []),
            ]
        ),
        (
            #"{"type":"decimal","enum":[1.50,2]}"#,
            [
                ("1.5", "1.5", []), (#""1.500""#, "1.5", ["/v coerced"]), ("2.0", "2", []),
                ("3", "3", ["!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"double","enum":[0.1]}"#,
            [
                ("0.1", "0.1", []), ("0.10000000000000001", "0.1", ["/v precision_lost"]),
                ("0.2", "0.2", ["!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"date","enum":["2015-09-03T16:12:21Z"]}"#,
            [
                (#""2015-09-04T00:12:21+08:00""#, #""2015-09-03T16:12:21Z""#, []),
                ("1441296741", #""2015-09-03T16:12:21Z""#, ["/v coerced"]),
                (#""2015-09-03T16:12:21.000Z""#, #""2015-09-03T16:12:21Z""#, []),
                (#""2015-09-03T16:12:22Z""#, #""2015-09-03T16:12:22Z""#, ["!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"date","minimum":"2000-01-01","maximum":"2030-01-01T00:00:00Z"}"#,
            [
                (#""2000-01-01""#, #""2000-01-01T00:00:00Z""#, []),
                (#""1999-12-31T23:59:59.999999Z""#, #""1999-12-31T23:59:59.999999Z""#, ["!/v constraint_failed"]),
                (#""2000-01-01T00:00:00+01:00""#, #""1999-12-31T23:00:00Z""#, ["!/v constraint_failed"]),
                (#""2030-01-01T00:00:00Z""#, #""2030-01-01T00:00:00Z""#, []),
                (#""2030-01-01T00:00:00.000001Z""#, #""2030-01-01T00:00:00.000001Z""#, ["!/v constraint_failed"]),
                ("946684800", #""2000-01-01T00:00:00Z""#, ["/v coerced"]), (#""bad""#, nil, ["/v invalid_date"]),
            ]
        ),
        (
            #"{"type":"array","of":"int32","minLength":1,"maxLength":2}"#,
            [
                ("[1]", "[1]", []), ("[]", "[]", ["!/v constraint_failed"]),
                ("[1,2,3]", "[1,2,3]", ["!/v constraint_failed"]),
                (#"[1,"x"]"#, "[1]", ["/v/1 element_dropped"]),
                (#"["x"]"#, "[]", ["/v/0 element_dropped", "!/v constraint_failed"]),
            ]
        ),
        (
            #"{"type":"set","of":"int32","maxLength":2}"#,
            [("[1,1,1]", "[1]", []), ("[1,2,3]", "[1,2,3]", ["!/v constraint_failed"])]
        ),
        (
            #"{"type":"dictionary","minLength":1}"#,
            [("{}", "{}", ["!/v constraint_failed"]), (#"{"a":1}"#, #"{"a":1}"#, [])]
        ),
    ]

    static let all: [ConstraintCase] = table.enumerated().flatMap { index, row in
        row.1.map { ConstraintCase(index: index, property: row.0, input: $0.0, output: $0.1, entries: $0.2) }
    }

    static let registry = ConversionFixture.snapshot(
        table.enumerated().map { index, row in
            #"{"name":"X\#(index)","properties":{"v":\#(row.0)}}"#
        })
}
