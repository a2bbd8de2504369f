// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// docs/lifecycle.md, Import: `TransformServer import jsonschema` and `POST /schemas/import` on the real binary.
@Suite struct SchemaImportTests {
    static let schema =
        #"{"title":"Tag","type":"object","required":["label"],"properties":{"label":{"type":"string","maxLength":8},"rank":{"type":"integer","multipleOf":2}}}"#

    @Test func theCommandWritesABundleWarnsAboutUnsupportedKeywordsAndFailsWithStrict() throws {
        let file = try ChildProcess.temporaryDirectory().appendingPathComponent("tag.schema.json")
        try Data(Self.schema.utf8).write(to: file)
        let lenient = try ChildProcess.run(["import", "jsonschema", file.path])
        #expect(lenient.status == 0)
        #expect(
            lenient.stdout
                == #"{"models":[{"name":"Tag","properties":{"label":{"type":"string","maxLength":8,"required":true},"rank":{"type":"int64"}}}]}"#
                + "\n")
        #expect(lenient.stderr.contains("/properties/rank/multipleOf: warning: multipleOf is not supported"))
        let strict = try ChildProcess.run(["import", "jsonschema", file.path, "--strict", "--name", "Label"])
        #expect(strict.status == 1)
        #expect(strict.stdout.isEmpty)
        #expect(try ChildProcess.run(["import", "jsonschema"]).status == 2)
    }

    @Test func theEndpointRegistersTheTranslationAsOneBundle() throws {
        let server = try ServerProcess(
            schemas: [:], environment: ["TRANSFORM_ADMIN_TOKEN": RegistryEndpointTests.token])
        let client = try server.client()
        let body = #"{"name":"Label","jsonschema":\#(Self.schema)}"#
        #expect(try client.request("POST", "/schemas/import", body: body).status == 401)
        let imported = try client.request("POST", "/schemas/import", body: body, headers: RegistryEndpointTests.auth)
        #expect(imported.status == 200)
        #expect(imported.text.hasPrefix(#"[{"name":"Label","version":1,"#))
        #expect(
            try client.request("POST", "/convert/Label", body: #"{"label":"x","rank":"3"}"#).text
                == #"{"label":"x","rank":3}"#)
        // Our own export comes back as the same model.
        let export = try client.request("GET", "/schemas/Label/jsonschema").text
        let again = try client.request(
            "POST", "/schemas/import", body: #"{"jsonschema":\#(export)}"#, headers: RegistryEndpointTests.auth)
        #expect(again.text.contains(#""version":1,"#), "the same bytes: no new version (\(again.text))")
        #expect(again.text.hasSuffix(#","unsupported":[]}]"#), "an export translates whole (\(again.text))")
        #expect(
            try client.request(
                "POST", "/schemas/import", body: #"{"jsonschema":[]}"#, headers: RegistryEndpointTests.auth
            ).status == 400)
    }

    /// The answer names every keyword left out, with its JSON Pointer, on the entry of the model it belongs to; a
    /// keyword where no model came out is listed on the root model's entry.
    @Test func theEndpointListsTheKeywordsItLeftOutUnderTheirModels() throws {
        let server = try ServerProcess(
            schemas: [:], environment: ["TRANSFORM_ADMIN_TOKEN": RegistryEndpointTests.token])
        let jsonschema =
            ##"{"type":"object","properties":{"rank":{"type":"integer","multipleOf":2},"line":{"$ref":"#/$defs/Line"}},"$defs":{"Line":{"type":"object","properties":{"sku":{"type":"string","not":{"const":""}}}},"Flag":true}}"##
        let imported = try server.client().request(
            "POST", "/schemas/import", body: #"{"name":"Order","jsonschema":\#(jsonschema)}"#,
            headers: RegistryEndpointTests.auth)
        #expect(imported.status == 200)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(imported.body)) as? [[String: Any]])
        let unsupported = Dictionary(
            uniqueKeysWithValues: entries.map {
                (
                    $0["name"] as? String ?? "",
                    ($0["unsupported"] as? [[String: String]] ?? []).map { "\($0["path"]!): \($0["message"]!)" }
                )
            })
        #expect(
            unsupported == [
                "Order": [
                    "/properties/rank/multipleOf: multipleOf is not supported",
                    "/$defs/Flag: a model must be an object schema",
                ],
                "Line": ["/$defs/Line/properties/sku/not: not is not supported"],
            ], "\(imported.text)")
        #expect(
            try server.client().request("POST", "/convert/Order", body: #"{"rank":"3","line":{"sku":""}}"#).text
                == #"{"rank":3,"line":{"sku":""}}"#, "written without them")
    }

    /// `import` is a valid model name: `POST /schemas/import` imports, and the other methods on that path read,
    /// write and delete the model `import`, as on any other name.
    @Test func aModelNamedImportIsReachableBesideTheImportRoute() throws {
        let server = try ServerProcess(
            schemas: [:], environment: ["TRANSFORM_ADMIN_TOKEN": RegistryEndpointTests.token])
        let client = try server.client()
        let model = #"{"properties":{"n":"int32"}}"#
        #expect(try client.request("GET", "/schemas/import").text.contains(#""code":"unknown_model""#))
        #expect(try client.request("PUT", "/schemas/import", body: model).status == 401)
        let created = try client.request("PUT", "/schemas/import", body: model, headers: RegistryEndpointTests.auth)
        #expect(created.status == 201)
        #expect(created.text.hasPrefix(#"{"name":"import","version":1,"#))
        let read = try client.request("GET", "/schemas/import")
        #expect(read.status == 200)
        #expect(read.text == #"{"name":"import","properties":{"n":"int32"}}"#)
        #expect(read.header("ETag") == created.header("ETag"))
        #expect(try client.request("HEAD", "/schemas/import", headers: ["Connection": "keep-alive"]).status == 200)
        #expect(try client.request("POST", "/convert/import", body: #"{"n":"7"}"#).text == #"{"n":7}"#)
        #expect(try client.request("GET", "/schemas/import/versions").text.contains(#""name":"import""#))
        // The import route is still there, beside it.
        let imported = try client.request(
            "POST", "/schemas/import", body: #"{"name":"Tag","jsonschema":\#(Self.schema)}"#,
            headers: RegistryEndpointTests.auth)
        #expect(imported.status == 200)
        #expect(imported.text.hasPrefix(#"[{"name":"Tag","version":1,"#))
        let patch = try client.request("PATCH", "/schemas/import")
        #expect(patch.status == 405)
        #expect(patch.header("Allow") == "GET, POST, PUT, DELETE, HEAD")
        #expect(try client.request("DELETE", "/schemas/import", headers: RegistryEndpointTests.auth).status == 204)
        #expect(try client.request("GET", "/schemas/import").status == 404)
        #expect(try client.request("GET", "/schemas/Tag").status == 200)
        // Counted under the route that served them, refused ones too.
        let metrics = try client.request("GET", "/metrics").text
        #expect(
            metrics.contains(#"transform_http_requests_total{method="PUT",route="/schemas/{model}",status="401"} 1"#))
        #expect(
            metrics.contains(#"transform_http_requests_total{method="POST",route="/schemas/import",status="200"} 1"#))
    }
}
