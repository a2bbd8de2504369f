// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// What a YYModel audit found wrong (docs/schema.md, docs/api.md, docs/errors.md), through the real server and the
/// real CLI, which must write the same bytes: `/normalize` output reads back, an `omit` of a required property is
/// refused, lossy `float`/`double` conversions say `precision_lost`, equality and `X-Model-Hash` follow YYModel's
/// `modelIsEqual`, and `from=model` works on `/convert` and `/validate`.
@Suite struct AuditFindingsTests {
    static let schemas: [String: String] = [
        "order.json": #"""
        {"name":"Order","properties":{"id":{"type":"uint64","required":true},"status":{"type":"string","enum":["open","paid"]},
         "total":{"type":"decimal","key":"amount.total","minimum":0},"currency":{"type":"string","key":"amount.currency"},
         "note":"string","email":"string","phone":"string"},
         "willTransform":{"unwrap":"data","rename":{"order_id":"id"},"remove":["debug"],"defaults":{"status":"open"}},
         "validate":{"requireAny":[["email","phone"]]},"unknownKeys":"reject",
         "transformToJSON":{"omit":["note"],"set":{"meta.schemaVersion":2}}}
        """#,
        "measure.json":
            #"{"name":"Measure","properties":{"f":"float","d":"double","ds":{"type":"array","of":"double"}}}"#,
        "bag.json": #"""
        {"models":[
         {"name":"Bag","properties":{"n":"number","tags":{"type":"set","of":"string"},"m":{"type":"dictionary","of":"number"},
          "pet":"Pet","uid":{"type":"uint64","key":"user_id","required":true}}},
         {"name":"Pet","properties":{"name":"string"},"classForDictionary":[{"when":{"has":"cat"},"use":"Cat"}]},
         {"name":"Cat","extends":"Pet","properties":{"whiskers":"string"}}]}
        """#,
    ]

    /// Runs the CLI's `convert` on the server's schema folder; its standard output without the final newline.
    static func cli(_ server: ServerProcess, _ arguments: [String], stdin: String) throws -> ChildProcess.Output {
        var result = try ChildProcess.run(
            ["convert"] + arguments + ["--schemas", server.directory.appendingPathComponent("schemas").path],
            stdin: stdin)
        if result.stdout.hasSuffix("\n") { result.stdout.removeLast() }
        if result.stderr.hasSuffix("\n") { result.stderr.removeLast() }
        return result
    }

    @Test func theDocsOrderExampleReadsItsOwnNormalizeOutputOverHTTPAndInTheCLI() throws {
        let server = try ServerProcess(schemas: Self.schemas)
        let client = try server.client()
        let input =
            #"{"data":{"order_id":7,"amount":{"total":"19.90","currency":"EUR"},"debug":true,"note":"n","email":"a@b"}}"#
        let normalized = try client.request("POST", "/normalize/Order", body: input)
        #expect(normalized.status == 200)
        #expect(
            normalized.text
                == #"{"data":{"id":7,"status":"open","amount":{"total":19.9,"currency":"EUR"},"email":"a@b","meta":{"schemaVersion":2}}}"#
        )
        let again = try client.request("POST", "/normalize/Order?mode=strict", body: normalized.text)
        #expect(again.status == 200)
        #expect(again.text == normalized.text)
        #expect(again.header("X-Transform-Warnings") == "0")
        let cli = try Self.cli(server, ["Order", "--normalize", "--strict"], stdin: normalized.text)
        #expect(cli.status == 0)
        #expect(cli.stdout == normalized.text)
    }

    @Test func anOmitOfARequiredPropertyIsASchemaProblemWithItsPointer() throws {
        let server = try ServerProcess(schemas: Self.schemas, environment: ["TRANSFORM_ADMIN_TOKEN": "t0ken"])
        let response = try server.client().request(
            "PUT", "/schemas/Broken",
            body: #"{"properties":{"id":{"type":"int32","required":true}},"transformToJSON":{"omit":["id"]}}"#,
            headers: ["Authorization": "Bearer t0ken"])
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_schema""#))
        #expect(
            response.text.contains(
                #"{"path":"/transformToJSON/omit/0","message":"omit names \"id\", which is required"#))

        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"name":"B","properties":{"a":"string"},"transformToJSON":{"set":{"a":1}}}"#.utf8)
            .write(to: directory.appendingPathComponent("b.json"))
        let check = try ChildProcess.run(["check", directory.path])
        #expect(check.status == 1)
        #expect(check.stdout.contains(#"b.json: /transformToJSON/set/a: set key "a" is the key "a" of property "a""#))
    }

    @Test func lossyFloatAndDoubleConversionsReportPrecisionLostWithTheSameBytesInTheCLI() throws {
        let server = try ServerProcess(schemas: Self.schemas)
        let client = try server.client()
        let input = #"{"f":16777217,"d":9007199254740993,"ds":[0.1,1e-400,"2.5"]}"#
        let lax = try client.request("POST", "/validate/Measure", body: input)
        #expect(lax.status == 200)
        #expect(
            lax.text
                == #"{"valid":true,"model":"Measure","result":{"f":16777216,"d":9007199254740992,"ds":[0.1,0,2.5]},"errors":[],"#
                + #""warnings":[{"path":"/f","code":"precision_lost","message":"number 16777217 cannot be held exactly by float: written as 16777216"},"#
                + #"{"path":"/d","code":"precision_lost","message":"number 9007199254740993 cannot be held exactly by double: written as 9007199254740992"},"#
                + #"{"path":"/ds/1","code":"precision_lost","message":"number 1e-400 cannot be held exactly by double: written as 0"},"#
                + #"{"path":"/ds/2","code":"coerced","message":"string \"2.5\" converted to double 2.5"}]}"#)
        let converted = try client.request("POST", "/convert/Measure", body: input)
        #expect(converted.header("X-Transform-Warnings") == "4")
        let cli = try Self.cli(server, ["Measure"], stdin: input)
        #expect(cli.status == 0)
        #expect(cli.stdout == converted.text)
        #expect(cli.stderr == "4 warnings")

        let strict = try client.request("POST", "/convert/Measure?mode=strict", body: #"{"f":0.1,"d":1e-400}"#)
        #expect(strict.status == 422)
        #expect(strict.text.contains(#""errors":[{"path":"/d","code":"precision_lost","#))
        let strictCLI = try Self.cli(server, ["Measure", "--strict"], stdin: #"{"f":0.1,"d":1e-400}"#)
        #expect(strictCLI.status == 1)
        #expect(strictCLI.stderr.contains(#""errors":[{"path":"/d","code":"precision_lost","#))
    }

    @Test func compareAndTheModelHashFollowYYModelEquality() throws {
        let server = try ServerProcess(schemas: Self.schemas)
        let client = try server.client()
        let a = #"{"user_id":1,"n":1.0,"tags":["x","y"],"m":{"p":1,"q":0.5},"pet":{"name":"Tom"}}"#
        let b = #"{"m":{"q":"0.50","p":1e0},"tags":["y","x"],"n":1,"user_id":"1","pet":{"name":"Tom"}}"#
        let equal = try client.request("POST", "/compare/Bag", body: #"{"a":\#(a),"b":\#(b)}"#)
        #expect(equal.status == 200)
        #expect(equal.text == #"{"equal":true,"differences":[]}"#)
        let hashA = try client.request("POST", "/convert/Bag?hash=true", body: a).header("X-Model-Hash")
        let hashB = try client.request("POST", "/normalize/Bag?hash=true", body: b).header("X-Model-Hash")
        let hashValid = try client.request("POST", "/validate/Bag?hash=true", body: b).header("X-Model-Hash")
        #expect(hashA?.count == 64)
        #expect(hashA == hashB)
        #expect(hashA == hashValid)

        let cat = #"{"user_id":1,"n":1.0,"tags":["x","y"],"m":{"p":1,"q":0.5},"pet":{"name":"Tom","cat":true}}"#
        let unequal = try client.request("POST", "/compare/Bag", body: #"{"a":\#(a),"b":\#(cat)}"#)
        #expect(unequal.text == #"{"equal":false,"differences":["/pet"],"models":{"/pet":["Pet","Cat"]}}"#)
        #expect(
            try client.request("POST", "/convert/Bag", body: cat).text
                == client.request("POST", "/convert/Bag", body: a).text)
        #expect(try client.request("POST", "/convert/Bag?hash=true", body: cat).header("X-Model-Hash") != hashA)
    }

    @Test func fromModelWorksOnConvertAndValidateAndTheirBatchesAndInTheCLI() throws {
        let server = try ServerProcess(schemas: Self.schemas)
        let client = try server.client()
        let model = #"{"uid":5,"n":2,"tags":["a"]}"#
        let converted = try client.request("POST", "/convert/Bag?from=model", body: model)
        #expect(converted.status == 200)
        #expect(converted.text == #"{"n":2,"tags":["a"],"uid":5}"#)
        let mapped = try client.request("POST", "/convert/Bag?from=model&keys=mapped", body: model)
        #expect(mapped.text == #"{"n":2,"tags":["a"],"user_id":5}"#)
        let cli = try Self.cli(server, ["Bag", "--from", "model"], stdin: model)
        #expect(cli.status == 0)
        #expect(cli.stdout == converted.text)

        let invalid = try client.request("POST", "/validate/Bag?from=model", body: #"{"user_id":5,"n":"x"}"#)
        #expect(invalid.status == 422)
        #expect(
            invalid.text.contains(#""errors":[{"path":"/uid","code":"missing_required","message":"uid is required"}]"#))
        #expect(invalid.text.contains(#"{"path":"/n","code":"not_a_number""#))
        let batch = try client.request("POST", "/validate/Bag/array?from=model", body: #"[{"uid":1},{"uid":2,"n":3}]"#)
        #expect(batch.status == 200)
        #expect(batch.text.contains(#""result":[{"uid":1},{"n":3,"uid":2}]"#))
        let convertedBatch = try client.request(
            "POST", "/convert/Bag/array?from=model", body: #"[{"uid":1},{"user_id":2}]"#)
        #expect(convertedBatch.text == #"[{"uid":1}]"#)
    }
}
