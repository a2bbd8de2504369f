// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// docs/api.md "Equality and identity": `X-Model-Hash` is the SHA-256 of the identity form — the model form with
/// `"$model"` at every model object, sets and dictionaries sorted, numbers by value — so equal models share it
/// (YYModel's `modelHash` follows `modelIsEqual`), and a model built as another model does not.
struct ModelHashTests {
    static let registry: SchemaRegistry = {
        let documents = [
            #"""
            {"name":"Person","properties":{"name":"string","age":"int32","score":"double","balance":"decimal",
             "born":"date","active":"bool","address":"Address","tags":{"type":"array","of":"int32"}}}
            """#,
            #"{"name":"Address","properties":{"city":"string","zip":{"type":"string","key":"postal"}}}"#,
            #"{"name":"Raw","properties":{"n":"number","s":"string","a":"any","d":"dictionary","#
                + #""ns":{"type":"set","of":"number"},"ds":{"type":"dictionary","of":"double"}}}"#,
            #"{"name":"Pet","properties":{"name":"string"},"classForDictionary":[{"when":{"key":"kind","equals":"cat"},"use":"Cat"}]}"#,
            #"{"name":"Cat","extends":"Pet","properties":{"whiskers":"string"}}"#,
            #"{"name":"Owner","properties":{"pet":"Pet"}}"#,
            #"{"name":"Shelter","properties":{"pets":{"type":"set","of":"Pet"},"ns":{"type":"set","of":"number"},"anys":"set"}}"#,
        ]
        let registry = SchemaRegistry()
        try! registry.load(documents.enumerated().map { SchemaFile(name: "m\($0).json", bytes: Array($1.utf8)) })
        return registry
    }()

    static let base = #"""
        {"name":"Ann","age":30,"score":0.5,"balance":1.5,"born":"2015-09-03T16:12:21Z","active":true,
         "address":{"city":"Oslo","postal":"0150"},"tags":[1,2]}
        """#
    static let baseModelForm =
        #"{"name":"Ann","age":30,"score":0.5,"balance":1.5,"born":"2015-09-03T16:12:21Z","active":true,"address":{"city":"Oslo","zip":"0150"},"tags":[1,2]}"#
    /// Its identity form.
    static let baseIdentityForm =
        #"{"$model":"Person","name":"Ann","age":30,"score":0.5,"balance":1.5,"#
        + #""born":"2015-09-03T16:12:21Z","active":true,"address":{"$model":"Address","city":"Oslo","zip":"0150"},"tags":[1,2]}"#
    /// sha256sum of `baseIdentityForm`.
    static let baseHash = "efcfd3a99fa2fa1b4d8c4d32b181271d7be3d7313d22e24652f76e79db5dbaa5"

    static func options(output: ConversionOptions.Form = .model, hash: Bool = true) -> ConversionOptions {
        var options = ConversionOptions()
        options.output = output
        options.hash = hash
        return options
    }

    static func converted(_ model: String, _ input: String, _ options: ConversionOptions = options()) throws
        -> Converted
    {
        try Array(input.utf8).withUnsafeBytes { try registry.current.convert($0, model: model, options: options) }
    }

    static func hash(_ model: String, _ input: String) throws -> String? { try converted(model, input).modelHash }

    @Test
    func isTheSHA256OfTheIdentityForm() throws {
        let converted = try Self.converted("Person", Self.base)
        #expect(String(decoding: converted.body, as: UTF8.self) == Self.baseModelForm)
        #expect(converted.modelHash == Self.baseHash)
        #expect(SHA256.hexDigest(Array(Self.baseIdentityForm.utf8)) == Self.baseHash)
    }

    @Test
    func isTheModelFormHashForWireFormOutputToo() throws {
        let wire = try Self.converted("Person", Self.base, Self.options(output: .wire))
        #expect(String(decoding: wire.body, as: UTF8.self).contains(#""postal":"0150""#))
        #expect(wire.modelHash == Self.baseHash)
    }

    @Test
    func isTheSameForAValidReport() throws {
        let result = try Array(Self.base.utf8).withUnsafeBytes {
            try Self.registry.current.validate($0, model: "Person", options: Self.options())
        }
        #expect(result.modelHash == Self.baseHash)
    }

    @Test
    func isAbsentUnlessAskedFor() throws {
        #expect(try Self.converted("Person", Self.base, Self.options(hash: false)).modelHash == nil)
    }

    @Test
    func isLowercaseHex() throws {
        let hash = try #require(try Self.hash("Raw", #"{"s":"x"}"#))
        #expect(hash.utf8.count == 64)
        #expect(hash.utf8.allSatisfy { $0.isASCIIDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
    }

    static let sameModel: [(String, String)] = [
        (
            "key order",
            #"""
            {"tags":[1,2],"address":{"postal":"0150","city":"Oslo"},"active":true,"born":"2015-09-03T16:12:21Z",
             "balance":1.5,"score":0.5,"age":30,"name":"Ann"}
            """#
        ),
        (
            "extra keys",
            #"""
            {"id":9,"name":"Ann","age":30,"score":0.5,"balance":1.5,"born":"2015-09-03T16:12:21Z","active":true,
             "address":{"city":"Oslo","postal":"0150","zip":"x","country":"NO"},"tags":[1,2],"zz":{"deep":[1]}}
            """#
        ),
        (
            "date without zone",
            #"""
            {"name":"Ann","age":30,"score":0.5,"balance":1.5,"born":"2015-09-03 16:12:21","active":true,
             "address":{"city":"Oslo","postal":"0150"},"tags":[1,2]}
            """#
        ),
        (
            "date with offset and zero fraction",
            #"""
            {"name":"Ann","age":30,"score":0.5,"balance":1.5,"born":"2015-09-03T18:12:21.000+02:00","active":true,
             "address":{"city":"Oslo","postal":"0150"},"tags":[1,2]}
            """#
        ),
        (
            "Twitter date",
            #"""
            {"name":"Ann","age":30,"score":0.5,"balance":1.5,"born":"Fri Sep 04 00:12:21 +0800 2015","active":true,
             "address":{"city":"Oslo","postal":"0150"},"tags":[1,2]}
            """#
        ),
        (
            "epoch date",
            #"""
            {"name":"Ann","age":30,"score":0.5,"balance":1.5,"born":1441296741,"active":true,
             "address":{"city":"Oslo","postal":"0150"},"tags":[1,2]}
            """#
        ),
        (
            "numbers spelled differently",
            #"""
            {"name":"Ann","age":3e1,"score":5E-1,"balance":0.150e1,"born":"2015-09-03T16:12:21Z","active":1,
             "address":{"city":"Oslo","postal":"0150"},"tags":[1.0,20e-1]}
            """#
        ),
        (
            "numbers in strings",
            #"""
            {"name":"Ann","age":" 30 ","score":"0.50","balance":"1.50","born":"2015-09-03T16:12:21Z","active":"YES",
             "address":{"city":"Oslo","postal":"0150"},"tags":["1","2"]}
            """#
        ),
        (
            "escaped keys and strings",
            #"""
            {"n\u0061me":"\u0041nn","age":30,"score":0.5,"balance":1.5,"born":"2015-09-03T16:12:21Z","active":true,
             "address":{"city":"Osl\u006f","postal":"0150"},"tags":[1,2]}
            """#
        ),
        (
            "dropped elements",
            #"""
            {"name":"Ann","age":30,"score":0.5,"balance":1.5,"born":"2015-09-03T16:12:21Z","active":true,
             "address":{"city":"Oslo","postal":"0150"},"tags":[1,null,"x",2]}
            """#
        ),
    ]

    @Test(arguments: sameModel)
    func isTheSameForInputsThatBuildTheSameModel(_ name: String, _ input: String) throws {
        let converted = try Self.converted("Person", input)
        #expect(String(decoding: converted.body, as: UTF8.self) == Self.baseModelForm)
        #expect(converted.modelHash == Self.baseHash)
    }

    static let equalValues: [(String, String)] = [
        (#"{"n":1}"#, #"{"n":1.0}"#),
        (#"{"n":100}"#, #"{"n":1e2}"#),
        (#"{"n":0.5}"#, #"{"n":"0.50"}"#),
        (#"{"a":[1]}"#, #"{"a":[1.0]}"#),
        (#"{"a":{"x":1,"y":2}}"#, #"{"a":{"y":2,"x":1}}"#),
        (#"{"d":{"x":1,"y":2}}"#, #"{"d":{"y":2,"x":1}}"#),
        (#"{"ns":[1,2]}"#, #"{"ns":[2,1]}"#),
        (#"{"ns":[1,1.0,2]}"#, #"{"ns":[2.0,1]}"#),
        (#"{"ds":{"a":0.5,"b":1}}"#, #"{"ds":{"b":1.0,"a":"0.5"}}"#),
    ]

    @Test(arguments: equalValues)
    func isTheSameForEqualValuesWrittenDifferently(_ first: String, _ second: String) throws {
        let a = try Self.converted("Raw", first)
        let b = try Self.converted("Raw", second)
        #expect(a.body != b.body)
        #expect(a.modelHash == b.modelHash)
    }

    @Test
    func writesSetsSortedAndNumbersByValueInTheIdentityForm() throws {
        let a = try Self.converted("Raw", #"{"n":1.50e2,"ns":[10,9,1e400],"a":{"z":[0.0],"b":-1E-7}}"#)
        let form = #"{"$model":"Raw","n":150,"a":{"b":-1e-7,"z":[0]},"ns":[10,1e+400,9]}"#
        #expect(a.modelHash == SHA256.hexDigest(Array(form.utf8)))
    }

    static let unequalValues: [(String, String)] = [
        (#"{"s":1.50}"#, #"{"s":1.5}"#),
        (#"{"s":"Ann"}"#, #"{"s":"ann"}"#),
        (#"{"n":true}"#, #"{"n":1}"#),
        (#"{"a":[1,2]}"#, #"{"a":[2,1]}"#),
        (#"{"ns":[1]}"#, #"{"ns":[1,2]}"#),
    ]

    @Test(arguments: unequalValues)
    func differsWhenTheValuesDiffer(_ first: String, _ second: String) throws {
        #expect(try Self.converted("Raw", first).modelHash != Self.converted("Raw", second).modelHash)
    }

    @Test
    func differsWhenClassForDictionaryBuiltAnotherModelFromTheSameModelForm() throws {
        let pet = try Self.converted("Owner", #"{"pet":{"name":"Tom"}}"#)
        let cat = try Self.converted("Owner", #"{"pet":{"name":"Tom","kind":"cat"}}"#)
        // The same model form: only the model built differs.
        #expect(String(decoding: cat.body, as: UTF8.self) == #"{"pet":{"name":"Tom"}}"#)
        #expect(pet.body == cat.body)
        let form = #"{"$model":"Owner","pet":{"$model":"Cat","name":"Tom"}}"#
        #expect(cat.modelHash == SHA256.hexDigest(Array(form.utf8)))
        #expect(pet.modelHash != cat.modelHash)
    }

    @Test
    func aSetKeepsOneElementPerIdentityModelsBuiltAsDifferentModelsIncluded() throws {
        let input =
            #"{"pets":[{"name":"Tom"},{"name":"Tom","kind":"cat"},{"name":"Tom"},{"kind":"cat","name":"Tom"}],"#
            + #""ns":[1,1.0,1e0,2],"anys":[{"a":1,"b":2},{"b":2,"a":1.0},[1]]}"#
        for output in [ConversionOptions.Form.model, .wire] {
            let converted = try Self.converted("Shelter", input, Self.options(output: output))
            #expect(
                String(decoding: converted.body, as: UTF8.self)
                    == #"{"pets":[{"name":"Tom"},{"name":"Tom"}],"ns":[1,2],"anys":[{"a":1,"b":2},[1]]}"#)
        }
    }

    @Test
    func differsWhenAValueDiffers() throws {
        let older = Self.base.replacingFirst("\"age\":30", with: "\"age\":31")
        let other = try Self.converted("Person", older)
        #expect(other.modelHash != Self.baseHash)
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8)
        let needle = Array(target.utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: needle) }) else { return self }
        return String(
            decoding: bytes[..<start] + Array(replacement.utf8) + bytes[(start + needle.count)...], as: UTF8.self)
    }
}
