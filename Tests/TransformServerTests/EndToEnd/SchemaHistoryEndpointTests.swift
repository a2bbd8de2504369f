// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// docs/lifecycle.md, History and pinning, over HTTP on the real server: the version list and documents,
/// `?version=N` on the conversion endpoints, `X-Model-Version`, and history that survives a restart.
@Suite struct SchemaHistoryEndpointTests {
    static let auth = RegistryEndpointTests.auth
    static let adminEnvironment = ["TRANSFORM_ADMIN_TOKEN": RegistryEndpointTests.token]

    static func put(_ client: RawClient, _ name: String, _ body: String) throws -> RawClient.Response {
        try client.request("PUT", "/schemas/\(name)", body: body, headers: auth)
    }

    @Test func listsKeptVersionsOldestFirstAndServesEachWithItsETag() throws {
        let server = try ServerProcess(schemas: [:], environment: Self.adminEnvironment)
        let client = try server.client()
        let first = try Self.put(client, "P", #"{"properties":{"x":"int8"}}"#)
        let second = try Self.put(client, "P", #"{"properties":{"x":"string"}}"#)
        let list = try client.request("GET", "/schemas/P/versions")
        #expect(list.status == 200)
        let etags = [first.header("ETag")!, second.header("ETag")!]
        let pattern =
            #"^\{"name":"P","versions":\[\{"version":1,"etag":"\\"[0-9a-f]{32}\\"","createdAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z"\},\{"version":2,"#
        #expect(list.text.range(of: pattern, options: .regularExpression) != nil, "\(list.text)")
        #expect(list.text.contains(ErrorJSON.quote(etags[0])) && list.text.contains(ErrorJSON.quote(etags[1])))
        let one = try client.request("GET", "/schemas/P/versions/1")
        #expect(one.status == 200)
        #expect(one.text == #"{"name":"P","properties":{"x":"int8"}}"#)
        #expect(one.header("ETag") == etags[0])
        let unchanged = try client.request("GET", "/schemas/P/versions/1", headers: ["If-None-Match": etags[0]])
        #expect(unchanged.status == 304)
        #expect(unchanged.header("ETag") == etags[0])
        for missing in ["3", "0", "x", "01x"] {
            let response = try client.request("GET", "/schemas/P/versions/\(missing)")
            #expect(response.status == 404)
            #expect(response.text.contains(#""code":"unknown_version""#))
        }
        #expect(try client.request("GET", "/schemas/Nope/versions").status == 404)
        #expect(try client.request("GET", "/schemas/P/versions/1/x").status == 404)
    }

    @Test func pinsAVersionOnEveryConversionEndpointAndSaysWhichVersionRan() throws {
        let server = try ServerProcess(schemas: [:], environment: Self.adminEnvironment)
        let client = try server.client()
        _ = try Self.put(client, "P", #"{"properties":{"x":"string"}}"#)
        _ = try Self.put(client, "P", #"{"properties":{"x":"int32"}}"#)
        let current = try client.request("POST", "/convert/P", body: #"{"x":"7"}"#)
        #expect(current.text == #"{"x":7}"#)
        #expect(current.header("X-Model-Version") == "2")
        let pinned = try client.request("POST", "/convert/P?version=1", body: #"{"x":7}"#)
        #expect(pinned.text == #"{"x":"7"}"#)
        #expect(pinned.header("X-Model-Version") == "1")
        let routes = [
            "/normalize/P", "/validate/P", "/compare/P", "/convert/P/array", "/normalize/P/array",
            "/validate/P/array", "/convert/P/dictionary", "/normalize/P/dictionary",
        ]
        for route in routes {
            let body =
                route.hasSuffix("/array")
                ? #"[{"x":7}]"#
                : route.hasSuffix("/dictionary")
                    ? #"{"k":{"x":7}}"#
                    : route.hasPrefix("/compare") ? #"{"left":{"x":7},"right":{"x":"7"}}"# : #"{"x":7}"#
            let response = try client.request("POST", route + "?version=1", body: body)
            #expect(response.header("X-Model-Version") == "1", "\(route): \(response.status) \(response.text)")
            #expect(try client.request("POST", route, body: body).header("X-Model-Version") == "2", "\(route)")
        }
        let ndjson = try client.request(
            "POST", "/convert/P/array?version=1", body: "{\"x\":7}\n",
            headers: ["Content-Type": "application/x-ndjson"])
        #expect(ndjson.header("X-Model-Version") == "1")
        #expect(ndjson.text == "{\"x\":\"7\"}\n")
        let strictFailure = try client.request("POST", "/convert/P?mode=strict", body: #"{"x":"seven"}"#)
        #expect(strictFailure.status == 422)
        #expect(strictFailure.header("X-Model-Version") == "2", "422 reports carry it too")
        let unknown = try client.request("POST", "/convert/P?version=9", body: "{}")
        #expect(unknown.status == 404)
        #expect(unknown.text.contains(#""code":"unknown_version""#))
        for bad in ["0", "-1", "x", "1.0", ""] {
            #expect(try client.request("POST", "/convert/P?version=\(bad)", body: "{}").status == 400, "version=\(bad)")
        }
        #expect(try client.request("POST", "/convert/Nope?version=1", body: "{}").text.contains("unknown_model"))
    }

    @Test func aDeletedModelKeepsItsVersionsPinnableAndItsCounterAcrossARestart() throws {
        let first = try ServerProcess(schemas: [:], environment: Self.adminEnvironment)
        let client = try first.client()
        _ = try Self.put(client, "P", #"{"properties":{"x":"string"}}"#)
        _ = try Self.put(client, "P", #"{"properties":{"x":"int32"}}"#)
        #expect(try client.request("DELETE", "/schemas/P", headers: Self.auth).status == 204)
        #expect(try client.request("POST", "/convert/P", body: "{}").status == 404, "unpinned: unknown")
        #expect(try client.request("POST", "/convert/P?version=1", body: #"{"x":1}"#).text == #"{"x":"1"}"#)
        #expect(try client.request("GET", "/schemas/P/versions").text.contains(#""version":2"#))
        first.stop()
        let second = try ServerProcess(environment: Self.adminEnvironment, directory: first.directory)
        let again = try second.client()
        #expect(try again.request("GET", "/schemas/P/versions/2").text == #"{"name":"P","properties":{"x":"int32"}}"#)
        let recreated = try Self.put(again, "P", #"{"properties":{"x":"string"}}"#)
        #expect(recreated.status == 201)
        #expect(recreated.text.contains(#""version":3"#), "never repeats: \(recreated.text)")
        #expect(try again.request("POST", "/convert/P", body: #"{"x":1}"#).header("X-Model-Version") == "3")
    }

    @Test func keepsAtMostMaxVersionsPerModel() throws {
        let server = try ServerProcess(
            schemas: [:], settings: ["maxVersionsPerModel": "2"],
            environment: Self.adminEnvironment)
        let client = try server.client()
        for bound in 1...4 {
            _ = try Self.put(client, "P", #"{"properties":{"x":{"type":"int32","maximum":\#(bound)}}}"#)
        }
        let list = try client.request("GET", "/schemas/P/versions").text
        #expect(!list.contains(#""version":2,"#) && list.contains(#""version":3,"#) && list.contains(#""version":4,"#))
        #expect(try client.request("GET", "/schemas/P/versions/2").status == 404)
    }

    @Test func fileModelsCountFromOneAndAReloadThatChangesTheBytesAddsAVersion() throws {
        let server = try ServerProcess(schemas: ["p.json": #"{"name":"P","properties":{"x":"int8"}}"#])
        let client = try server.client()
        #expect(try client.request("POST", "/convert/P", body: #"{"x":1}"#).header("X-Model-Version") == "1")
        try Data(#"{"name":"P","properties":{"x":"string"}}"#.utf8)
            .write(to: server.directory.appendingPathComponent("schemas/p.json"))
        server.signal(SIGHUP)
        var version: String?
        for _ in 0..<100 where version != "2" {  // bounded: the reload is asynchronous
            usleep(50_000)
            version = try client.request("POST", "/convert/P", body: #"{"x":1}"#).header("X-Model-Version")
        }
        #expect(version == "2")
        #expect(try client.request("POST", "/convert/P?version=1", body: #"{"x":"1"}"#).text == #"{"x":1}"#)
    }
}
