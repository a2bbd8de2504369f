// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// docs/lifecycle.md, Import: our own export round-trips exactly, and other JSON Schema documents translate keyword
/// by keyword with every unsupported keyword listed.
struct JSONSchemaImportTests {
    typealias Random = NumberFixture.Random

    static let values = [
        "0", "1", "-1", "7", "300", "1.5", "true", "false", "null", "\"\"", "\"abc\"", "\"12\"",
        "\"2020-01-02T03:04:05Z\"", "\"http://x.org\"", "[1,2]", "[\"a\"]", "[]", "{}", "{\"k\":\"v\"}",
        "{\"id\":1,\"login\":\"x\"}", "[{\"url\":\"http://a\",\"width\":1}]",
    ]

    /// The keys the root definition of an export reads (its properties), to generate documents with.
    static func keys(of export: [UInt8]) throws -> [String] {
        let document = try JSONValue.parse(export)
        guard case .string(let reference)? = document["$ref"],
            let definition = document["$defs"]?[String(reference.dropFirst(8))]
        else { return [] }
        var keys: [String] = []
        func collect(_ schema: JSONValue) {
            if case .object(let members)? = schema["properties"] { keys += members.map(\.key) }
            for branch in ["then", "else"] { if let inner = schema[branch] { collect(inner) } }
        }
        collect(definition)
        return keys
    }

    static func run(
        _ snapshot: RegistrySnapshot, _ model: String, _ document: String, mode: ConversionOptions.Mode,
        output: ConversionOptions.Form
    ) -> String {
        var options = ConversionOptions()
        options.mode = mode
        options.output = output
        switch Array(document.utf8).withUnsafeBytes({ body in
            Result { () throws(MappingError) in try snapshot.convert(body, model: model, options: options) }
        }) {
        case .success(let converted): return String(decoding: converted.body, as: UTF8.self)
        case .failure(let error): return "failure " + String(decoding: error.body(requestId: nil), as: UTF8.self)
        }
    }

    @Test
    func importingOurOwnExportGivesModelsWithTheSameVerdictsAndOutputBytes() throws {
        let original = try JSONSchemaExportTests.exampleRegistry().current
        var random = Random(seed: 2024)
        var compared = 0
        for model in original.modelNames {
            let export = try #require(original.jsonSchema(for: model))
            let imported = try JSONSchemaImport(export)
            #expect(imported.unsupported.isEmpty, "\(model): \(imported.unsupported)")
            #expect(imported.models.first == model)
            let registry = SchemaRegistry()
            try registry.apply(
                upserts: [SchemaFile(name: "(import)", bytes: imported.bundle, source: .registry)], deletes: [])
            let copy = registry.current
            for name in imported.models {
                #expect(
                    copy.entries[name]?.document == original.entries[name]?.document, "\(name) restored byte for byte")
            }
            let keys = try Self.keys(of: export)
            for _ in 0..<40 {
                let members = keys.filter { _ in Bool.random(using: &random) }
                    .map { "\"\($0)\":" + Self.values.randomElement(using: &random)! }
                let document = "{" + members.joined(separator: ",") + "}"
                for mode in [ConversionOptions.Mode.strict, .lax] {
                    for output in [ConversionOptions.Form.model, .wire] {
                        #expect(
                            Self.run(copy, model, document, mode: mode, output: output)
                                == Self.run(original, model, document, mode: mode, output: output),
                            "\(model) \(document)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared >= 1_000)
    }

    @Test
    func translatesTheSupportedKeywordsAndListsTheRest() throws {
        let schema = #"""
            {"title":"Order","type":"object","additionalProperties":false,"required":["id"],
             "properties":{"id":{"type":"integer","minimum":1},"total":{"type":["number","null"],"maximum":1e6},
               "status":{"enum":["open","closed"]},"placed":{"type":"string","format":"date-time"},
               "site":{"type":"string","format":"uri"},"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true},
               "lines":{"type":"array","items":{"$ref":"#/$defs/Line"}},"meta":{"type":"object","additionalProperties":{"type":"string"}},
               "big":{"type":"integer","maximum":1e30},"note":{"type":"string","maxLength":20,"pattern":"^[a-z]*$","default":"x"},
               "odd":{"type":"string","not":{"const":"x"}},"e-mail":{"type":"string","format":"email"}},
             "$defs":{"Line":{"type":"object","properties":{"sku":{"type":"string"},"up":{"$ref":"#/$defs/Line"}}}}}
            """#
        let imported = try JSONSchemaImport(Array(schema.utf8))
        #expect(imported.models == ["Order", "Line"])
        #expect(
            String(decoding: imported.bundle, as: UTF8.self)
                == #"{"models":[{"name":"Order","unknownKeys":"reject","properties":{"id":{"type":"int64","minimum":1,"required":true},"total":{"type":"double","maximum":1e6},"status":{"type":"string","enum":["open","closed"]},"placed":{"type":"date"},"site":{"type":"url"},"tags":{"type":"set","of":"string"},"lines":{"type":"array","of":"Line"},"meta":{"type":"dictionary","of":"string"},"big":{"type":"decimal","maximum":1e30},"note":{"type":"string","maxLength":20,"pattern":"^[a-z]*$","default":"x"},"odd":{"type":"string"},"e_mail":{"type":"string","key":"e-mail"}}},{"name":"Line","properties":{"sku":{"type":"string"},"up":{"type":"Line"}}}]}"#
        )
        #expect(imported.unsupported.map(\.pointer) == ["/properties/odd/not", "/properties/e-mail/format"])
        let registry = SchemaRegistry()
        try registry.apply(
            upserts: [SchemaFile(name: "(import)", bytes: imported.bundle, source: .registry)], deletes: [])
        #expect(
            Self.run(
                registry.current, "Order", #"{"id":2,"e-mail":"a@b","lines":[{"sku":"s","up":{"sku":"t"}}]}"#,
                mode: .strict, output: .model)
                == #"{"id":2,"total":0,"lines":[{"sku":"s","up":{"sku":"t"}}],"note":"x","e_mail":"a@b"}"#)
    }

    @Test
    func anAllOfOfOneReferenceAndPropertiesIsAnExtension() throws {
        let schema =
            ##"{"$ref":"#/$defs/Book","$defs":{"Item":{"type":"object","properties":{"id":{"type":"string"}}},"Book":{"allOf":[{"$ref":"#/$defs/Item"},{"properties":{"pages":{"type":"integer"}}}]}}}"##
        let imported = try JSONSchemaImport(Array(schema.utf8), name: "Book")
        #expect(
            String(decoding: imported.bundle, as: UTF8.self)
                == #"{"models":[{"name":"Book","extends":"Item","properties":{"pages":{"type":"int64"}}},{"name":"Item","properties":{"id":{"type":"string"}}}]}"#
        )
        #expect(throws: JSONSchemaImport.Failure.self) { try JSONSchemaImport(Array("[1]".utf8)) }
    }
}

extension JSONSchemaImportTests {
    @Test
    func aOneOfOfReferencesToldApartByAConstIsAClassChoice() throws {
        let schema =
            ##"{"title":"Shape","type":"object","properties":{"kind":{"type":"string"}},"oneOf":[{"$ref":"#/$defs/Circle"},{"$ref":"#/$defs/Square"}],"$defs":{"Circle":{"type":"object","properties":{"kind":{"const":"circle"},"r":{"type":"number"}}},"Square":{"type":"object","properties":{"kind":{"enum":["square"]},"side":{"type":"number"}}}}}"##
        let imported = try JSONSchemaImport(Array(schema.utf8))
        #expect(imported.unsupported.isEmpty, "\(imported.unsupported)")
        #expect(
            String(decoding: imported.bundle, as: UTF8.self)
                == #"{"models":[{"name":"Shape","properties":{"kind":{"type":"string"}},"classForDictionary":[{"when":{"key":"kind","equals":"circle"},"use":"Circle"},{"when":{"key":"kind","equals":"square"},"use":"Square"}]},{"name":"Circle","extends":"Shape","properties":{"kind":{"type":"string","enum":["circle"]},"r":{"type":"double"}}},{"name":"Square","extends":"Shape","properties":{"kind":{"type":"string","enum":["square"]},"side":{"type":"double"}}}]}"#
        )
        let registry = SchemaRegistry()
        try registry.apply(
            upserts: [SchemaFile(name: "(import)", bytes: imported.bundle, source: .registry)], deletes: [])
        #expect(
            Self.run(registry.current, "Shape", #"{"kind":"square","side":2}"#, mode: .strict, output: .model)
                == #"{"kind":"square","side":2}"#)
    }
}
