// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// The report cap and the schema limits, set through server.json and enforced by the running server.
@Suite struct ConfiguredSchemaLimitsTests {
    static let auth = ["Authorization": "Bearer tok"]

    @Test func reportsAreCutAtMaxReportEntries() throws {
        let server = try ServerProcess(
            schemas: ["t.json": #"{"name":"T","properties":{"a":"int8","b":"int8","c":"int8"}}"#],
            settings: ["maxReportEntries": "2"])
        let response = try server.client().request("POST", "/validate/T", body: #"{"a":"1","b":"2","c":"3"}"#)
        #expect(response.status == 200)
        #expect(response.header("X-Transform-Warnings") == "3", "counts include every entry")
        #expect(response.text.hasSuffix(#","truncated":true}"#))
        #expect(response.text.components(separatedBy: #""code":"coerced""#).count == 3, "two entries listed")
    }

    @Test func schemaWritesRespectTheConfiguredLimits() throws {
        let server = try ServerProcess(
            schemas: ["a.json": #"{"name":"A","properties":{}}"#],
            settings: [
                "maxPropertiesPerModel": "2", "maxSchemaDocumentBytes": "200",
                "maxModels": "2",
            ],
            environment: ["TRANSFORM_ADMIN_TOKEN": "tok"])
        let client = try server.client()
        let tooMany = try client.request(
            "PUT", "/schemas/B", body: #"{"properties":{"x":"int8","y":"int8","z":"int8"}}"#,
            headers: Self.auth)
        #expect(tooMany.status == 400)
        #expect(tooMany.text.contains("3 properties exceed the limit of 2"))
        let large = #"{"properties":{"x":{"type":"string","description":"\#(String(repeating: "d", count: 300))"}}}"#
        let tooLarge = try client.request("PUT", "/schemas/B", body: large, headers: Self.auth)
        #expect(tooLarge.status == 400)
        #expect(tooLarge.text.contains("over the limit of 200"))
        #expect(try client.request("PUT", "/schemas/B", body: #"{"properties":{}}"#, headers: Self.auth).status == 201)
        let third = try client.request("PUT", "/schemas/C", body: #"{"properties":{}}"#, headers: Self.auth)
        #expect(third.status == 400)
        #expect(third.text.contains("exceed the limit of 2"))
    }
}
