// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// docs/lifecycle.md, Compatibility and Replay, over HTTP on the real server: per-model configuration, 409 with
/// every difference, the order of a write's checks, the dry run, the output view's export, and replay.
@Suite struct CompatibilityEndpointTests {
    static let auth = RegistryEndpointTests.auth
    static let adminEnvironment = ["TRANSFORM_ADMIN_TOKEN": RegistryEndpointTests.token]

    static func put(
        _ client: RawClient, _ path: String, _ body: String,
        _ headers: [String: String] = [:]
    ) throws -> RawClient.Response {
        try client.request("PUT", path, body: body, headers: auth.merging(headers) { $1 })
    }

    @Test func aBreakingChangeIs409WithEveryDifferenceAndChangesNothing() throws {
        let server = try ServerProcess(schemas: [:], environment: Self.adminEnvironment)
        let client = try server.client()
        let first = try Self.put(
            client, "/schemas/Tag", #"{"properties":{"label":{"type":"string","maxLength":10},"weight":"int32"}}"#)
        #expect(
            try Self.put(client, "/schemas/Tag/config", #"{"compatibility":"backward"}"#).text
                == #"{"compatibility":"backward","view":"both"}"#)
        let refused = try Self.put(
            client, "/schemas/Tag",
            #"{"properties":{"label":{"type":"string","maxLength":5},"weight":"int32","extra":"string"}}"#)
        #expect(refused.status == 409)
        #expect(refused.text.contains(#""code":"incompatible_schema""#))
        #expect(refused.text.contains(#""compatibility":"backward","against":[1],"differences":["#))
        #expect(
            refused.text.contains(
                #"{"view":"input","path":"/$defs/Tag/properties/label/maxLength","code":"MAX_LENGTH_DECREASED","#))
        #expect(
            refused.text.contains(
                #"{"view":"input","path":"/$defs/Tag/properties/extra","code":"PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL","#)
        )
        #expect(
            refused.text.contains(
                #"{"view":"output","path":"/$defs/Tag/properties/label/maxLength","code":"MAX_LENGTH_DECREASED","#))
        #expect(try client.request("GET", "/schemas/Tag").header("ETag") == first.header("ETag"), "nothing changed")
        // Widening is accepted: a longer maxLength and a wider integer.
        let widened = try Self.put(
            client, "/schemas/Tag", #"{"properties":{"label":{"type":"string","maxLength":20},"weight":"int64"}}"#)
        #expect(widened.status == 200)
        #expect(widened.text.contains(#""version":2"#))
    }

    @Test func writesCheckAuthThenIfMatchThenValidityThenCompatibility() throws {
        let server = try ServerProcess(schemas: [:], environment: Self.adminEnvironment)
        let client = try server.client()
        _ = try Self.put(client, "/schemas/P", #"{"properties":{"x":"int32"}}"#)
        _ = try Self.put(client, "/schemas/P/config", #"{"compatibility":"full"}"#)
        let breaking = #"{"properties":{"x":"int8"}}"#
        let invalid = #"{"properties":{"x":"int99"}}"#
        #expect(try client.request("PUT", "/schemas/P", body: breaking, headers: ["If-Match": "\"0\""]).status == 401)
        #expect(try Self.put(client, "/schemas/P", invalid, ["If-Match": "\"0\""]).status == 412)
        #expect(try Self.put(client, "/schemas/P", invalid).status == 400)
        #expect(try Self.put(client, "/schemas/P", breaking).status == 409)
        let bundle = try client.request(
            "POST", "/schemas", body: #"{"models":[{"name":"P","properties":{"x":"int8"}},{"name":"Q"}]}"#,
            headers: Self.auth)
        #expect(bundle.status == 409)
        #expect(bundle.text.contains(#""against":{"P":[1],"Q":[]}"#), "\(bundle.text)")
        #expect(
            bundle.text.contains(
                #"{"model":"P","view":"input","path":"/$defs/P/properties/x/minimum","code":"MINIMUM_INCREASED","#))
        #expect(try client.request("GET", "/schemas/Q").status == 404, "all or nothing")
        let readOnly = try ServerProcess(schemas: [:])
        #expect(try readOnly.client().request("PUT", "/schemas/P/config", body: "{}").status == 403)
    }

    @Test func configAnswersForAnyNameRejectsBadValuesAndSurvivesARestart() throws {
        let first = try ServerProcess(
            schemas: [:], settings: ["defaultCompatibility": "\"forward\""],
            environment: Self.adminEnvironment)
        let client = try first.client()
        #expect(
            try client.request("GET", "/schemas/Later/config").text == #"{"compatibility":"forward","view":"both"}"#)
        let bad = try Self.put(client, "/schemas/Later/config", #"{"compatibility":"sideways"}"#)
        #expect(bad.status == 400)
        #expect(bad.text.contains(#""code":"invalid_parameter""#))
        #expect(
            try Self.put(client, "/schemas/Later/config", #"{"view":"output"}"#).text
                == #"{"compatibility":"forward","view":"output"}"#)
        #expect(try Self.put(client, "/schemas/Later/config", #"{"compatibility":"none"}"#).status == 200)
        first.stop()
        let second = try ServerProcess(
            settings: ["defaultCompatibility": "\"forward\""], environment: Self.adminEnvironment,
            directory: first.directory)
        #expect(
            try second.client().request("GET", "/schemas/Later/config").text
                == #"{"compatibility":"none","view":"output"}"#)
    }

    @Test func theDryRunStoresNothingAndTakesLevelAndView() throws {
        let server = try ServerProcess(schemas: [:], environment: Self.adminEnvironment)
        let client = try server.client()
        _ = try Self.put(client, "/schemas/Tag", #"{"properties":{"label":"string","weight":"int32"}}"#)
        let optional = #"{"properties":{"label":"string","weight":"int32","note":"string"}}"#
        let output = try client.request("POST", "/schemas/Tag/compatibility?level=full&view=output", body: optional)
        #expect(
            output.text == #"{"compatible":true,"level":"full","against":[1],"differences":[]}"#,
            "adding an optional property is compatible both ways on the output side")
        let input = try client.request("POST", "/schemas/Tag/compatibility?level=backward&view=input", body: optional)
        #expect(
            input.text.hasPrefix(
                #"{"compatible":false,"level":"backward","against":[1],"differences":[{"view":"input","path":"/$defs/Tag/properties/note","code":"PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL""#
            ))
        let required = #"{"properties":{"label":"string","weight":"int32","note":{"type":"string","required":true}}}"#
        let addedRequired = try client.request(
            "POST", "/schemas/Tag/compatibility?level=backward&view=output", body: required)
        #expect(addedRequired.text.contains(#""code":"REQUIRED_ATTRIBUTE_ADDED""#))
        #expect(try client.request("POST", "/schemas/Tag/compatibility?level=sideways", body: optional).status == 400)
        #expect(try client.request("POST", "/schemas/Tag/compatibility?color=red", body: optional).status == 400)
        #expect(try client.request("POST", "/schemas/Nope/compatibility", body: optional).status == 404)
        #expect(
            try client.request("POST", "/schemas/Tag/compatibility", body: #"{"properties":{"x":"int99"}}"#).status
                == 400)
        #expect(try client.request("GET", "/schemas/Tag/versions").text.contains(#""version":2"#) == false)
        let exported = try client.request("GET", "/schemas/Tag/jsonschema?view=output")
        #expect(
            exported.text.contains(
                #""Tag":{"title":"Tag","type":"object","properties":{"label":{"type":"string"},"weight":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["weight"]}"#
            ))
        #expect(exported.header("ETag") != (try client.request("GET", "/schemas/Tag/jsonschema")).header("ETag"))
    }

    @Test func replayReportsOnlyTheDocumentsWhoseOutcomeDiffers() throws {
        let server = try ServerProcess(schemas: [:], environment: Self.adminEnvironment)
        let client = try server.client()
        _ = try Self.put(client, "/schemas/Tag", #"{"properties":{"label":"string","weight":"int32"}}"#)
        let body =
            #"{"schema":{"properties":{"label":{"type":"string","maxLength":3},"weight":"int32"}},"documents":[{"label":"abcd","weight":1},{"label":"ab","weight":2},5]}"#
        let replay = try client.request("POST", "/schemas/Tag/replay", body: body)
        #expect(replay.status == 200)
        #expect(
            replay.text.hasPrefix(
                #"{"total":3,"same":2,"changed":0,"newlyFailing":1,"newlyPassing":0,"results":[{"index":0,"outcome":"newly_failing","current":{"label":"abcd","weight":1},"proposed":{"error":{"status":422,"code":"validation_failed""#
            ))
        let strict = try client.request(
            "POST", "/schemas/Tag/replay?mode=strict",
            body:
                #"{"schema":{"properties":{"label":"string","weight":"string"}},"documents":[{"weight":"7"},{"weight":7}]}"#
        )
        #expect(strict.text.contains(#""newlyFailing":1,"newlyPassing":1,"#), "\(strict.text)")
        #expect(try client.request("POST", "/schemas/Tag/replay", body: #"{"documents":[]}"#).status == 400)
        #expect(
            try client.request(
                "POST", "/schemas/Tag/replay", body: #"{"schema":{"properties":{"x":"int99"}},"documents":[]}"#
            ).text
                .contains(#""path":"/schema/properties/x""#))
    }
}
