// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// docs/lifecycle.md, Import: `TransformServer import jsonschema` and `POST /schemas/import` on the real binary.
@Suite struct SchemaImportTests {
    static let schema = #"{"title":"Tag","type":"object","required":["label"],"properties":{"label":{"type":"string","maxLength":8},"rank":{"type":"integer","multipleOf":2}}}"#

    @Test func theCommandWritesABundleWarnsAboutUnsupportedKeywordsAndFailsWithStrict() throws {
        let file = try ChildProcess.temporaryDirectory().appendingPathComponent("tag.schema.json")
        try Data(Self.schema.utf8).write(to: file)
        let lenient = try ChildProcess.run(["import", "jsonschema", file.path])
        #expect(lenient.status == 0)
        #expect(lenient.stdout == #"{"models":[{"name":"Tag","properties":{"label":{"type":"string","maxLength":8,"required":true},"rank":{"type":"int64"}}}]}"# + "\n")
        #expect(lenient.stderr.contains("/properties/rank/multipleOf: warning: multipleOf is not supported"))
        let strict = try ChildProcess.run(["import", "jsonschema", file.path, "--strict", "--name", "Label"])
        #expect(strict.status == 1)
        #expect(strict.stdout.isEmpty)
        #expect(try ChildProcess.run(["import", "jsonschema"]).status == 2)
    }

    @Test func theEndpointRegistersTheTranslationAsOneBundle() throws {
        let server = try ServerProcess(schemas: [:], environment: ["TRANSFORM_ADMIN_TOKEN": RegistryEndpointTests.token])
        let client = try server.client()
        let body = #"{"name":"Label","jsonschema":\#(Self.schema)}"#
        #expect(try client.request("POST", "/schemas/import", body: body).status == 401)
        let imported = try client.request("POST", "/schemas/import", body: body, headers: RegistryEndpointTests.auth)
        #expect(imported.status == 200)
        #expect(imported.text.hasPrefix(#"[{"name":"Label","version":1,"#))
        #expect(try client.request("POST", "/convert/Label", body: #"{"label":"x","rank":"3"}"#).text == #"{"label":"x","rank":3}"#)
        // Our own export comes back as the same model.
        let export = try client.request("GET", "/schemas/Label/jsonschema").text
        let again = try client.request("POST", "/schemas/import", body: #"{"jsonschema":\#(export)}"#, headers: RegistryEndpointTests.auth)
        #expect(again.text.contains(#""version":1,"#), "the same bytes: no new version (\(again.text))")
        #expect(try client.request("POST", "/schemas/import", body: #"{"jsonschema":[]}"#, headers: RegistryEndpointTests.auth).status == 400)
    }
}
