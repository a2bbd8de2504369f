// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// docs/schema.md, "When a schema set is accepted": every problem is reported with its file and JSON Pointer, all of
/// them at once, and sound sets (bundles, self and mutual references) load.
struct SchemaValidationTests {
    /// A broken set and where its problem must be reported: any one of `locations` ("file pointer") will do, since
    /// docs/schema.md fixes the offending value but not whether the pointer names it or its property.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let documents: [String]
        let locations: [String]
        var testDescription: String { name }

        init(_ name: String, _ documents: [String], at locations: String...) {
            self.name = name
            self.documents = documents
            self.locations = locations
        }

        /// A single model `A` whose `properties` member is `properties`.
        init(_ name: String, properties: String, at pointers: String...) {
            self.name = name
            documents = [#"{"name":"A","properties":"# + properties + "}"]
            locations = pointers.map { "doc0.json " + $0 }
        }
    }

    /// The problems of `documents` (files `doc0.json`, `doc1.json`, …) under `limits`; empty when the set loads.
    static func problems(_ documents: [String], limits: SchemaLimits = SchemaLimits()) -> [SchemaProblem] {
        let files = documents.enumerated().map { SchemaFile(name: "doc\($0).json", bytes: Array($1.utf8)) }
        do {
            try SchemaRegistry(limits: limits).load(files)
            return []
        } catch {
            return error.problems
        }
    }

    static func located(_ problems: [SchemaProblem]) -> [String] { problems.map { "\($0.file) \($0.path)" } }

    static func expectReported(
        _ testCase: Case, limits: SchemaLimits = SchemaLimits(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let problems = problems(testCase.documents, limits: limits)
        #expect(
            located(problems).contains { testCase.locations.contains($0) },
            "expected a problem at \(testCase.locations), got \(problems)", sourceLocation: sourceLocation)
        #expect(problems.allSatisfy { !$0.message.isEmpty }, sourceLocation: sourceLocation)
    }

    // MARK: - References and types

    static let unknownTypes: [Case] = [
        .init("type name", properties: #"{"x":"Nope"}"#, at: "/properties/x"),
        .init("type member", properties: #"{"x":{"type":"Nope"}}"#, at: "/properties/x/type", "/properties/x"),
        .init("misspelled builtin", properties: #"{"x":"integer"}"#, at: "/properties/x"),
        .init("builtin in the wrong case", properties: #"{"x":"Int32"}"#, at: "/properties/x"),
        .init("not an identifier", properties: #"{"x":"int 32"}"#, at: "/properties/x"),
        .init("type is not a string", properties: #"{"x":{"type":5}}"#, at: "/properties/x/type"),
        .init("element type", properties: #"{"x":{"type":"array","of":"Nope"}}"#, at: "/properties/x/of"),
        .init(
            "nested element type", properties: #"{"x":{"type":"dictionary","of":{"type":"set","of":"Nope"}}}"#,
            at: "/properties/x/of/of"),
        .init(
            "in a second file", [#"{"name":"A"}"#, #"{"name":"B","properties":{"a":"A","c":"C"}}"#],
            at: "doc1.json /properties/c"),
        .init(
            "inside a bundle", [#"{"models":[{"name":"A"},{"name":"B","properties":{"x":{"type":"Nope"}}}]}"#],
            at: "doc0.json /models/1/properties/x/type", "doc0.json /models/1/properties/x"),
    ]

    @Test(arguments: unknownTypes)
    func reportsUnknownTypes(_ testCase: Case) { Self.expectReported(testCase) }

    static let extendsProblems: [Case] = [
        .init("unknown parent", [#"{"name":"A","extends":"Nope"}"#], at: "doc0.json /extends"),
        .init("builtin parent", [#"{"name":"A","extends":"string"}"#], at: "doc0.json /extends"),
        .init("extends itself", [#"{"name":"A","extends":"A"}"#], at: "doc0.json /extends"),
        .init(
            "two-model cycle across files", [#"{"name":"A","extends":"B"}"#, #"{"name":"B","extends":"A"}"#],
            at: "doc0.json /extends", "doc1.json /extends"),
        .init(
            "three-model cycle in a bundle",
            [#"{"models":[{"name":"A","extends":"C"},{"name":"B","extends":"A"},{"name":"C","extends":"B"}]}"#],
            at: "doc0.json /models/0/extends", "doc0.json /models/1/extends", "doc0.json /models/2/extends"),
        .init(
            "cycle above a sound child",
            [#"{"name":"A","extends":"B"}"#, #"{"name":"B","extends":"A"}"#, #"{"name":"C","extends":"A"}"#],
            at: "doc0.json /extends", "doc1.json /extends"),
    ]

    @Test(arguments: extendsProblems)
    func reportsBadExtends(_ testCase: Case) { Self.expectReported(testCase) }

    static let duplicates: [Case] = [
        .init(
            "two files", [#"{"name":"A"}"#, #"{"name":"A","properties":{"x":"int32"}}"#],
            at: "doc1.json /name", "doc0.json /name"),
        .init(
            "one bundle", [#"{"models":[{"name":"A"},{"name":"A"}]}"#],
            at: "doc0.json /models/1/name", "doc0.json /models/0/name"),
        .init(
            "a bundle and a file", [#"{"name":"B"}"#, #"{"models":[{"name":"A"},{"name":"B"}]}"#],
            at: "doc1.json /models/1/name", "doc0.json /name"),
    ]

    @Test(arguments: duplicates)
    func reportsModelsDefinedTwice(_ testCase: Case) { Self.expectReported(testCase) }

    // MARK: - Names and keys

    @Test(arguments: ["1A", "A-B", "A B", "A.b", "", "Ä", "Café", "$A", "A\u{0}"])
    func rejectsModelNamesThatAreNotIdentifiers(_ name: String) {
        let document = #"{"name":"# + JSONValue.string(name).text + "}"
        Self.expectReported(.init(name, [document], at: "doc0.json /name"))
    }

    @Test(arguments: BuiltinType.allCases.map(\.rawValue))
    func rejectsReservedTypeNamesAsModelNames(_ name: String) {
        Self.expectReported(.init(name, [#"{"name":"\#(name)"}"#], at: "doc0.json /name"))
    }

    @Test
    func rejectsAModelWithoutAName() {
        Self.expectReported(.init("no name", [#"{"properties":{"x":"int32"}}"#], at: "doc0.json ", "doc0.json /name"))
        Self.expectReported(.init("name not a string", [#"{"name":5}"#], at: "doc0.json /name"))
    }

    @Test
    func acceptsCaseSensitiveNamesBesideReservedOnes() throws {
        let registry = try SchemaRegistry.make(
            #"{"name":"String","properties":{"x":"string"}}"#, #"{"name":"string_","properties":{"s":"String"}}"#,
            #"{"name":"_9","properties":{}}"#, #"{"name":"a","properties":{}}"#, #"{"name":"A","properties":{}}"#)
        #expect(registry.current.modelNames == ["A", "String", "_9", "a", "string_"])
        #expect(registry.current.converted("string_", #"{"s":{"x":"y"}}"#) == #"{"s":{"x":"y"}}"#)
    }

    static let emptyKeys: [Case] = [
        .init("key", properties: #"{"x":{"type":"int32","key":""}}"#, at: "/properties/x/key"),
        .init("key list entry", properties: #"{"x":{"type":"int32","key":["a",""]}}"#, at: "/properties/x/key/1"),
        .init("empty key list", properties: #"{"x":{"type":"int32","key":[]}}"#, at: "/properties/x/key"),
        .init("property name", properties: #"{"":"int32"}"#, at: "/properties/"),
        .init(
            "has predicate",
            [#"{"name":"A","classForDictionary":[{"when":{"has":""},"use":"A"}]}"#],
            at: "doc0.json /classForDictionary/0/when/has"),
        .init(
            "equals predicate",
            [#"{"name":"A","classForDictionary":[{"when":{"key":"","equals":1},"use":"A"}]}"#],
            at: "doc0.json /classForDictionary/0/when/key"),
        .init("unwrap", [#"{"name":"A","willTransform":{"unwrap":""}}"#], at: "doc0.json /willTransform/unwrap"),
        .init(
            "rename source", [#"{"name":"A","willTransform":{"rename":{"":"a"}}}"#],
            at: "doc0.json /willTransform/rename/"),
        .init(
            "rename target", [#"{"name":"A","willTransform":{"rename":{"a":""}}}"#],
            at: "doc0.json /willTransform/rename/a"),
        .init(
            "remove", [#"{"name":"A","willTransform":{"remove":["a",""]}}"#],
            at: "doc0.json /willTransform/remove/1"),
        .init(
            "defaults", [#"{"name":"A","willTransform":{"defaults":{"":1}}}"#],
            at: "doc0.json /willTransform/defaults/"),
        .init(
            "transformToJSON set", [#"{"name":"A","transformToJSON":{"set":{"":1}}}"#],
            at: "doc0.json /transformToJSON/set/"),
    ]

    @Test(arguments: emptyKeys)
    func reportsEmptyKeys(_ testCase: Case) { Self.expectReported(testCase) }

    // MARK: - Model rules

    static let ruleProblems: [Case] = [
        .init(
            "use names an unrelated model",
            [#"{"name":"A","classForDictionary":[{"when":{"has":"b"},"use":"B"}]}"#, #"{"name":"B"}"#],
            at: "doc0.json /classForDictionary/0/use"),
        .init(
            "use names the parent",
            [#"{"name":"A"}"#, #"{"name":"B","extends":"A","classForDictionary":[{"when":{"has":"a"},"use":"A"}]}"#],
            at: "doc1.json /classForDictionary/0/use"),
        .init(
            "use names a sibling",
            [
                #"{"name":"P"}"#, #"{"name":"A","extends":"P","classForDictionary":[{"when":{"has":"b"},"use":"B"}]}"#,
                #"{"name":"B","extends":"P"}"#,
            ],
            at: "doc1.json /classForDictionary/0/use"),
        .init(
            "use names an unknown model",
            [#"{"name":"A","classForDictionary":[{"when":{"has":"b"},"use":"A"},{"when":{"has":"c"},"use":"Nope"}]}"#],
            at: "doc0.json /classForDictionary/1/use"),
        .init(
            "omit names no property",
            [#"{"name":"A","properties":{"x":"int32"},"transformToJSON":{"omit":["x","y"]}}"#],
            at: "doc0.json /transformToJSON/omit/1"),
        .init(
            "omit names a child's property in the parent",
            [
                #"{"name":"A","properties":{"x":"int32"},"transformToJSON":{"omit":["y"]}}"#,
                #"{"name":"B","extends":"A","properties":{"y":"int32"}}"#,
            ],
            at: "doc0.json /transformToJSON/omit/0"),
    ]

    @Test(arguments: ruleProblems)
    func reportsBadUseAndOmit(_ testCase: Case) { Self.expectReported(testCase) }

    @Test
    func acceptsUseOfItselfOrADescendantAndOmitOfInheritedProperties() throws {
        let registry = try SchemaRegistry.make(
            #"""
            {"models":[
              {"name":"A","properties":{"kind":"string"},
               "classForDictionary":[{"when":{"key":"kind","equals":"c"},"use":"C"},{"when":{"has":"x"},"use":"A"}]},
              {"name":"B","extends":"A","properties":{"b":"int32"},"transformToJSON":{"omit":["kind"]}},
              {"name":"C","extends":"B","properties":{"c":"int32"}}]}
            """#)
        #expect(registry.current.converted("A", #"{"kind":"c","b":1,"c":2}"#) == #"{"kind":"c","b":1,"c":2}"#)
        #expect(registry.current.run("B", #"{"kind":"k","b":1}"#, output: .wire).body == #"{"b":1}"#)
    }

    // MARK: - Patterns and date patterns

    @Test(arguments: [
        #"(?=a)"#, #"a(?!b)"#, #"(?<=a)b"#, #"(a)\1"#, #"\bword"#, #"\p{L}"#, #"(?<n>a)"#, #"(?i)a"#,
        "[a", "a)", "a{1001}", "a{2,1}", "*a", #"\"#, "(a{1000}){1000}",
    ])
    func reportsUnsupportedPatterns(_ pattern: String) {
        let properties = #"{"x":{"type":"string","pattern":"# + JSONValue.string(pattern).text + "}}"
        Self.expectReported(.init(pattern, properties: properties, at: "/properties/x/pattern"))
    }

    @Test(arguments: [#"^[a-z]+\d{2,3}(?:x|y)*?$"#, #"^\u{1F600}.\s\S\w\W\D$"#, "a{1000}", "^(a+)+$", "[^-]|[.]"])
    func acceptsSupportedPatterns(_ pattern: String) {
        let properties = #"{"x":{"type":"string","pattern":"# + JSONValue.string(pattern).text + "}}"
        #expect(Self.problems([#"{"name":"A","properties":"# + properties + "}"]) == [])
    }

    @Test(arguments: [
        "yyyy-MM-dd G", "yyyy Q", "YYYY-MM-dd", "yyyy-ww", "yyyy-D", "kk:mm", "KK:mm", "HH:mm z",
        "yyyy-MM-dd'T'HH:mm VV", "u-MM-dd", "LLLL yyyy", "e yyyy", "'open", "yyyy-MM-ddTHH:mm",
    ])
    func reportsUnsupportedDatePatternSymbols(_ pattern: String) {
        let format = JSONValue.string(pattern).text
        Self.expectReported(
            .init(
                "string form", properties: #"{"d":{"type":"date","dateFormat":\#(format)}}"#,
                at: "/properties/d/dateFormat"))
        Self.expectReported(
            .init(
                "input", properties: #"{"d":{"type":"date","dateFormat":{"input":["iso8601",\#(format)]}}}"#,
                at: "/properties/d/dateFormat/input/1"))
        Self.expectReported(
            .init(
                "output", properties: #"{"d":{"type":"date","dateFormat":{"output":\#(format)}}}"#,
                at: "/properties/d/dateFormat/output"))
    }

    @Test(arguments: [
        "yyyy", "yy", "M", "MM", "MMM", "MMMM", "d", "dd", "E", "EE", "EEE", "EEEE", "H", "HH", "h",
        "hh", "a", "m", "mm", "s", "ss", "S", "SS", "SSS", "SSSS", "SSSSS", "SSSSSS", "Z", "ZZZZZ", "X",
        "XXX", "'T'", "''",
    ])
    func acceptsEverySupportedDatePatternSymbol(_ symbol: String) {
        let format = JSONValue.string("yyyy-MM-dd HH " + symbol).text
        let document =
            #"{"name":"A","properties":{"d":{"type":"date","dateFormat":{"input":[\#(format)],"output":\#(format)}}}}"#
        #expect(Self.problems([document]) == [])
    }

    // MARK: - Defaults

    static let defaultsThatDoNotConvert: [Case] = [
        .init("int32 from a word", properties: #"{"x":{"type":"int32","default":"abc"}}"#, at: "/properties/x/default"),
        .init("int8 out of range", properties: #"{"x":{"type":"int8","default":300}}"#, at: "/properties/x/default"),
        .init("bool from an array", properties: #"{"x":{"type":"bool","default":[]}}"#, at: "/properties/x/default"),
        .init(
            "number from a word", properties: #"{"x":{"type":"number","default":"abc"}}"#, at: "/properties/x/default"),
        .init(
            "decimal of 39 digits",
            properties: #"{"x":{"type":"decimal","default":123456789012345678901234567890123456789}}"#,
            at: "/properties/x/default"),
        .init(
            "string from an object", properties: #"{"x":{"type":"string","default":{}}}"#, at: "/properties/x/default"),
        .init(
            "url with a space", properties: #"{"x":{"type":"url","default":"http://exa mple.com"}}"#,
            at: "/properties/x/default"),
        .init(
            "date from a word", properties: #"{"x":{"type":"date","default":"yesterday"}}"#, at: "/properties/x/default"
        ),
        .init(
            "base64 data", properties: #"{"x":{"type":"data","encoding":"base64","default":"!!!"}}"#,
            at: "/properties/x/default"),
        .init(
            "array from a string", properties: #"{"x":{"type":"array","of":"int32","default":"x"}}"#,
            at: "/properties/x/default"),
        .init(
            "model from a number", [#"{"name":"A","properties":{"b":{"type":"B","default":5}}}"#, #"{"name":"B"}"#],
            at: "doc0.json /properties/b/default"),
    ]

    @Test(arguments: defaultsThatDoNotConvert)
    func reportsDefaultsThatDoNotConvert(_ testCase: Case) { Self.expectReported(testCase) }

    static let defaultsThatFailConstraints: [Case] = [
        .init(
            "below minimum", properties: #"{"x":{"type":"int32","minimum":10,"default":5}}"#,
            at: "/properties/x/default"),
        .init(
            "above decimal maximum", properties: #"{"x":{"type":"decimal","maximum":1.5,"default":1.51}}"#,
            at: "/properties/x/default"),
        .init(
            "too long", properties: #"{"x":{"type":"string","maxLength":2,"default":"abc"}}"#,
            at: "/properties/x/default"),
        .init(
            "too few elements", properties: #"{"x":{"type":"array","of":"int32","minLength":2,"default":[1]}}"#,
            at: "/properties/x/default"),
        .init(
            "pattern", properties: #"{"x":{"type":"string","pattern":"^a","default":"ba"}}"#,
            at: "/properties/x/default"),
        .init(
            "enum", properties: #"{"x":{"type":"string","enum":["x","y"],"default":"z"}}"#, at: "/properties/x/default"),
        .init(
            "date minimum",
            properties: #"{"x":{"type":"date","minimum":"2020-01-01","default":"2019-12-31T23:59:59Z"}}"#,
            at: "/properties/x/default"),
        .init(
            "nested required property",
            [
                #"{"name":"A","properties":{"b":{"type":"B","default":{}}}}"#,
                #"{"name":"B","properties":{"y":{"type":"int32","required":true}}}"#,
            ],
            at: "doc0.json /properties/b/default"),
    ]

    @Test(arguments: defaultsThatFailConstraints)
    func reportsDefaultsThatViolateConstraints(_ testCase: Case) { Self.expectReported(testCase) }

    @Test
    func reportsRequiredCombinedWithDefault() {
        Self.expectReported(
            .init(
                "required", properties: #"{"x":{"type":"int32","required":true,"default":1}}"#,
                at: "/properties/x/default", "/properties/x/required"))
    }

    @Test
    func convertsValidDefaultsIntoTheOutput() throws {
        let registry = try SchemaRegistry.make(
            #"""
            {"models":[
              {"name":"A","properties":{
                "n":{"type":"int8","minimum":1,"maximum":10,"default":10},
                "s":{"type":"string","minLength":1,"pattern":"^a","default":"ab"},
                "b":{"type":"B","default":{"y":"7"}}}},
              {"name":"B","properties":{"y":{"type":"int32","required":true}}}]}
            """#)
        #expect(registry.current.converted("A", "{}") == #"{"n":10,"s":"ab","b":{"y":7}}"#)
    }

    // MARK: - Constraint operands

    static let operandProblems: [Case] = [
        .init(
            "minimum from a word", properties: #"{"x":{"type":"int32","minimum":"abc"}}"#, at: "/properties/x/minimum"),
        .init("minimum in a string", properties: #"{"x":{"type":"int32","minimum":"5"}}"#, at: "/properties/x/minimum"),
        .init(
            "int8 maximum out of range", properties: #"{"x":{"type":"int8","maximum":1000}}"#,
            at: "/properties/x/maximum"),
        .init(
            "int32 minimum with a fraction", properties: #"{"x":{"type":"int32","minimum":1.5}}"#,
            at: "/properties/x/minimum"),
        .init(
            "date minimum from a word", properties: #"{"x":{"type":"date","minimum":"yesterday"}}"#,
            at: "/properties/x/minimum"),
        .init(
            "enum entry from a word", properties: #"{"x":{"type":"int32","enum":[1,"x"]}}"#, at: "/properties/x/enum/1"),
        .init("enum entry coerced", properties: #"{"x":{"type":"int32","enum":[1,"2"]}}"#, at: "/properties/x/enum/1"),
        .init(
            "minLength negative", properties: #"{"x":{"type":"string","minLength":-1}}"#, at: "/properties/x/minLength"),
        .init(
            "maxLength fraction", properties: #"{"x":{"type":"string","maxLength":1.5}}"#, at: "/properties/x/maxLength"
        ),
        .init(
            "minLength string", properties: #"{"x":{"type":"string","minLength":"3"}}"#, at: "/properties/x/minLength"),
        .init("pattern not a string", properties: #"{"x":{"type":"string","pattern":5}}"#, at: "/properties/x/pattern"),
        .init(
            "element operand", properties: #"{"x":{"type":"array","of":{"type":"int32","minimum":"x"}}}"#,
            at: "/properties/x/of/minimum"),
        .init("pattern on int32", properties: #"{"x":{"type":"int32","pattern":"^1"}}"#, at: "/properties/x/pattern"),
        .init("pattern on bool", properties: #"{"x":{"type":"bool","pattern":"^t"}}"#, at: "/properties/x/pattern"),
        .init(
            "minLength on number", properties: #"{"x":{"type":"number","minLength":1}}"#, at: "/properties/x/minLength"),
        .init(
            "maxLength on int32", properties: #"{"x":{"type":"int32","maxLength":1}}"#, at: "/properties/x/maxLength"),
        .init("minimum on string", properties: #"{"x":{"type":"string","minimum":1}}"#, at: "/properties/x/minimum"),
        .init("maximum on array", properties: #"{"x":{"type":"array","maximum":1}}"#, at: "/properties/x/maximum"),
    ]

    @Test(arguments: operandProblems)
    func reportsOperandsThatDoNotConvertOrFit(_ testCase: Case) { Self.expectReported(testCase) }

    /// An operand that converts only with a coercion is refused with the coercion's own message (the converter
    /// records `coerced` itself, its message written into the report, rather than returning it).
    @Test
    func explainsACoercedOperandWithItsWarning() {
        let problems = Self.problems([#"{"name":"A","properties":{"x":{"type":"int32","enum":[1,"2"]}}}"#])
        #expect(problems.map(\.message) == [#""2" does not convert to int32 cleanly: string "2" converted to int32 2"#])
    }

    @Test
    func acceptsOperandsThatFit() {
        let document = #"""
            {"name":"A","properties":{
              "i":{"type":"int8","minimum":-128,"maximum":127,"enum":[1,2,-128]},
              "d":{"type":"decimal","minimum":0.5,"maximum":1e3},
              "f":{"type":"double","minimum":-1.5e300},
              "t":{"type":"date","minimum":"2020-01-01","maximum":"2030-01-01T00:00:00+02:00"},
              "s":{"type":"string","minLength":0,"maxLength":10,"pattern":"^a","enum":["a","ab"]},
              "u":{"type":"url","maxLength":100},
              "l":{"type":"array","of":"int32","minLength":1,"maxLength":3},
              "m":{"type":"dictionary","maxLength":3}}}
            """#
        #expect(Self.problems([document]) == [])
    }

    // MARK: - Limits

    @Test
    func documentsTheDefaultLimits() {
        let limits = SchemaLimits()
        #expect(limits.maxDocumentBytes == 1_048_576)
        #expect(limits.maxPropertiesPerModel == 1_000)
        #expect(limits.maxModels == 10_000)
    }

    static func model(properties count: Int) -> String {
        #"{"name":"A","properties":{"# + (0..<count).map { #""p\#($0)":"int32""# }.joined(separator: ",") + "}}"
    }

    @Test
    func limitsPropertiesPerModel() {
        var limits = SchemaLimits()
        limits.maxPropertiesPerModel = 3
        #expect(Self.problems([Self.model(properties: 3)], limits: limits) == [])
        Self.expectReported(
            .init("4 of 3", [Self.model(properties: 4)], at: "doc0.json /properties", "doc0.json "),
            limits: limits)
        Self.expectReported(.init("1,001", [Self.model(properties: 1_001)], at: "doc0.json /properties", "doc0.json "))
        #expect(Self.problems([Self.model(properties: 1_000)]) == [])
    }

    @Test
    func limitsModels() {
        var limits = SchemaLimits()
        limits.maxModels = 2
        #expect(Self.problems([#"{"name":"A"}"#, #"{"name":"B"}"#], limits: limits) == [])
        #expect(!Self.problems([#"{"name":"A"}"#, #"{"models":[{"name":"B"},{"name":"C"}]}"#], limits: limits).isEmpty)
    }

    @Test
    func limitsDocumentBytesPerModel() {
        var limits = SchemaLimits()
        limits.maxDocumentBytes = 64
        func document(_ bytes: Int, name: String = "A") -> String {
            let head = #"{"name":"\#(name)","properties":{"x":{"type":"int32","key":""#
            let tail = #""}}}"#
            return head + String(repeating: "k", count: bytes - head.utf8.count - tail.utf8.count) + tail
        }
        #expect(document(64).utf8.count == 64)
        #expect(Self.problems([document(64)], limits: limits) == [])
        Self.expectReported(.init("65 of 64", [document(65)], at: "doc0.json "), limits: limits)
        // A bundle is bounded per model, not as a whole.
        let bundle = #"{"models":[\#(document(64)),\#(document(64, name: "B"))]}"#
        #expect(bundle.utf8.count > 64)
        #expect(Self.problems([bundle], limits: limits) == [])
        let broken = #"{"models":[\#(document(64)),\#(document(65, name: "B"))]}"#
        Self.expectReported(.init("bundle member", [broken], at: "doc0.json /models/1"), limits: limits)
        // The default: 1 MiB.
        let big = 1_048_576
        #expect(Self.problems([document(big)]) == [])
        Self.expectReported(.init("1 MiB + 1", [document(big + 1)], at: "doc0.json "))
    }

    // MARK: - Model defaults

    static let defaultCycles: [Case] = [
        .init(
            "a model's own default", [#"{"name":"A","properties":{"next":{"type":"A","default":{}}}}"#],
            at: "doc0.json /properties/next/default"),
        .init(
            "two models",
            [
                #"{"name":"A","properties":{"b":{"type":"B","default":{}}}}"#,
                #"{"name":"B","properties":{"a":{"type":"A","default":{}}}}"#,
            ],
            at: "doc0.json /properties/b/default", "doc1.json /properties/a/default"),
        .init(
            "through an array", [#"{"name":"A","properties":{"list":{"type":"array","of":"A","default":[{}]}}}"#],
            at: "doc0.json /properties/list/default"),
        .init(
            "through an inherited default",
            [#"{"name":"P","properties":{"c":{"type":"C","default":{}}}}"#, #"{"name":"C","extends":"P"}"#],
            at: "doc0.json /properties/c/default"),
    ]

    @Test(arguments: defaultCycles)
    func reportsCyclesOfModelDefaults(_ testCase: Case) { Self.expectReported(testCase) }

    /// The default's own `next` is `null` (no value, and `null` does not call for the default), so converting it
    /// never needs the same default again: not a cycle.
    @Test
    func acceptsModelDefaultsThatEndWhereTheDataEnds() throws {
        let registry = try SchemaRegistry.make(
            #"{"name":"A","properties":{"n":"int32","next":{"type":"A","default":{"n":1,"next":{"n":2,"next":null}}}}}"#
        )
        #expect(registry.current.converted("A", "{}") == #"{"n":0,"next":{"n":1,"next":{"n":2}}}"#)
        #expect(registry.current.converted("A", #"{"next":null}"#) == #"{"n":0}"#)
        #expect(
            registry.current.converted("A", #"{"next":{"n":5}}"#)
                == #"{"n":0,"next":{"n":5,"next":{"n":1,"next":{"n":2}}}}"#)
    }

    /// `{"s": "…"}` with `count` bytes in model form.
    static func modelDefault(bytes count: Int) -> [String] {
        let value = String(repeating: "x", count: count - #"{"s":""}"#.utf8.count)
        return [
            #"{"name":"A","properties":{"b":{"type":"B","default":{"s":"\#(value)"}}}}"#,
            #"{"name":"B","properties":{"s":"string"}}"#,
        ]
    }

    @Test
    func limitsTheConvertedFormOfADefaultTo64KiB() {
        #expect(Self.problems(Self.modelDefault(bytes: 65_536)) == [])
        Self.expectReported(
            .init("64 KiB + 1", Self.modelDefault(bytes: 65_537), at: "doc0.json /properties/b/default"))
    }

    // MARK: - Every problem at once

    @Test
    func reportsEveryDecodingProblemOfOneFile() {
        let problems = Self.problems([
            #"""
            {"name":"A","properties":{
              "a":{"type":"int32","key":""},
              "b":{"type":"string","pattern":"(?=x)"},
              "c":{"type":"date","dateFormat":"yyyy G"},
              "d":{"type":"int32","required":true,"default":1}}}
            """#
        ])
        let found = Set(Self.located(problems))
        #expect(found.contains("doc0.json /properties/a/key"), "\(problems)")
        #expect(found.contains("doc0.json /properties/b/pattern"), "\(problems)")
        #expect(found.contains("doc0.json /properties/c/dateFormat"), "\(problems)")
        #expect(
            found.contains("doc0.json /properties/d/default") || found.contains("doc0.json /properties/d/required"),
            "\(problems)")
    }

    @Test
    func reportsProblemsOfEveryFile() {
        let problems = Self.problems([
            #"{"name":"1A"}"#, #"{"name":"B","properties":{"x":{"type":"int32","key":""}}}"#,
            #"{"name":"C"}"#, #"{"name":"string"}"#,
        ])
        #expect(
            Set(Self.located(problems)) == ["doc0.json /name", "doc1.json /properties/x/key", "doc3.json /name"],
            "\(problems)")
    }

    @Test
    func reportsReferenceProblemsBesideDecodingProblems() {
        let problems = Self.problems([
            #"{"name":"string"}"#, #"{"name":"B","properties":{"x":"Nope"}}"#,
            #"{"name":"C","extends":"Nope"}"#,
        ])
        let found = Set(Self.located(problems))
        #expect(found.contains("doc0.json /name"), "\(problems)")
        #expect(found.contains("doc1.json /properties/x"), "\(problems)")
        #expect(found.contains("doc2.json /extends"), "\(problems)")
    }

    @Test
    func reportsRuleProblemsBesideReferenceProblems() {
        let problems = Self.problems([
            #"{"name":"A","properties":{"x":"Nope"}}"#,
            #"{"name":"B","properties":{"x":"int32"},"transformToJSON":{"omit":["y"]}}"#,
            #"{"name":"C","classForDictionary":[{"when":{"has":"x"},"use":"B"}]}"#,
            #"{"name":"D","extends":"E"}"#, #"{"name":"E","extends":"D"}"#,
        ])
        let found = Set(Self.located(problems))
        #expect(found.contains("doc0.json /properties/x"), "\(problems)")
        #expect(found.contains("doc1.json /transformToJSON/omit/0"), "\(problems)")
        #expect(found.contains("doc2.json /classForDictionary/0/use"), "\(problems)")
        #expect(found.contains("doc3.json /extends") || found.contains("doc4.json /extends"), "\(problems)")
    }

    @Test
    func reportsOperandAndDefaultProblemsBesideOtherProblems() {
        let problems = Self.problems([
            #"{"name":"A","properties":{"x":"int32"},"transformToJSON":{"omit":["y"]}}"#,
            #"{"name":"B","properties":{"x":{"type":"int32","pattern":"^1"}}}"#,
            #"{"name":"C","properties":{"x":{"type":"int32","default":"abc"}}}"#,
            #"{"name":"D","properties":{"x":{"type":"string","minLength":1,"default":""}}}"#,
            #"{"name":"E","properties":{"e":{"type":"E","default":{}}}}"#,
        ])
        let found = Set(Self.located(problems))
        #expect(found.contains("doc0.json /transformToJSON/omit/0"), "\(problems)")
        #expect(found.contains("doc1.json /properties/x/pattern"), "\(problems)")
        #expect(found.contains("doc2.json /properties/x/default"), "\(problems)")
        #expect(found.contains("doc3.json /properties/x/default"), "\(problems)")
        #expect(found.contains("doc4.json /properties/e/default"), "\(problems)")
    }

    @Test
    func reportsOperandAndDefaultProblemsOfOneModelTogether() {
        let problems = Self.problems([
            #"""
            {"name":"A","properties":{
              "a":{"type":"int32","minimum":"x"},
              "b":{"type":"number","minLength":1},
              "c":{"type":"int32","maximum":3,"default":4},
              "d":{"type":"url","default":"a b"}}}
            """#
        ])
        #expect(
            Set(Self.located(problems)) == [
                "doc0.json /properties/a/minimum", "doc0.json /properties/b/minLength",
                "doc0.json /properties/c/default", "doc0.json /properties/d/default",
            ],
            "\(problems)")
    }

    // MARK: - Sound sets load

    @Test
    func loadsABundleWithInheritanceAndReferences() throws {
        let registry = try SchemaRegistry.make(
            #"""
            {"models":[
              {"name":"Book","extends":"Item","properties":{"author":"Author","name":{"type":"string","key":"n"}}},
              {"name":"Item","properties":{"id":"int64","name":"string"}},
              {"name":"Author","properties":{"name":"string","books":{"type":"array","of":"Book"}}}]}
            """#)
        #expect(registry.current.modelNames == ["Author", "Book", "Item"])
        #expect(
            registry.current.converted("Book", #"{"id":1,"n":"B","author":{"name":"A","books":[{"id":2}]}}"#)
                == #"{"id":1,"name":"B","author":{"name":"A","books":[{"id":2}]}}"#)
    }

    @Test
    func loadsSelfReferencesAndFollowsTheData() throws {
        let registry = try SchemaRegistry.make(
            #"{"name":"Node","properties":{"v":"int32","next":"Node","kids":{"type":"array","of":"Node"}}}"#)
        let input = #"{"v":1,"next":{"v":2,"next":{"v":3}},"kids":[{"v":4,"kids":[{"v":5}]}]}"#
        #expect(
            registry.current.converted("Node", input)
                == #"{"v":1,"next":{"v":2,"next":{"v":3}},"kids":[{"v":4,"kids":[{"v":5}]}]}"#)
    }

    @Test
    func loadsMutualReferencesAcrossFiles() throws {
        let registry = try SchemaRegistry.make(
            #"{"name":"Person","properties":{"name":"string","pet":"Pet"}}"#,
            #"{"name":"Pet","properties":{"name":"string","owner":"Person","vet":"Vet"}}"#,
            #"{"name":"Vet","extends":"Person"}"#)
        #expect(
            registry.current.converted("Person", #"{"name":"a","pet":{"owner":{"name":"b","pet":{"name":"c"}}}}"#)
                == #"{"name":"a","pet":{"owner":{"name":"b","pet":{"name":"c"}}}}"#)
    }
}

extension JSONValue {
    /// The value written compact, as a string (test convenience).
    fileprivate var text: String { String(decoding: bytes, as: UTF8.self) }
}
