// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@Suite struct RegistryEndpointTests {
    static let token = "s3cret-token"
    static var auth: [String: String] { ["Authorization": "Bearer \(token)"] }

    @Test func writesNeedTheAdminToken() throws {
        let readOnly = try ServerProcess()
        #expect(try readOnly.client().request("PUT", "/schemas/X", body: #"{"properties":{}}"#).status == 403)
        let server = try ServerProcess(environment: ["TRANSFORM_ADMIN_TOKEN": Self.token])
        let client = try server.client()
        #expect(try client.request("PUT", "/schemas/X", body: #"{"properties":{}}"#).status == 401)
        #expect(
            try client.request(
                "PUT", "/schemas/X", body: #"{"properties":{}}"#, headers: ["Authorization": "Bearer nope"]
            ).status == 401)
        #expect(try client.request("PUT", "/schemas/X", body: #"{"properties":{}}"#, headers: Self.auth).status == 201)
    }

    @Test func registersReadsReplacesAndDeletesWithETags() throws {
        let server = try ServerProcess(environment: ["TRANSFORM_ADMIN_TOKEN": Self.token])
        let client = try server.client()
        let created = try client.request(
            "PUT", "/schemas/Point", body: #"{"properties":{"x":"int8"}}"#, headers: Self.auth)
        #expect(created.status == 201)
        let etag = try #require(created.header("ETag"))
        #expect(created.text == #"{"name":"Point","version":1,"etag":\#(ErrorJSON.quote(etag)),"created":true}"#)
        let document = try client.request("GET", "/schemas/Point")
        #expect(document.text == #"{"name":"Point","properties":{"x":"int8"}}"#)
        #expect(document.header("ETag") == etag)
        #expect(try client.request("GET", "/schemas/Point", headers: ["If-None-Match": etag]).status == 304)
        #expect(try client.request("POST", "/convert/Point", body: #"{"x":"3"}"#).text == #"{"x":3}"#)
        let stale = try client.request(
            "PUT", "/schemas/Point", body: #"{"properties":{"x":"string"}}"#,
            headers: Self.auth.merging(["If-Match": "\"0000\""]) { $1 })
        #expect(stale.status == 412)
        let replaced = try client.request(
            "PUT", "/schemas/Point", body: #"{"properties":{"x":"string"}}"#,
            headers: Self.auth.merging(["If-Match": etag]) { $1 })
        #expect(replaced.status == 200)
        #expect(replaced.text.contains(#""version":2"#))
        #expect(try client.request("POST", "/convert/Point", body: #"{"x":3}"#).text == #"{"x":"3"}"#)
        let list = try client.request("GET", "/schemas")
        #expect(list.text.contains(#"{"name":"Point","version":2,"#))
        #expect(list.text.contains(#""source":"registry"}"#))
        #expect(try client.request("DELETE", "/schemas/Point", headers: Self.auth).status == 204)
        #expect(try client.request("GET", "/schemas/Point").status == 404)
    }

    @Test func rejectsABrokenSchemaWithEveryProblem() throws {
        let server = try ServerProcess(environment: ["TRANSFORM_ADMIN_TOKEN": Self.token])
        let response = try server.client().request(
            "PUT", "/schemas/Bad",
            body: #"{"properties":{"a":"int99","b":{"type":"string","pattern":"(?=x)"}}}"#, headers: Self.auth)
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_schema""#))
        #expect(response.text.contains(#"{"path":"/properties/a","message":"unknown type \"int99\""}"#))
        #expect(response.text.contains(#"{"path":"/properties/b/pattern","message":"unsupported pattern: "#))
    }

    @Test func deletingAReferencedModelIs409() throws {
        let server = try ServerProcess(environment: ["TRANSFORM_ADMIN_TOKEN": Self.token])
        let client = try server.client()
        let response = try client.request("DELETE", "/schemas/Owner", headers: Self.auth)
        #expect(response.status == 409)
        #expect(response.text.contains(#""code":"conflict""#))
        let bundle = try client.request(
            "POST", "/schemas", body: #"{"models":[],"delete":["Owner","Repo"]}"#, headers: Self.auth)
        #expect(bundle.status == 200)
        #expect(try client.request("GET", "/schemas/Owner").status == 404)
    }

    @Test func registryWritesSurviveARestart() throws {
        let first = try ServerProcess(environment: ["TRANSFORM_ADMIN_TOKEN": Self.token])
        let client = try first.client()
        #expect(
            try client.request("PUT", "/schemas/Kept", body: #"{"properties":{"v":"bool"}}"#, headers: Self.auth).status
                == 201)
        #expect(try client.request("DELETE", "/schemas/User", headers: Self.auth).status == 204)
        first.stop()
        let second = try ServerProcess(environment: ["TRANSFORM_ADMIN_TOKEN": Self.token], directory: first.directory)
        let again = try second.client()
        #expect(try again.request("POST", "/convert/Kept", body: #"{"v":"yes"}"#).text == #"{"v":true}"#)
        #expect(try again.request("GET", "/schemas/User").status == 404)
        let files = try FileManager.default.contentsOfDirectory(
            atPath: first.directory.appendingPathComponent("schemas").path)
        #expect(files.contains(".registry.json"))
        #expect(files.contains("user.json"), "schema files are never rewritten")
    }

    @Test func exportsAJSONSchema() throws {
        let server = try ServerProcess()
        let response = try server.client().request("GET", "/schemas/User/jsonschema")
        #expect(response.status == 200)
        #expect(response.text.contains(#""$schema":"https://json-schema.org/draft/2020-12/schema""#))
        #expect(response.header("ETag")?.count == 34)
    }
}

enum ErrorJSON {
    static func quote(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
}
