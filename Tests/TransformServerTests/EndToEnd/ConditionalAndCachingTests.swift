// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// Conditional requests, media types, caching and registry messages as docs/api.md states them (each found by a
/// tool nobody on the project wrote: schemathesis, REDbot, or a new user's first requests).
@Suite struct ConditionalAndCachingTests {
    static var admin: [String: String] { ["TRANSFORM_ADMIN_TOKEN": RegistryEndpointTests.token] }

    static func auth(_ extra: [String: String]) -> [String: String] {
        RegistryEndpointTests.auth.merging(extra) { $1 }
    }

    /// RFC 9110 §13.1.2: `If-None-Match: *` on PUT is "create only if absent".
    @Test func ifNoneMatchStarOnPutCreatesOnlyAnAbsentModel() throws {
        let server = try ServerProcess(environment: Self.admin)
        let client = try server.client()
        let onlyIfAbsent = Self.auth(["If-None-Match": "*"])
        let created = try client.request(
            "PUT", "/schemas/Point", body: #"{"properties":{"x":"int8"}}"#, headers: onlyIfAbsent)
        #expect(created.status == 201)
        let again = try client.request(
            "PUT", "/schemas/Point", body: #"{"properties":{"x":"string"}}"#, headers: onlyIfAbsent)
        #expect(again.status == 412)
        #expect(again.text.contains(#""code":"precondition_failed","message":"Point already exists"#))
        let byTag = try client.request(
            "PUT", "/schemas/Point", body: #"{"properties":{"x":"string"}}"#,
            headers: Self.auth(["If-None-Match": "W/" + (created.header("ETag") ?? "")]))
        #expect(byTag.status == 412)
        #expect(try client.request("GET", "/schemas/Point").text == #"{"name":"Point","properties":{"x":"int8"}}"#)
        let other = try client.request(
            "PUT", "/schemas/Point", body: #"{"properties":{"x":"string"}}"#,
            headers: Self.auth(["If-None-Match": "\"0000\""]))
        #expect(other.status == 200)
    }

    @Test func ifNoneMatchStarOnDeleteIs412WhileTheModelExists() throws {
        let server = try ServerProcess(environment: Self.admin)
        let client = try server.client()
        let response = try client.request("DELETE", "/schemas/User", headers: Self.auth(["If-None-Match": "*"]))
        #expect(response.status == 412)
        #expect(response.text.contains(#""code":"precondition_failed""#))
        #expect(try client.request("GET", "/schemas/User").status == 200)
    }

    /// `/schemas/{M}/jsonschema` compares `If-None-Match` weakly, as `/schemas/{M}` does.
    @Test func jsonSchemaHonoursWeakTagsInIfNoneMatch() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let etag = try #require(try client.request("GET", "/schemas/User/jsonschema").header("ETag"))
        for header in [etag, "W/" + etag, "\"0000\", W/" + etag, "*"] {
            let response = try client.request("GET", "/schemas/User/jsonschema", headers: ["If-None-Match": header])
            #expect(response.status == 304, "If-None-Match: \(header)")
            #expect(response.header("ETag") == etag)
        }
        #expect(
            try client.request("GET", "/schemas/User/jsonschema", headers: ["If-None-Match": "W/\"0000\""]).status
                == 200)
    }

    /// RFC 6838 §4.2: a subtype starts with a letter or digit, so `application/+json` is no media type at all.
    @Test(arguments: ["application/+json", "application/+json; charset=utf-8", "+json/json", "application/js on"])
    func aMalformedMediaTypeIs415(_ contentType: String) throws {
        let server = try ServerProcess()
        let response = try server.client().request(
            "POST", "/convert/User", body: #"{"uid":1}"#,
            headers: ["Content-Type": contentType])
        #expect(response.status == 415)
        #expect(response.text.contains("is not a media type"))
    }

    @Test func aStructuredSuffixWithANameIsJSON() throws {
        let server = try ServerProcess()
        let response = try server.client().request(
            "POST", "/convert/User", body: #"{"uid":1}"#,
            headers: ["Content-Type": "application/vnd.user+json"])
        #expect(response.status == 200)
    }

    /// Probes, metrics, conversions and every error are computed per request: `no-store`.
    @Test func answersComputedPerRequestAreNeverStored() throws {
        let server = try ServerProcess(environment: Self.admin)
        let client = try server.client()
        let responses = [
            try client.request("GET", "/health"),
            try client.request("GET", "/ready"),
            try client.request("GET", "/metrics"),
            try client.request("POST", "/convert/User", body: #"{"uid":1}"#),
            try client.request("POST", "/validate/User", body: #"{}"#),
            try client.request(
                "POST", "/convert/User/array", body: "{\"uid\":1}\n",
                headers: ["Content-Type": "application/x-ndjson"]),
            try client.request("GET", "/nothing"),
            try client.request("GET", "/schemas"),
            try client.request(
                "PUT", "/schemas/Point", body: #"{"properties":{}}"#, headers: RegistryEndpointTests.auth),
        ]
        for response in responses {
            #expect(response.header("Cache-Control") == "no-store", "\(response.status) \(response.text.prefix(60))")
        }
    }

    /// Registry reads with an ETag: a cache may keep them but revalidates first (`no-cache`), 304s included.
    @Test func registryReadsAreRevalidatedBeforeEachUse() throws {
        let server = try ServerProcess()
        let client = try server.client()
        for target in ["/schemas/User", "/schemas/User/jsonschema"] {
            let response = try client.request("GET", target)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-cache", "\(target)")
            let etag = try #require(response.header("ETag"))
            let revalidated = try client.request("GET", target, headers: ["If-None-Match": etag])
            #expect(revalidated.status == 304)
            #expect(revalidated.header("Cache-Control") == "no-cache", "\(target) 304")
        }
    }

    @Test func aDeleteConflictNamesTheModelsThatUseIt() throws {
        let server = try ServerProcess(environment: Self.admin)
        let client = try server.client()
        #expect(
            try client.request(
                "PUT", "/schemas/Fork", body: #"{"extends":"Owner","properties":{}}"#,
                headers: RegistryEndpointTests.auth
            ).status == 201)
        let response = try client.request("DELETE", "/schemas/Owner", headers: RegistryEndpointTests.auth)
        #expect(response.status == 409)
        #expect(
            response.text.contains(
                #""message":"Owner is still used by Fork, Repo (repo.json /models/1/properties/owner); "#
                    + #"delete it together with them in one bundle.""#))
    }
}
