// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// Behaviours found in review against docs/api.md, each pinned by a test.
@Suite struct ReviewFindingsTests {
    @Test func aFailingNDJSONRequestIsAnsweredWithoutReadingItsBodyThenCloses() throws {
        let server = try ServerProcess()
        let client = try server.client()
        try client.send(
            "POST /convert/User/array?mode=x HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: 100\r\n\r\n{\"uid\":1}\n")
        let response = try client.read()
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_parameter""#))
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test func notModifiedCarriesVary() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let etag = try #require(try client.request("GET", "/schemas/User").header("ETag"))
        let response = try client.request("GET", "/schemas/User", headers: ["If-None-Match": etag])
        #expect(response.status == 304)
        #expect(response.header("Vary") == "Accept-Encoding")
        let schema = try client.request("GET", "/schemas/User/jsonschema")
        let again = try client.request(
            "GET", "/schemas/User/jsonschema", headers: ["If-None-Match": schema.header("ETag") ?? ""])
        #expect(again.status == 304)
    }

    @Test func theBearerSchemeIsCaseInsensitive() throws {
        let server = try ServerProcess(environment: ["TRANSFORM_ADMIN_TOKEN": "tok"])
        let response = try server.client().request(
            "PUT", "/schemas/Y", body: #"{"properties":{}}"#,
            headers: ["Authorization": "bEaReR tok"])
        #expect(response.status == 201)
    }

    @Test func rejectedRequestsCountUnderTheirRouteTemplate() throws {
        let server = try ServerProcess()
        let client = try server.client()
        _ = try client.request("POST", "/convert/Nobody", body: "{}")
        _ = try client.request("GET", "/no/such/route")
        let metrics = try client.request("GET", "/metrics").text
        #expect(
            metrics.contains(#"transform_http_requests_total{method="POST",route="/convert/{model}",status="404"} 1"#))
        #expect(metrics.contains(#"transform_http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
        #expect(!metrics.contains("Nobody"))
    }

    /// A request answered from its head alone (411: no length) counts under its own route, not under the route of
    /// the request before it on the same connection.
    @Test func anAnswerFromTheHeadAloneCountsUnderItsOwnRoute() throws {
        let server = try ServerProcess()
        let client = try server.client()
        #expect(try client.request("GET", "/health").status == 200)
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try client.read().status == 411)
        // The request is counted once its answer is flushed, which another connection may overtake: poll briefly.
        let line = #"transform_http_requests_total{method="POST",route="/convert/{model}",status="411"} 1"#
        var metrics = ""
        for _ in 0..<50 {
            metrics = try server.client().request("GET", "/metrics").text
            if metrics.contains(line) { break }
            usleep(20_000)
        }
        #expect(metrics.contains(line))
        #expect(!metrics.contains(#"route="/health",status="411""#))
    }

    @Test func theConflictMessageSaysWhereTheModelIsUsed() throws {
        let server = try ServerProcess(environment: ["TRANSFORM_ADMIN_TOKEN": "tok"])
        let response = try server.client().request("DELETE", "/schemas/Owner", headers: ["Authorization": "Bearer tok"])
        #expect(response.status == 409)
        #expect(response.text.contains("repo.json /models/1/properties/owner"))
    }
}
