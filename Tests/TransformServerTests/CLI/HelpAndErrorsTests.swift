// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// What a new user meets first: `--help` on every command, `--version`, and one clear line (exit 2) when the
/// schema folder is missing or is the configuration folder instead.
@Suite struct HelpAndErrorsTests {
    @Test(arguments: ["serve", "convert", "check", "healthcheck"])
    func everyCommandAnswersHelpWithSynopsisOptionsAndExitStatuses(_ command: String) throws {
        for flag in ["--help", "-h"] {
            let result = try ChildProcess.run([command, flag])
            #expect(result.status == 0, "\(command) \(flag): \(result.stderr)")
            #expect(result.stdout.hasPrefix("usage: TransformServer \(command == "serve" ? "[serve]" : command)"))
            #expect(result.stdout.contains("\noptions:\n"))
            #expect(result.stdout.contains("\nexit status: 0 "))
            #expect(result.stderr.isEmpty)
        }
    }

    /// `healthcheck --help` used to be read as its URL ("only http:// URLs are supported").
    @Test func healthcheckHelpIsNotTakenForAURL() throws {
        let result = try ChildProcess.run(["healthcheck", "--help"])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("URL"))
        #expect(result.stdout.contains("http://127.0.0.1:8080/health"))
    }

    @Test func helpAfterOtherOptionsStillAnswersHelp() throws {
        let result = try ChildProcess.run(["convert", "User", "--strict", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: TransformServer convert <Model>"))
    }

    @Test func versionNamesTheReleaseAndTheSwiftThatBuiltIt() throws {
        let result = try ChildProcess.run(["--version"])
        #expect(result.status == 0)
        let openAPI = try String(contentsOf: OpenAPIDocumentTests.documentURL, encoding: .utf8)
        let release = try #require(openAPI.split(separator: "\n").first { $0.hasPrefix("  version: ") })
            .dropFirst("  version: ".count)
        #expect(result.stdout.hasPrefix("TransformServer \(release) (Swift 6."), "\(result.stdout)")
        #expect(result.stdout.hasSuffix(")\n"))
    }

    /// The one line of standard error as a sentence: `serve` logs it as a `startup_failed` event's `reason` (every
    /// line it writes is a JSON object), `convert` and `check` write it plain.
    static func message(_ stderr: String, of command: String) -> String {
        let line = stderr.hasSuffix("\n") ? String(stderr.dropLast()) : stderr
        guard command == "serve" else { return line }
        let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        return event?["event"] == "startup_failed" ? event?["reason"] ?? "" : ""
    }

    /// Each way of naming a folder that is not there: one line naming it, exit 2, no Foundation error dump.
    @Test(arguments: [
        ["serve", "--schemas", "/nonexistent/schemas", "--port", "0"],
        ["check", "/nonexistent/schemas"],
        ["convert", "User", "--schemas", "/nonexistent/schemas"],
    ])
    func aMissingSchemaFolderIsOneLineAndExit2(_ arguments: [String]) throws {
        let result = try ChildProcess.run(arguments, stdin: "{}")
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(
            Self.message(result.stderr, of: arguments[0]).hasSuffix(
                "The schema directory /nonexistent/schemas does not exist."),
            "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.contains("Error"))
    }

    @Test func aConfigFolderWithoutSchemasIsOneLineAndExit2() throws {
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{}".utf8).write(to: directory.appendingPathComponent("server.json"))
        for arguments in [
            ["serve", "--config", directory.path, "--port", "0"], ["convert", "User", "--config", directory.path],
        ] {
            let result = try ChildProcess.run(arguments, stdin: "{}")
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(
                Self.message(result.stderr, of: arguments[0])
                    .hasSuffix("The schema directory \(directory.path)/schemas does not exist."), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    /// `check config` (the configuration folder, not its schemas/) used to print a line per server.json key.
    @Test func checkOfTheConfigurationFolderSaysSoInOneLine() throws {
        let result = try ChildProcess.run(["check", "config"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == "TransformServer check: config is a configuration folder (it holds schemas/ or "
                + "server.json), not a schema folder: give config/schemas instead.\n")
    }
}
