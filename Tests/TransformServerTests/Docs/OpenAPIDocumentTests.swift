// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import TransformServer

/// docs/openapi.yaml: valid OpenAPI 3.1 (checked by openapi-spec-validator when it is installed), and in step with
/// the router — every route template is a path of the document with the router's methods, and nothing more.
struct OpenAPIDocumentTests {
    /// The route templates of Sources/TransformServer/Routing/Router.swift, written out.
    static let routeTemplates = [
        "/convert/{model}",
        "/normalize/{model}",
        "/validate/{model}",
        "/convert/{model}/array",
        "/normalize/{model}/array",
        "/validate/{model}/array",
        "/convert/{model}/dictionary",
        "/normalize/{model}/dictionary",
        "/compare/{model}",
        "/merge/{model}",
        "/schemas",
        "/schemas/{model}",
        "/schemas/{model}/jsonschema",
        "/schemas/{model}/versions",
        "/schemas/{model}/versions/{version}",
        "/schemas/{model}/config",
        "/schemas/{model}/compatibility",
        "/schemas/{model}/replay",
        "/schemas/import",
        "/health",
        "/ready",
        "/metrics",
        "/rules/evaluate",
    ]

    static let documentURL = ChildProcess.packageRoot.appendingPathComponent("docs/openapi.yaml")

    /// `python3 -m openapi_spec_validator` can run here (pip package openapi-spec-validator).
    static let validatorIsInstalled: Bool = {
        guard let result = try? run(["python3", "-c", "import openapi_spec_validator"]) else { return false }
        return result.status == 0
    }()

    @Test(
        .enabled(
            if: validatorIsInstalled,
            "openapi-spec-validator is not installed (python3 -m pip install openapi-spec-validator==0.9.0)"))
    func documentPassesOpenAPISpecValidator() throws {
        let result = try Self.run(["python3", "-m", "openapi_spec_validator", Self.documentURL.path])
        // The validator prints its first error, then the whole OpenAPI meta-schema: the head is what helps.
        #expect(result.status == 0, "openapi-spec-validator reported errors:\n\(result.output.prefix(3000))")
    }

    @Test(arguments: routeTemplates)
    func routeTemplateIsADocumentedPath(_ template: String) throws {
        let paths = try Self.documentedPaths()
        #expect(paths[template] != nil, "\(template) is missing from docs/openapi.yaml")
    }

    @Test(arguments: routeTemplates)
    func listedTemplateIsTheRoutersTemplate(_ template: String) {
        let path = template.replacingOccurrences(of: "{model}", with: "SomeModel")
        let route = Router.match(path)
        #expect(route?.template == template)
        #expect(route?.model == (template.contains("{model}") ? "SomeModel" : nil))
    }

    @Test(arguments: routeTemplates)
    func documentedMethodsAreTheRoutersMethods(_ template: String) throws {
        let path = template.replacingOccurrences(of: "{model}", with: "SomeModel")
        let route = try #require(Router.match(path))
        let documented = try #require(try Self.documentedPaths()[template])
        #expect(documented == Set(route.allowedMethods.map(\.name)), "methods of \(template) in docs/openapi.yaml")
    }

    @Test func documentHasNoPathTheRouterLacks() throws {
        let extra = try Self.documentedPaths().keys.filter { !Self.routeTemplates.contains($0) }
        #expect(extra.isEmpty, "paths in docs/openapi.yaml that the router does not serve: \(extra.sorted())")
    }

    // MARK: - Helpers

    /// The `paths:` section, read line by line: each path (two-space indent) with its operations (four spaces).
    static func documentedPaths() throws -> [String: Set<String>] {
        let text = try String(contentsOf: documentURL, encoding: .utf8)
        let operations: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var paths: [String: Set<String>] = [:]
        var inPaths = false
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), line.hasSuffix(":") {
                inPaths = line == "paths:"
                current = nil
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
                let name = String(line.dropFirst(2).dropLast())
                paths[name] = []
                current = name
            } else if let current, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let key = String(line.dropFirst(4).dropLast())
                if operations.contains(key) { paths[current]?.insert(key.uppercased()) }
            }
        }
        return paths
    }

    struct Output {
        var status: Int32
        var output: String
    }

    /// Runs a program found on PATH, standard output and error together.
    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = ChildProcess.packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
