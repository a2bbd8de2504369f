// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// Model form (`/convert`) against wire form (`/normalize`, `output: .wire`) and model-form input
/// (`from=model`, `input: .model`), docs/semantics.md, "Writing the output": YYModel's `modelToJSONObject` tests
/// carried over — key paths written back as nested objects, first writer wins, `output_conflict`, `transformToJSON`,
/// `unwrap` written back, canonical number and string bytes, and byte-identical output.
struct OutputFormTests {
    static let models = [
        #"{"name":"F_Book","properties":{"name":{"type":"string","key":"n"},"desc":{"type":"string","key":"ext.desc"},"#
            + #""size":{"type":"int32","key":"ext.size"},"id":{"type":"string","key":["id","ID","book.id"]},"extra":"any"}}"#,
        #"{"name":"F_Descend","properties":{"p1":{"type":"int32","key":"a.b"},"p2":{"type":"int32","key":"c"},"#
            + #""p3":{"type":"int32","key":"a.d"},"p4":{"type":"string","key":"a.e.f"},"p5":{"type":"string","key":"g.h"}}}"#,
        #"{"name":"F_First","properties":{"p1":{"type":"string","key":"k"},"p2":{"type":"int32","key":"k"},"#
            + #""p3":{"type":"any","key":["x","k"]}}}"#,
        #"{"name":"F_Conflict","properties":{"p1":{"type":"int32","key":"a"},"p2":{"type":"int32","key":"a.b"}}}"#,
        #"{"name":"F_Same","properties":{"p1":{"type":"int32","key":"a.b"},"p2":{"type":"int32","key":"a"}}}"#,
        #"{"name":"F_Deeper","properties":{"p1":{"type":"int32","key":"a.b"},"p2":{"type":"string","key":"a.b.c"}}}"#,
        #"{"name":"F_Omit","properties":{"name":{"type":"string","key":"n"},"desc":{"type":"string","key":"ext.desc"},"#
            + #""size":{"type":"int32","key":"ext.size"},"extra":"any","tags":{"type":"array","key":"t"}},"#
            + #""transformToJSON":{"omit":["extra","desc"],"set":{"meta.schemaVersion":2,"kind":"fixed","ext.note":{"a":[1]},"#
            + #""flag":null}}}"#,
        #"{"name":"F_OmitHolder","properties":{"one":"F_Omit","many":{"type":"array","of":"F_Omit"}}}"#,
        #"{"name":"F_Unwrap","willTransform":{"unwrap":"data.inner"},"properties":{"uid":{"type":"int32","key":"u"}},"#
            + #""transformToJSON":{"set":{"v":1}}}"#,
        #"{"name":"F_UnwrapHolder","properties":{"x":"F_Unwrap","xs":{"type":"dictionary","of":"F_Unwrap"}}}"#,
        #"{"name":"F_Reject","unknownKeys":"reject","properties":{"uid":{"type":"int32","key":"u"}}}"#,
        #"{"name":"F_Pick","properties":{"kind":{"type":"string","key":"k"}},"#
            + #""classForDictionary":[{"when":{"key":"k","equals":"x"},"use":"F_Picked"}]}"#,
        #"{"name":"F_Picked","extends":"F_Pick","properties":{"extra":{"type":"string","default":"picked"}}}"#,
        #"{"name":"F_Dates","properties":{"e":{"type":"date","dateFormat":{"input":["dd/MM/yyyy"],"output":"epoch"}},"#
            + #""ms":{"type":"date","dateFormat":{"input":["dd/MM/yyyy"],"output":"epochMillis"}},"#
            + #""p":{"type":"date","dateFormat":{"input":["dd/MM/yyyy"],"output":"yyyy/MM/dd HH:mm"}},"iso":"date"}}"#,
        #"{"name":"F_Num","properties":{"f":{"type":"float","key":"x.f"},"d":{"type":"double","key":"x.d"},"#
            + #""dec":{"type":"decimal","key":"x.dec"},"n":{"type":"number","key":"x.n"},"s":{"type":"string","key":"x.s"},"#
            + #""a":{"type":"any","key":"y"}}}"#,
        #"{"name":"F_Nested","properties":{"book":{"type":"F_Book","key":"b.k"},"books":{"type":"array","of":"F_Book"}}}"#,
    ]
    static let registry = ConversionFixture.snapshot(models)

    private func run(
        _ model: String, _ input: String, mode: ConversionOptions.Mode = .lax,
        output: ConversionOptions.Form = .wire, from: ConversionOptions.Form = .wire
    ) -> Produced {
        Self.registry.produce(model, input, mode: mode, output: output, from: from)
    }

    // MARK: - Model form and wire form

    @Test
    func writesModelFormByPropertyNameAndWireFormByMappedKey() {
        let input = #"{"ID":"7","n":"x","ext":{"desc":"d"},"extra":{"b":1,"a":"caf\u00e9"}}"#
        #expect(
            run("F_Book", input, output: .model)
                == Produced(
                    status: 200,
                    output: #"{"name":"x","desc":"d","size":0,"id":"7","extra":{"b":1,"a":"café"}}"#, entries: []))
        #expect(
            run("F_Book", input)
                == Produced(
                    status: 200,
                    output: #"{"n":"x","ext":{"desc":"d","size":0},"id":"7","extra":{"b":1,"a":"café"}}"#, entries: []))
    }

    @Test
    func writesAMultiKeyPropertyUnderItsFirstKeyOnly() {
        #expect(run("F_Book", #"{"book":{"id":"x"}}"#).output == #"{"ext":{"size":0},"id":"x"}"#)
    }

    @Test(
        arguments: [
            (
                #"{"a":{"b":1,"d":3,"e":{"f":"x"}},"c":2,"g":{"h":"y"}}"#,
                #"{"a":{"b":1,"d":3,"e":{"f":"x"}},"c":2,"g":{"h":"y"}}"#
            ),
            (#"{"c":2,"a":{"e":{"f":"x"},"d":3}}"#, #"{"a":{"b":0,"d":3,"e":{"f":"x"}},"c":2}"#),
            (#"{"a":{"b":1}}"#, #"{"a":{"b":1,"d":0},"c":0}"#),
            ("{}", #"{"a":{"b":0,"d":0},"c":0}"#),
        ] as [(String, String)])
    func createsNestedObjectsForKeyPathsInFirstCreationOrder(_ input: String, _ output: String) {
        #expect(run("F_Descend", input) == Produced(status: 200, output: output, entries: []))
    }

    @Test
    func letsTheFirstPropertyWritingAPlaceWin() {
        #expect(
            run("F_First", #"{"k":"5"}"#)
                == Produced(status: 200, output: #"{"k":"5","x":"5"}"#, entries: ["/k coerced"]))
        #expect(
            run("F_First", #"{"k":"5"}"#, output: .model)
                == Produced(status: 200, output: #"{"p1":"5","p2":5,"p3":"5"}"#, entries: ["/k coerced"]))
        #expect(
            run("F_First", #"{"k":null}"#)
                == Produced(status: 200, output: #"{"k":0}"#, entries: ["/k null_to_default"]))
        #expect(
            run("F_First", #"{"x":[1],"k":"a"}"#)
                == Produced(status: 200, output: #"{"k":"a","x":[1]}"#, entries: ["/k not_a_number"]))
    }

    @Test(
        arguments: [
            ("F_Conflict", #"{"a":5}"#, #"{"a":5}"#, ["/a/b output_conflict"]),
            ("F_Conflict", #"{"a":{"b":2}}"#, #"{"a":0}"#, ["/a wrong_type", "/a/b output_conflict"]),
            ("F_Same", #"{"a":{"b":1}}"#, #"{"a":{"b":1}}"#, ["/a wrong_type"]),
            ("F_Deeper", #"{"a":{"b":{"c":"x"}}}"#, #"{"a":{"b":0}}"#, ["/a/b wrong_type", "/a/b/c output_conflict"]),
            ("F_Deeper", #"{"a":{"b":7}}"#, #"{"a":{"b":7}}"#, [String]()),
        ] as [(String, String, String, [String])])
    func skipsAValueWhosePathCrossesANonObjectWithOutputConflict(
        _ model: String, _ input: String, _ output: String, _ entries: [String]
    ) {
        #expect(run(model, input) == Produced(status: 200, output: output, entries: entries))
    }

    @Test
    func reportsOutputConflictsOnlyInWireForm() {
        #expect(
            run("F_Conflict", #"{"a":5}"#, output: .model)
                == Produced(status: 200, output: #"{"p1":5,"p2":0}"#, entries: []))
        #expect(
            run("F_Conflict", #"{"a":5}"#, mode: .strict)
                == Produced(status: 422, output: #"{"p1":5,"p2":0}"#, entries: ["!/a/b output_conflict"]))
    }

    // MARK: - transformToJSON and unwrap

    @Test
    func appliesTransformToJSONToWireFormOnly() {
        let input = #"{"n":"x","ext":{"desc":"d","size":3},"extra":1,"t":[1]}"#
        #expect(
            run("F_Omit", input)
                == Produced(
                    status: 200,
                    output:
                        #"{"n":"x","ext":{"size":3,"note":{"a":[1]}},"t":[1],"meta":{"schemaVersion":2},"kind":"fixed","flag":null}"#,
                    entries: []))
        #expect(
            run("F_Omit", input, output: .model)
                == Produced(
                    status: 200,
                    output: #"{"name":"x","desc":"d","size":3,"extra":1,"tags":[1]}"#, entries: []))
    }

    @Test
    func appliesTransformToJSONToEveryObjectOfTheModel() {
        let one = #"{"n":"x","extra":1}"#
        #expect(
            run("F_OmitHolder", #"{"one":\#(one),"many":[\#(one),{}]}"#).output
                == #"{"one":{"n":"x","ext":{"size":0,"note":{"a":[1]}},"meta":{"schemaVersion":2},"kind":"fixed","flag":null},"#
                + #""many":[{"n":"x","ext":{"size":0,"note":{"a":[1]}},"meta":{"schemaVersion":2},"kind":"fixed","flag":null},"#
                + #"{"ext":{"size":0,"note":{"a":[1]}},"meta":{"schemaVersion":2},"kind":"fixed","flag":null}]}"#)
    }

    @Test
    func writesAnUnwrappedModelBackUnderItsKeyPath() {
        let input = #"{"data":{"inner":{"u":"1"}},"other":1}"#
        #expect(
            run("F_Unwrap", input)
                == Produced(
                    status: 200, output: #"{"data":{"inner":{"u":1,"v":1}}}"#,
                    entries: ["/data/inner/u coerced"]))
        #expect(
            run("F_Unwrap", input, output: .model)
                == Produced(status: 200, output: #"{"uid":1}"#, entries: ["/data/inner/u coerced"]))
        #expect(
            run("F_UnwrapHolder", #"{"x":\#(input),"xs":{"k":{"data":{"inner":{}}}}}"#).output
                == #"{"x":{"data":{"inner":{"u":1,"v":1}}},"xs":{"k":{"data":{"inner":{"u":0,"v":1}}}}}"#)
    }

    @Test(arguments: ["F_Book", "F_Descend", "F_Unwrap", "F_UnwrapHolder", "F_Nested", "F_Num"])
    func readsItsOwnWireFormBackToTheSameBytes(_ model: String) {
        let input =
            #"{"n":"x","ext":{"desc":"d","size":"3"},"id":1,"extra":[1.50],"a":{"b":1,"e":{"f":"y"}},"c":2,"#
            + #""data":{"inner":{"u":5}},"x":{"data":{"inner":{"u":6}},"f":0.1,"d":1e21,"dec":1.50,"n":1.50,"s":"\u00e9"},"#
            + #""b":{"k":{"n":"z"}},"books":[{"ID":"i"}],"y":{"z":[]}}"#
        let first = run(model, input)
        let second = run(model, first.output)
        #expect(first.status == 200)
        #expect(second == Produced(status: 200, output: first.output, entries: []))
    }

    // MARK: - Model-form input

    @Test
    func readsModelFormInputByPropertyName() {
        #expect(
            run("F_Book", #"{"name":"x","desc":"d","size":"3","id":"7","extra":[1],"n":"no"}"#, from: .model)
                == Produced(
                    status: 200, output: #"{"n":"x","ext":{"desc":"d","size":3},"id":"7","extra":[1]}"#,
                    entries: ["/size coerced"]))
        #expect(
            run("F_Nested", #"{"book":{"name":"x"},"books":[{"id":"i","ID":"no"}]}"#, from: .model)
                == Produced(
                    status: 200,
                    output: #"{"b":{"k":{"n":"x","ext":{"size":0}}},"books":[{"ext":{"size":0},"id":"i"}]}"#,
                    entries: []))
    }

    @Test
    func skipsWillTransformForModelFormInput() {
        #expect(
            run("F_Unwrap", #"{"uid":2}"#, from: .model)
                == Produced(status: 200, output: #"{"data":{"inner":{"u":2,"v":1}}}"#, entries: []))
        #expect(
            run("F_Unwrap", #"{"data":{"inner":{"u":2}}}"#, from: .model)
                == Produced(status: 200, output: #"{"data":{"inner":{"u":0,"v":1}}}"#, entries: []))
    }

    @Test
    func rejectsMappedKeysAsUnknownInModelFormInput() {
        #expect(
            run("F_Reject", #"{"uid":1,"u":2}"#, from: .model)
                == Produced(status: 422, output: #"{"uid":1}"#, entries: ["!/u unknown_key"]))
    }

    @Test
    func evaluatesPredicatesOnPropertyNamesForModelFormInput() {
        #expect(
            run("F_Pick", #"{"kind":"x"}"#, from: .model)
                == Produced(status: 200, output: #"{"k":"x","extra":"picked"}"#, entries: []))
        #expect(
            run("F_Pick", #"{"k":"x"}"#) == Produced(status: 200, output: #"{"k":"x","extra":"picked"}"#, entries: []))
        #expect(run("F_Pick", #"{"k":"x"}"#, from: .model) == Produced(status: 200, output: "{}", entries: []))
    }

    @Test
    func readsADatesOwnOutputFormatFirstInModelFormInput() {
        let input = #"{"e":1441296741.5,"ms":1441296741500,"p":"2015/09/03 16:12","iso":"2015-09-03T16:12:21Z"}"#
        #expect(run("F_Dates", input, from: .model) == Produced(status: 200, output: input, entries: []))
        #expect(
            run("F_Dates", input, output: .model, from: .model) == Produced(status: 200, output: input, entries: []))
        #expect(
            run("F_Dates", #"{"e":"03/09/2015","ms":"03/09/2015","p":"03/09/2015"}"#, from: .model)
                == Produced(
                    status: 200, output: #"{"e":1441238400,"ms":1441238400000,"p":"2015/09/03 00:00"}"#, entries: []))
        #expect(
            run("F_Dates", input)
                == Produced(
                    status: 200, output: #"{"e":1441296741.5,"iso":"2015-09-03T16:12:21Z"}"#,
                    entries: ["/e coerced", "/ms invalid_date", "/p invalid_date"]))
    }

    // MARK: - Bytes

    @Test
    func writesCanonicalNumberAndStringBytes() {
        let input =
            #"{"x":{"f":0.1,"d":1e21,"dec":1.50e1,"n":1.50e1,"s":"\u00e9\/\u001F\ud83d\ude00\u007f"},"#
            + #""y":{"s":"caf\u00e9","n":[-0,1E+2],"o":{}}}"#
        #expect(
            run("F_Num", input)
                == Produced(
                    status: 200,
                    output: #"{"x":{"f":0.1,"d":1e+21,"dec":15,"n":1.50e1,"s":"é/\u001f😀"# + "\u{7F}" + #""},"#
                        + #""y":{"s":"café","n":[-0,1E+2],"o":{}}}"#, entries: []))
        #expect(
            run("F_Num", #"{"x":{"f":-0,"d":-0.0,"dec":-0,"n":-0}}"#).output == #"{"x":{"f":0,"d":0,"dec":0,"n":-0}}"#)
        #expect(
            run("F_Num", #"{"x":{"f":1e-7,"d":123456789012345678901234,"dec":1e-7}}"#).output
                == #"{"x":{"f":1e-7,"d":1.2345678901234569e+23,"dec":0.0000001}}"#)
    }

    @Test
    func writesByteIdenticalOutputAcrossRunsAndRegistries() throws {
        let input = #"{"n":"caf\u00e9","ext":{"size":"3","desc":null},"ID":1.50,"extra":{"z":[1.0,{"b":null,"a":-0}]}}"#
        let other = try ConversionFixture.snapshot(Self.models.reversed()).get()
        for form in [ConversionOptions.Form.wire, .model] {
            let first = run("F_Book", input, output: form)
            for _ in 0..<3 { #expect(run("F_Book", input, output: form) == first) }
            #expect(other.produce("F_Book", input, output: form) == first)
        }
    }
}
