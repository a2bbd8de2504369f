// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// The validation report (docs/errors.md, "The validation report") and the batch endpoints' reports and counts.
@Suite struct ReportTests {
    static let schemas = [
        #"{"name":"U","properties":{"uid":{"type":"uint64","required":true},"n":"int8"}}"#,
        #"{"name":"Shape","properties":{"kind":"string"},"classForDictionary":[{"when":{"has":"r"},"use":"Circle"}]}"#,
        #"{"name":"Circle","extends":"Shape","properties":{"r":"double"}}"#,
    ]

    static func snapshot() throws -> RegistrySnapshot {
        try SchemaRegistry.make(schemas[0], schemas[1], schemas[2]).current
    }

    func options(_ mode: ConversionOptions.Mode = .lax, entries: Int = 1_000) -> ConversionOptions {
        var options = ConversionOptions()
        options.mode = mode
        options.maxReportEntries = entries
        return options
    }

    @Test func validReportHasNoErrorMemberAndListsWarnings() throws {
        let result = Array(#"{"uid":"1","n":"2"}"#.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try (try! Self.snapshot()).validate(body, model: "U", options: options())
            }
        }
        let report = try result.get().report
        #expect(
            String(decoding: report.render(), as: UTF8.self) == """
                {"valid":true,"model":"U","result":{"uid":1,"n":2},"errors":[],"warnings":[\
                {"path":"/uid","code":"coerced","message":"string \\"1\\" converted to uint64 1"},\
                {"path":"/n","code":"coerced","message":"string \\"2\\" converted to int8 2"}]}
                """)
    }

    /// The messages written as bytes (`coerced`, written into the report from its parts, and `null_to_default`),
    /// and a coerced number whose fraction was cut, its " (fraction truncated)" written with the message, read
    /// exactly as the sentences they replace.
    @Test func messagesWrittenAsBytesReadAsSentences() throws {
        let result = Array(#"{"uid":"7.9","n":null}"#.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try (try! Self.snapshot()).validate(body, model: "U", options: options())
            }
        }
        let report = try result.get().report
        #expect(
            String(decoding: report.render(), as: UTF8.self) == """
                {"valid":true,"model":"U","result":{"uid":7,"n":0},"errors":[],"warnings":[\
                {"path":"/uid","code":"coerced","message":"string \\"7.9\\" converted to uint64 7 (fraction truncated)"},\
                {"path":"/n","code":"null_to_default","message":"null converted to the int8 default"}]}
                """)
    }

    /// Every kind of value that converts with `coerced` gets the same sentence, `<found> converted to <type>
    /// <written>`, written by the converter from its parts; a set's element that repeats an earlier one keeps its
    /// warning although its bytes are dropped.
    @Test func coercedMessagesOfEveryKind() throws {
        let snapshot = try SchemaRegistry.make(
            #"""
            {"name":"M","properties":{"b":"bool","s":"string","d":"decimal","t":"date","n":"number","f":"float",
             "set":{"type":"set","of":"int32"},"e":"int32","l":"number"}}
            """#
        ).current
        // Besides one value of each kind: a string with an escape, and one longer than a message shows, which
        // are described the long way (the short plain string's message is written in one piece).
        let spaces = String(repeating: " ", count: 70)
        let input =
            #"{"b":"yes","s":5,"d":true,"t":0,"n":" 7 ","f":"2.5","set":[1,"1"],"e":"\u0031","l":""#
            + spaces + #"8"}"#
        let result = Array(input.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in try snapshot.validate(body, model: "M", options: options()) }
        }
        let report = try result.get().report
        #expect(
            report.entries.map { "\($0.path) \($0.message)" } == [
                #"/b string "yes" converted to bool true"#,
                #"/s number 5 converted to string "5""#,
                #"/d boolean true converted to decimal 1"#,
                #"/t number 0 converted to date "1970-01-01T00:00:00Z""#,
                #"/n string " 7 " converted to number 7"#,
                #"/f string "2.5" converted to float 2.5"#,
                #"/set/1 string "1" converted to int32 1"#,
                #"/e string "1" converted to int32 1"#,
                "/l string \"" + String(repeating: " ", count: 64) + "\"… converted to number 8",
            ])
    }

    @Test func reportSaysWhichModelWasBuilt() throws {
        let result = Array(#"{"kind":"c","r":2}"#.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try (try! Self.snapshot()).validate(body, model: "Shape", options: options())
            }
        }
        let body = String(decoding: try result.get().report.render(), as: UTF8.self)
        #expect(
            body
                == #"{"valid":true,"model":"Shape","built":"Circle","result":{"kind":"c","r":2},"errors":[],"warnings":[]}"#
        )
    }

    @Test func capListsErrorsFirstThenWarningsAndSaysTruncated() throws {
        // Three warnings (n out of range, two unknown-free coercions) and one error (uid missing).
        let input = #"{"uid":"x","n":300}"#
        let result = Array(input.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try (try! Self.snapshot()).convert(body, model: "U", options: options(entries: 2))
            }
        }
        guard case .failure(.validationFailed(let report)) = result else {
            Issue.record("expected a 422, got \(result)")
            return
        }
        #expect(report.entries.count == 3)
        #expect(
            String(decoding: report.render(), as: UTF8.self) == """
                {"valid":false,\
                "model":"U","result":{"uid":0,"n":0},\
                "errors":[{"path":"/uid","code":"missing_required","message":"uid is required"}],\
                "warnings":[{"path":"/uid","code":"not_a_number","message":"expected uint64, got string \\"x\\""}],\
                "truncated":true}
                """)
    }

    @Test func validateArrayReportsEveryElementWithIndexedPaths() throws {
        let input = #"[{"uid":1},{"uid":"x"},7]"#
        let result = Array(input.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try (try! Self.snapshot()).validateArray(body, model: "U", options: options())
            }
        }
        guard case .failure(.validationFailed(let report)) = result else {
            Issue.record("expected an invalid report, got \(result)")
            return
        }
        #expect(String(decoding: report.result, as: UTF8.self) == #"[{"uid":1,"n":0},null,null]"#)
        #expect(
            Outcome.entries(report.entries) == ["/1/uid not_a_number", "!/1/uid missing_required", "!/2 wrong_type"])
    }

    @Test func validateArrayOfValidElementsIsValid() throws {
        let result = Array(#"[{"uid":1},{"uid":2}]"#.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try (try! Self.snapshot()).validateArray(body, model: "U", options: options())
            }
        }
        #expect(try result.get().isValid)
    }

    @Test func laxDictionaryCountsKeptWarningsPlusOnePerDroppedElement() throws {
        let input = #"{"a":{"uid":"1"},"b":{"uid":"x"},"c":3}"#
        let result = Array(input.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try (try! Self.snapshot()).convertDictionary(body, model: "U", options: options())
            }
        }
        let converted = try result.get()
        #expect(String(decoding: converted.body, as: UTF8.self) == #"{"a":{"uid":1,"n":0}}"#)
        #expect(converted.warnings == 3)
    }

    @Test func strictDictionaryPrefixesPathsWithEscapedKeys() throws {
        let input = #"{"a/b":{"uid":"1"},"c~d":{"uid":2}}"#
        let result = Array(input.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try (try! Self.snapshot()).convertDictionary(body, model: "U", options: options(.strict))
            }
        }
        guard case .failure(.validationFailed(let report)) = result else {
            Issue.record("expected a 422, got \(result)")
            return
        }
        #expect(Outcome.entries(report.entries) == ["!/a~1b/uid coerced"])
        #expect(String(decoding: report.result, as: UTF8.self) == #"{"a/b":null,"c~d":{"uid":2,"n":0}}"#)
    }

    @Test func identicalEntriesAppearOnce() throws {
        // Two properties reading the same key give the same warning at the same path once.
        let snapshot = try SchemaRegistry.make(
            #"{"name":"T","properties":{"a":{"type":"int8","key":"v"},"b":{"type":"int8","key":"v"}}}"#
        ).current
        #expect(snapshot.run("T", #"{"v":"1"}"#).entries == ["/v coerced"])
    }

    @Test(arguments: [("[]", 400, "not_an_object"), ("{}", 400, "not_an_array")])
    func batchesCheckTheTopLevelShape(body: String, status: Int, code: String) throws {
        let snapshot = try Self.snapshot()
        let result = Array(body.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try code == "not_an_object"
                    ? snapshot.convertDictionary(body, model: "U", options: options())
                    : snapshot.convertArray(body, model: "U", options: options())
            }
        }
        guard case .failure(let error) = result else {
            Issue.record("expected \(code)")
            return
        }
        #expect(error.status == status)
        #expect(error.code == code)
    }
}
