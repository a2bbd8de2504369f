// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// The second edition's options over HTTP (a real server on a real socket) and through the CLI, which must write the
/// same bytes: `keyCase`, `unknownKeys: keep`, `nullable`, `optional`, `strict`, `acceptSingle`, `uuid`,
/// `calendarDate`, `POST /merge/{Model}` (`convert --merge`) and the JSON Schema export of them.
@Suite struct ModelOptionsEndpointTests {
    static let account = #"""
        {"name": "Account", "keyCase": "snake_case", "unknownKeys": "keep",
         "properties": {
           "accountID": {"type": "uuid", "required": true}, "displayName": "string", "birthDay": "calendarDate",
           "score": {"type": "double", "nullable": true}, "visits": {"type": "int32", "optional": true},
           "tags": {"type": "set", "of": "string", "acceptSingle": true},
           "age": {"type": "uint8", "strict": true}}}
        """#

    static let wire =
        #"{"account_id":"6FA459EA-EE8A-3CA4-894E-DB77E160355E","display_name":"Ann","#
        + #""birth_day":"1990-05-17T23:30:00-02:00","score":null,"tags":"vip","extra":{"k":[1]}}"#

    /// Each case: the HTTP target, the CLI's arguments after the model, the body, the status and the body expected.
    static let cases: [(target: String, cli: [String], body: String, status: Int, expected: String)] = [
        (
            "/convert/Account", [], wire, 200,
            #"{"accountID":"6fa459ea-ee8a-3ca4-894e-db77e160355e","displayName":"Ann","birthDay":"1990-05-18","#
                + #""score":null,"tags":["vip"],"age":0,"extra":{"k":[1]}}"#
        ),
        (
            "/normalize/Account", ["--normalize"], wire, 200,
            #"{"account_id":"6fa459ea-ee8a-3ca4-894e-db77e160355e","display_name":"Ann","birth_day":"1990-05-18","#
                + #""score":null,"tags":["vip"],"age":0,"extra":{"k":[1]}}"#
        ),
        (
            "/merge/Account", ["--merge"],
            #"{"target":{"accountID":"6fa459ea-ee8a-3ca4-894e-db77e160355e","displayName":"Ann","visits":3,"age":40},"#
                + #""patch":{"display_name":"Bo","score":1.5,"visits":"x","tags":["a","a"]}}"#, 200,
            #"{"accountID":"6fa459ea-ee8a-3ca4-894e-db77e160355e","displayName":"Bo","score":1.5,"tags":["a"],"age":40}"#
        ),
        (
            "/merge/Account?keys=mapped", ["--merge", "--normalize"],
            #"{"target":{"accountID":"6fa459ea-ee8a-3ca4-894e-db77e160355e","age":40},"patch":{"birth_day":"2001-02-03"}}"#,
            200, #"{"account_id":"6fa459ea-ee8a-3ca4-894e-db77e160355e","birth_day":"2001-02-03","score":0,"age":40}"#
        ),
        (
            "/convert/Account", [], #"{"account_id":"6fa459ea-ee8a-3ca4-894e-db77e160355e","age":"7"}"#, 422,
            #"{"error":{"status":422,"code":"validation_failed","message":"1 error"},"valid":false,"model":"Account","#
                + #""result":{"accountID":"6fa459ea-ee8a-3ca4-894e-db77e160355e","score":0,"age":7},"errors":[{"path":"/age","#
                + #""code":"coerced","message":"string \"7\" converted to uint8 7"}],"warnings":[]}"#
        ),
        (
            "/merge/Account", ["--merge"], #"{"target":{},"patch":{"account_id":"x"}}"#, 422,
            #"{"error":{"status":422,"code":"validation_failed","message":"1 error"},"valid":false,"model":"Account","#
                + #""result":{"score":0,"age":0},"errors":[{"path":"/patch/account_id","code":"missing_required","#
                + #""message":"accountID is required"}],"warnings":[{"path":"/patch/account_id","code":"not_a_uuid","#
                + #""message":"string \"x\" is not a UUID"}]}"#
        ),
        (
            "/merge/Account", ["--merge"], #"{"target":{}}"#, 400,
            #"{"error":{"status":400,"code":"not_an_object","message":"member \"patch\" must be an object"}}"#
        ),
    ]

    @Test func httpAndTheCLIWriteTheSameBytes() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.account.utf8).write(to: directory.appendingPathComponent("account.json"))
        let server = try ServerProcess(schemas: ["account.json": Self.account])
        let client = try server.client()
        for (target, cli, body, status, expected) in Self.cases {
            let response = try client.request("POST", target, body: body, headers: ["X-Request-Id": "r1"])
            #expect(response.status == status, "\(target) \(body)")
            let http = response.text.replacingOccurrences(of: #","requestId":"r1""#, with: "")
            #expect(http == expected, "\(target) \(body)")
            let run = try ChildProcess.run(["convert", "Account", "--schemas", directory.path] + cli, stdin: body)
            if status == 200 {
                #expect(run.status == 0)
                #expect(run.stdout == http + "\n", "\(cli)")
            } else {
                #expect(run.status == (status == 422 ? 1 : 1))
                #expect(run.stderr == http + "\n", "\(cli)")
            }
        }
    }

    @Test func mergeCountsWarningsAndHashesTheResult() throws {
        let server = try ServerProcess(schemas: ["account.json": Self.account])
        let client = try server.client()
        let merged = try client.request(
            "POST", "/merge/Account?hash=true",
            body:
                #"{"target":{"accountID":"6fa459ea-ee8a-3ca4-894e-db77e160355e","displayName":5},"patch":{"tags":"t"}}"#
        )
        #expect(merged.status == 200)
        // /target/displayName coerced, /patch/tags wrapped_in_array
        #expect(merged.header("X-Transform-Warnings") == "2")
        let converted = try client.request(
            "POST", "/convert/Account?hash=true",
            body:
                #"{"account_id":"6fa459ea-ee8a-3ca4-894e-db77e160355e","display_name":"5","tags":["t"]}"#)
        #expect(converted.header("X-Model-Hash") == merged.header("X-Model-Hash"))
        #expect(merged.header("X-Model-Hash")?.count == 64)
        #expect(try client.request("POST", "/merge/Account?from=model", body: "{}").status == 400)
        #expect(try client.request("GET", "/merge/Account").status == 405)
        #expect(try client.request("POST", "/merge/Nope", body: "{}").status == 404)
        let metrics = try client.request("GET", "/metrics").text
        #expect(metrics.contains(#"route="/merge/{model}""#))
    }

    @Test func theJSONSchemaExportDescribesTheNewTypesAndNullable() throws {
        let server = try ServerProcess(schemas: ["account.json": Self.account])
        let text = try server.client().request("GET", "/schemas/Account/jsonschema").text
        #expect(text.contains(#""account_id":{"type":"string","format":"uuid","#))
        #expect(text.contains(#""birth_day":{"type":["string","null"],"format":"date","#))
        #expect(text.contains(#""score":{"type":["number","null"],"#))
        #expect(text.contains(#""required":["account_id"]"#))
        #expect(!text.contains(#""additionalProperties":false"#))
    }
}
