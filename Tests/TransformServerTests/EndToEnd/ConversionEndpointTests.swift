// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@Suite struct ConversionEndpointTests {
    @Test func convertsTheReadmeExample() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let response = try client.request(
            "POST", "/convert/User",
            body: #"{"uid":"123","name":"Harry","created":"1965-07-31T00:00:00+0000"}"#,
            headers: ["Content-Type": "application/json"])
        #expect(response.status == 200)
        #expect(response.text == #"{"uid":123,"name":"Harry","created":"1965-07-31T00:00:00Z"}"#)
        #expect(response.header("X-Transform-Warnings") == "1")
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(response.header("Vary") == "Accept-Encoding")
        #expect(response.header("X-Request-Id")?.isEmpty == false)
        #expect(response.header("Date") != nil)
    }

    @Test func normalizesAndHashesWhenAsked() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let normalized = try client.request(
            "POST", "/normalize/Book?hash=true", body: #"{"n":"Dune","ext":{"desc":"sand"},"id":"b1"}"#)
        #expect(normalized.status == 200)
        #expect(normalized.text == #"{"id":"b1","n":"Dune","p":0,"ext":{"desc":"sand"}}"#)
        let converted = try client.request(
            "POST", "/convert/Book?hash=true", body: #"{"n":"Dune","ext":{"desc":"sand"},"id":"b1"}"#)
        #expect(converted.header("X-Model-Hash")?.count == 64)
        #expect(normalized.header("X-Model-Hash") == converted.header("X-Model-Hash"))
    }

    @Test func answers422WithTheReportAndItsRequestId() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let response = try client.request(
            "POST", "/convert/User", body: #"{"uid":"abc"}"#, headers: ["X-Request-Id": "req-42"])
        #expect(response.status == 422)
        #expect(response.header("X-Request-Id") == "req-42")
        #expect(
            response.text.hasPrefix(
                #"{"error":{"status":422,"code":"validation_failed","message":"1 error","requestId":"req-42"},"valid":false,"model":"User""#
            ))
    }

    @Test func reportsInvalidJSONWithItsPosition() throws {
        let server = try ServerProcess()
        let response = try server.client().request("POST", "/convert/User", body: "{\"uid\": 1,}")
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_json""#))
        #expect(response.text.contains(#""offset":10,"line":1,"column":11"#))
    }

    @Test(arguments: [
        ("/convert/User?mode=loose", "mode"), ("/convert/User?mode=lax&mode=lax", "repeated"),
        ("/convert/User?x=1", "no parameter"), ("/convert/User?mode", "no value"),
        ("/convert/User/array?hash=true", "hash"),
        ("/normalize/User?keys=mapped", "keys"), ("/validate/User?keys=mapped", "keys"),
        ("/convert/User?from=json", "from"),
    ])
    func rejectsBadQueryParametersAndKeepsTheConnection(target: String, phrase: String) throws {
        let server = try ServerProcess()
        let client = try server.client()
        let response = try client.request("POST", target, body: #"{"uid":1}"#)
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_parameter""#))
        #expect(response.text.contains(phrase))
        let next = try client.request("GET", "/health")
        #expect(next.status == 200)
    }

    @Test func answersRoutingErrorsInOrder() throws {
        let server = try ServerProcess()
        let client = try server.client()
        #expect(try client.request("POST", "/nope", body: "{}").status == 404)
        let wrongMethod = try client.request("GET", "/convert/User")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "POST")
        #expect(wrongMethod.text.contains(#""allowed":["POST"]"#))
        let unknown = try client.request("POST", "/convert/Nobody?mode=bad", body: "{}")
        #expect(unknown.status == 404)
        #expect(unknown.text.contains(#""code":"unknown_model""#))
        let media = try client.request("POST", "/convert/User", body: "{}", headers: ["Content-Type": "text/plain"])
        #expect(media.status == 415)
        let charset = try client.request(
            "POST", "/convert/User", body: "{}", headers: ["Content-Type": "application/json; charset=latin1"])
        #expect(charset.status == 415)
        let coding = try client.request("POST", "/convert/User", body: "{}", headers: ["Content-Encoding": "br"])
        #expect(coding.status == 415)
        #expect(coding.header("Accept-Encoding") == "gzip")
        #expect(
            try client.request("POST", "/convert/User", body: "{}", headers: ["Content-Type": "application/vnd.x+json"])
                .status == 422)
    }

    /// `/convert` counts a success's warnings with their paths coded (the server does not keep its entries): its
    /// count must be `/validate`'s for a body that keeps them coded to the end (a value read twice, whose two
    /// `int32` reads are one entry) and for one whose duplicate key renders them midway; and a failure's report must
    /// list every path, those before its first error included.
    @Test func convertCountsWarningsAsValidateListsThem() throws {
        let schema =
            #"{"name":"W","properties":{"items":{"type":"array","of":"int32"},"a":{"type":"int32","key":"v"},"#
            + #""b":{"type":"int32","key":"v"},"c":{"type":"int64","key":"v"},"k":{"type":"int32","key":"x/y"},"#
            + #""req":{"type":"string","required":true}}}"#
        let server = try ServerProcess(schemas: ["w.json": schema])
        let client = try server.client()
        let coded = #"{"items":["1","2",3],"v":"7","x/y":"8","req":"r"}"#
        let codedCount = try client.request("POST", "/convert/W", body: coded).header("X-Transform-Warnings")
        let codedReport = try client.request("POST", "/validate/W", body: coded)
        #expect(codedReport.text.contains(#""warnings":[{"path":"/items/0","#))
        #expect(codedCount == "5")
        #expect(codedReport.header("X-Transform-Warnings") == "5")

        let body = #"{"items":["1","2",3],"v":"7","x/y":"8","k":1,"k":2,"req":"r"}"#
        let converted = try client.request("POST", "/convert/W", body: body)
        #expect(converted.status == 200)
        #expect(converted.text == #"{"items":[1,2,3],"a":7,"b":7,"c":7,"k":8,"req":"r"}"#)
        let validated = try client.request("POST", "/validate/W", body: body)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(validated.text.utf8)) as? [String: Any])
        let warnings = try #require(report["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["path"] as? String } == ["/items/0", "/items/1", "/v", "/v", "/x~1y", "/k"])
        #expect(converted.header("X-Transform-Warnings") == String(warnings.count))
        #expect(validated.header("X-Transform-Warnings") == String(warnings.count))

        let failed = try client.request("POST", "/convert/W", body: #"{"items":["1"],"v":"7","x/y":"8"}"#)
        #expect(failed.status == 422)
        let failure = try #require(try JSONSerialization.jsonObject(with: Data(failed.text.utf8)) as? [String: Any])
        #expect(
            (failure["warnings"] as? [[String: Any]])?.map { $0["path"] as? String } == [
                "/items/0", "/v", "/v", "/x~1y",
            ])
        #expect((failure["errors"] as? [[String: Any]])?.map { $0["path"] as? String } == ["/req"])
    }

    @Test func convertsArraysDictionariesAndCompares() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let array = try client.request("POST", "/convert/User/array", body: #"[{"uid":1},{"uid":"x"},2]"#)
        #expect(array.status == 200)
        #expect(array.text == #"[{"uid":1}]"#)
        #expect(array.header("X-Transform-Warnings") == "2")
        let dictionary = try client.request("POST", "/convert/User/dictionary", body: #"{"a":{"uid":1}}"#)
        #expect(dictionary.text == #"{"a":{"uid":1}}"#)
        let compare = try client.request("POST", "/compare/User", body: #"{"a":{"uid":1},"b":{"uid":"1"}}"#)
        #expect(compare.text == #"{"equal":true,"differences":[]}"#)
        #expect(compare.header("X-Transform-Warnings") == "1")
        let validate = try client.request("POST", "/validate/User", body: #"{"uid":1}"#)
        #expect(validate.status == 200)
        #expect(validate.text == #"{"valid":true,"model":"User","result":{"uid":1},"errors":[],"warnings":[]}"#)
    }

    @Test func largeBatchesAnswerTheSameOnOneWorkerAndOnSeveral() throws {
        // 600 elements: two or more runs of 64+ elements on several workers; some coerced, some dropped.
        let elements = (0..<600).map { i in
            i % 9 == 0 ? #"{"uid":"\#(i)"}"# : i % 10 == 0 ? #"{"uid":"x"}"# : i % 11 == 0 ? "2" : #"{"uid":\#(i)}"#
        }
        let array = "[" + elements.joined(separator: ",") + "]"
        let dictionary = "{" + elements.enumerated().map { #""k\#($0)":\#($1)"# }.joined(separator: ",") + "}"
        let one = try ServerProcess(settings: ["batchWorkers": "1"])
        let several = try ServerProcess(settings: ["batchWorkers": "4"])
        for (target, body) in [
            ("/convert/User/array", array), ("/convert/User/array?mode=strict", array),
            ("/normalize/User/dictionary", dictionary),
        ] {
            let expected = try one.client().request("POST", target, body: body, headers: ["X-Request-Id": "r"])
            let actual = try several.client().request("POST", target, body: body, headers: ["X-Request-Id": "r"])
            #expect(expected.status == (target.contains("strict") ? 422 : 200))
            #expect(actual.status == expected.status, "\(target)")
            #expect(actual.text == expected.text, "\(target)")
            #expect(actual.header("X-Transform-Warnings") == expected.header("X-Transform-Warnings"), "\(target)")
        }
    }

    @Test func streamsNDJSONWithATrailer() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let body = "{\"uid\":1}\n{\"uid\":\"2\"}\n{bad\n"
        let response = try client.request(
            "POST", "/convert/User/array", body: body,
            headers: ["Content-Type": "application/x-ndjson"])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/x-ndjson")
        #expect(response.header("Trailer") == "X-Transform-Warnings")
        #expect(response.text.split(separator: "\n").count == 3)
        #expect(response.trailer("X-Transform-Warnings") == "2")
    }
}
