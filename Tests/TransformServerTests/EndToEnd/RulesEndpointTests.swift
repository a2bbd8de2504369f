// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// `POST /rules/evaluate` and model `rules` through the running server, and the same bytes from the CLI.
@Suite struct RulesEndpointTests {
    static let span =
        #"{"name":"Span","properties":{"start":"date","end":"date"},"#
        + #""rules":[{"rule":"self.start <= self.end","message":"start must not be after end","path":"/end"}]}"#

    @Test func evaluatesAnExpressionAgainstVariables() throws {
        let server = try ServerProcess(schemas: ["span.json": Self.span])
        let client = try server.client()
        let cases: [(String, Int, String)] = [
            (#"{"expression":"x + 1","variables":{"x":41}}"#, 200, #"{"value":42,"type":"int"}"#),
            (
                #"{"expression":"name.upperAscii()","variables":{"name":"ada"}}"#, 200,
                #"{"value":"ADA","type":"string"}"#
            ),
            (
                #"{"expression":"[1, 2.5, 'a', b'\\xff', null, {1: true}]"}"#, 200,
                #"{"value":[1,2.5,"a","/w==",null,{"1":true}],"type":"list"}"#
            ),
            (
                #"{"expression":"timestamp('2020-01-01T00:00:00Z') + duration('1.5s')"}"#, 200,
                #"{"value":"2020-01-01T00:00:01.500Z","type":"google.protobuf.Timestamp"}"#
            ),
            (#"{"expression":"duration('90m')"}"#, 200, #"{"value":"5400s","type":"google.protobuf.Duration"}"#),
            (#"{"expression":"1.0 / 0.0"}"#, 200, #"{"value":"Infinity","type":"double"}"#),
            (#"{"expression":"type(1u)"}"#, 200, #"{"value":"uint","type":"type"}"#),
            (
                #"{"expression":"big","variables":{"big":18446744073709551615}}"#, 200,
                #"{"value":18446744073709551615,"type":"uint"}"#
            ),
        ]
        for (body, status, expected) in cases {
            let response = try client.request("POST", "/rules/evaluate", body: body)
            #expect(response.status == status, "\(body)")
            #expect(response.text == expected, "\(body)")
        }
    }

    @Test func compileAndRunTimeErrorsHaveTheirCodes() throws {
        let server = try ServerProcess(schemas: ["span.json": Self.span])
        let client = try server.client()
        let syntax = try client.request("POST", "/rules/evaluate", body: #"{"expression":"1 + nope"}"#)
        #expect(syntax.status == 400)
        #expect(syntax.text.contains(#""code":"invalid_rule","message":"undeclared reference to 'nope' at column 5""#))
        #expect(syntax.text.contains(#""offset":4"#))
        let runtime = try client.request("POST", "/rules/evaluate", body: #"{"expression":"1 / 0"}"#)
        #expect(runtime.status == 422)
        #expect(runtime.text.contains(#""code":"rule_failed","message":"division by zero""#))
        let collision = try client.request(
            "POST", "/rules/evaluate", body: #"{"expression":"{1: 'a', 2u: 'b', 1u + 1u: 'c'}"}"#)
        #expect(collision.status == 422)
        let notJSON = try client.request("POST", "/rules/evaluate", body: #"{"expression":"#)
        #expect(notJSON.status == 400 && notJSON.text.contains("invalid_json"))
        let hostile = "[" + (0..<50).map(String.init).joined(separator: ",") + "]"
        let budget = try client.request(
            "POST", "/rules/evaluate",
            body: #"{"expression":"\#(hostile).all(a, \#(hostile).all(b, \#(hostile).all(c, a + b + c >= 0)))"}"#)
        #expect(budget.status == 422 && budget.text.contains("cost budget exceeded"))
        #expect(try client.request("GET", "/rules/evaluate").status == 405)
    }

    @Test func ruleFailuresAreReportEntriesOverHTTPAndInTheCLIAlike() throws {
        let server = try ServerProcess(schemas: ["span.json": Self.span])
        let body = #"{"start":"2020-03-01T00:00:00Z","end":"2020-02-01T00:00:00Z"}"#
        let response = try server.client().request("POST", "/convert/Span", body: body)
        #expect(response.status == 422)
        #expect(
            response.text.contains(#"{"path":"/end","code":"rule_failed","message":"start must not be after end"}"#))
        let cli = try ChildProcess.run(
            ["convert", "Span", "--schemas", server.directory.appendingPathComponent("schemas").path],
            stdin: body)
        #expect(cli.status == 1)
        let httpBody = response.text.replacingOccurrences(
            of: #","requestId":"[^"]*""#, with: "", options: .regularExpression)
        #expect(cli.stderr.trimmingCharacters(in: .newlines) == httpBody)
    }

    @Test func badRulesAreRefusedAtRegistration() throws {
        let server = try ServerProcess(schemas: ["span.json": Self.span], environment: ["TRANSFORM_ADMIN_TOKEN": "tok"])
        let response = try server.client().request(
            "PUT", "/schemas/Bad", body: #"{"properties":{"a":"int32"},"rules":[{"rule":"self.a >","message":"m"}]}"#,
            headers: ["Authorization": "Bearer tok"])
        #expect(response.status == 400)
        #expect(response.text.contains(#""path":"/rules/0/rule""#))
        #expect(response.text.contains("column 9"))
    }

    @Test func maxRuleStepsIsConfigured() throws {
        let server = try ServerProcess(schemas: ["span.json": Self.span], settings: ["maxRuleSteps": "100"])
        let list = "[" + (0..<40).map(String.init).joined(separator: ",") + "]"
        let response = try server.client().request(
            "POST", "/rules/evaluate", body: #"{"expression":"\#(list).map(x, x * 2).size()"}"#)
        #expect(response.status == 422 && response.text.contains("cost budget exceeded"))
    }
}
