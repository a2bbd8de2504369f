// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@Suite struct ConvertCommandTests {
    @Test func convertsTheDesignCardExampleWithOneWarning() throws {
        let result = try ChildProcess.run(
            ["convert", "User"],
            stdin: #"{"uid":"123","name":"Harry","created":"1965-07-31T00:00:00+0000"}"#)
        #expect(result.status == 0)
        #expect(result.stdout == #"{"uid":123,"name":"Harry","created":"1965-07-31T00:00:00Z"}"# + "\n")
        #expect(result.stderr == "1 warning\n")
    }

    @Test func normalizesToWireFormWithKeyPaths() throws {
        let result = try ChildProcess.run(
            ["convert", "Book", "--normalize"],
            stdin: #"{"n":"Dune","p":412,"ext":{"desc":"sand"},"book_id":"b1"}"#)
        #expect(result.status == 0)
        #expect(result.stdout == #"{"id":"b1","n":"Dune","p":412,"ext":{"desc":"sand"}}"# + "\n")
        #expect(result.stderr == "")
    }

    @Test func readsModelFormWithFromModel() throws {
        let result = try ChildProcess.run(
            ["convert", "Book", "--normalize", "--from", "model"],
            stdin: #"{"name":"Dune","page":412,"desc":"sand","bookID":"b1"}"#)
        #expect(result.status == 0)
        #expect(result.stdout == #"{"id":"b1","n":"Dune","p":412,"ext":{"desc":"sand"}}"# + "\n")
    }

    @Test func invalidJSONExitsOneWithItsPosition() throws {
        let result = try ChildProcess.run(["convert", "User"], stdin: "{\"uid\": 1,\n  \"name\": tru}")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix(#"{"error":{"status":400,"code":"invalid_json","message":"#))
        #expect(result.stderr.contains(#""offset":24,"line":2,"column":14}}"#))
    }

    @Test func invalidModelExitsOneWithTheReportOnStandardError() throws {
        let result = try ChildProcess.run(["convert", "User"], stdin: #"{"uid":"abc"}"#)
        #expect(result.status == 1)
        #expect(
            result.stderr == """
                {"error":{"status":422,"code":"validation_failed","message":"1 error"},"valid":false,"model":"User",\
                "result":{"uid":0},"errors":[{"path":"/uid","code":"missing_required","message":"uid is required"}],\
                "warnings":[{"path":"/uid","code":"not_a_number","message":"expected uint64, got string \\"abc\\""}]}

                """)
    }

    @Test func strictModeFailsOnAnyWarning() throws {
        let result = try ChildProcess.run(["convert", "User", "--strict"], stdin: #"{"uid":"123"}"#)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#""errors":[{"path":"/uid","code":"coerced""#))
    }

    @Test(arguments: [
        (["convert"], "needs a model name"),
        (["convert", "User", "--bogus"], "unknown option '--bogus'"),
        (["convert", "User", "--array", "--ndjson"], "exclude each other"),
        (["convert", "User", "--from", "json", "--normalize"], "does not take 'json'"),
        (["convert", "NoSuchModel"], "no model named \"NoSuchModel\""),
        (["frobnicate"], "unknown command 'frobnicate'"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let result = try ChildProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message))
    }

    @Test func arrayBatchLeavesOutFailingElements() throws {
        let result = try ChildProcess.run(
            ["convert", "User", "--array"], stdin: #"[{"uid":1},{"uid":"x"},3,{"uid":2}]"#)
        #expect(result.status == 0)
        #expect(result.stdout == #"[{"uid":1},{"uid":2}]"# + "\n")
        #expect(result.stderr == "2 warnings\n")
    }

    @Test func dictionaryBatchKeepsKeys() throws {
        let result = try ChildProcess.run(
            ["convert", "User", "--dictionary"], stdin: #"{"a/b":{"uid":1},"c":{"uid":2}}"#)
        #expect(result.status == 0)
        #expect(result.stdout == #"{"a/b":{"uid":1},"c":{"uid":2}}"# + "\n")
    }

    @Test func ndjsonWritesOneLinePerInputLineAndExitsOneOnAnErrorLine() throws {
        let input = "{\"uid\":1}\n\n  \r\n{bad\n{\"uid\":2}\r\n{\"uid\":3}"
        let result = try ChildProcess.run(["convert", "User", "--ndjson"], stdin: input)
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                {"uid":1}
                {"error":{"status":400,"code":"invalid_json","message":"Unexpected byte 'b' in an object; expected a '\\"'-quoted key or '}'.","line":4,"column":2}}
                {"uid":2}
                {"uid":3}

                """)
    }

    @Test func strictNdjsonStopsAtTheFirstFailingLine() throws {
        let result = try ChildProcess.run(
            ["convert", "User", "--ndjson", "--strict"],
            stdin: "{\"uid\":1}\n{\"uid\":\"2\"}\n{\"uid\":3}\n")
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0] == #"{"uid":1}"#)
        #expect(
            lines[1].hasPrefix(
                #"{"error":{"status":422,"code":"validation_failed","message":"1 error","line":2,"errors":[{"path":"/uid","code":"coerced""#
            ))
    }

    @Test func fallsBackToTheEmbeddedConfigurationOutsideAProject() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ChildProcess.run(
            ["convert", "GithubUser"], stdin: #"{"login":"octocat","id":1}"#, cwd: directory)
        #expect(result.status == 0)
        #expect(
            result.stdout
                == #"{"login":"octocat","userID":1,"siteAdmin":false,"hireable":false,"publicRepos":0,"publicGists":0,"followers":0,"following":0}"#
                + "\n")
    }

    @Test func schemasFlagReplacesTheSchemaFolder() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"name":"Point","properties":{"x":"int8","y":"int8"}}"#.utf8)
            .write(to: directory.appendingPathComponent("point.json"))
        let result = try ChildProcess.run(
            ["convert", "Point", "--schemas", directory.path], stdin: #"{"x":300,"y":"-2"}"#)
        #expect(result.status == 0)
        #expect(result.stdout == #"{"x":0,"y":-2}"# + "\n")
        #expect(result.stderr == "2 warnings\n")
        let other = try ChildProcess.run(["convert", "User", "--schemas", directory.path], stdin: "{}")
        #expect(other.status == 2)
    }

    // MARK: - The configuration's limits (docs/operations.md, "Limits": nesting, NDJSON line and report limits; no body
    // limit)

    /// A configuration directory holding only `server.json`; the schemas come from the repository (`--schemas`,
    /// appended to each command by `withConfig`).
    static func configDirectory(_ serverJSON: String) throws -> URL {
        let directory = try ChildProcess.temporaryDirectory()
        try Data(serverJSON.utf8).write(to: directory.appendingPathComponent("server.json"))
        return directory
    }

    static func withConfig(_ directory: URL) -> [String] {
        [
            "--config", directory.path, "--schemas",
            ChildProcess.packageRoot.appendingPathComponent("config/schemas").path,
        ]
    }

    @Test func appliesTheConfiguredNestingLimit() throws {
        let directory = try Self.configDirectory(#"{"maxNestingDepth": 2}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let deep = #"{"uid":1,"extra":{"a":{"b":1}}}"#
        let limited = try ChildProcess.run(["convert", "User"] + Self.withConfig(directory), stdin: deep)
        #expect(limited.status == 1)
        #expect(limited.stderr.contains(#""code":"nesting_too_deep""#), "\(limited.stderr)")
        let byEnvironment = try ChildProcess.run(
            ["convert", "User"], stdin: deep,
            environment: ["TRANSFORM_MAX_NESTING_DEPTH": "2"])
        #expect(byEnvironment.status == 1)
        #expect(byEnvironment.stderr.contains(#""code":"nesting_too_deep""#))
        let unlimited = try ChildProcess.run(["convert", "User"], stdin: deep)
        #expect(unlimited.status == 0)
    }

    /// An environment variable that names no setting is reported, as `serve` reports it, and changes nothing else.
    @Test func warnsAboutUnknownEnvironmentSettings() throws {
        let result = try ChildProcess.run(
            ["convert", "User"], stdin: #"{"uid":1}"#,
            environment: ["TRANSFORM_MAX_NESTING_DEPHT": "2"])
        #expect(result.status == 0)
        #expect(result.stdout == #"{"uid":1}"# + "\n", "\(result.stdout)")
        #expect(
            result.stderr.contains("ignoring the environment variable TRANSFORM_MAX_NESTING_DEPHT"), "\(result.stderr)")
        let clean = try ChildProcess.run(["convert", "User"], stdin: #"{"uid":1}"#)
        #expect(!clean.stderr.contains("TRANSFORM_"), "\(clean.stderr)")
    }

    @Test func appliesTheConfiguredReportLimit() throws {
        let directory = try Self.configDirectory(#"{"maxReportEntries": 1}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ChildProcess.run(
            ["convert", "User", "--strict"] + Self.withConfig(directory),
            stdin: #"{"uid":"1","name":7}"#)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#""truncated":true"#), "\(result.stderr)")
    }

    @Test func appliesTheConfiguredNDJSONLineLimit() throws {
        let directory = try Self.configDirectory(#"{"maxNdjsonLineBytes": 16}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ChildProcess.run(
            ["convert", "User", "--ndjson"] + Self.withConfig(directory),
            stdin: "{\"uid\":1}\n{\"uid\":2,\"name\":\"a long name\"}\n")
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("{\"uid\":1}\n"))
        #expect(result.stdout.contains("line_too_long"), "\(result.stdout)")
    }

    @Test func aBadConfiguredValueIsAUsageError() throws {
        let directory = try Self.configDirectory(#"{"maxNestingDepth": 0}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ChildProcess.run(["convert", "User"] + Self.withConfig(directory), stdin: #"{"uid":1}"#)
        #expect(result.status == 2)
        #expect(result.stderr.contains("maxNestingDepth"), "\(result.stderr)")
    }
}
