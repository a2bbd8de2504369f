// SPDX-License-Identifier: Apache-2.0

@testable import MapperCore

/// Builds registries from inline schema documents and runs conversions on strings.
extension SchemaRegistry {
    /// A registry holding `documents` (each a model document or a bundle); fails the test on problems.
    static func make(_ documents: String...) throws -> SchemaRegistry {
        let registry = SchemaRegistry()
        try registry.load(documents.enumerated().map { SchemaFile(name: "doc\($0).json", bytes: Array($1.utf8)) })
        return registry
    }

    /// The problems of a schema set that must be rejected.
    static func problems(_ documents: String...) -> [SchemaProblem] {
        do {
            try SchemaRegistry().load(documents.enumerated().map { SchemaFile(name: "doc\($0).json", bytes: Array($1.utf8)) })
            return []
        } catch {
            return error.problems
        }
    }
}

/// The outcome of one conversion, as strings for assertions.
struct Outcome: Equatable, CustomStringConvertible {
    var status: Int
    var body: String
    var entries: [String]

    var description: String { "\(status) \(body) \(entries)" }

    /// `"/path code"` for each entry (errors marked with `!`).
    static func entries(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.isError ? "!" : "")\($0.path) \($0.code.rawValue)" }
    }
}

extension RegistrySnapshot {
    func run(_ model: String, _ input: String, mode: ConversionOptions.Mode = .lax, output: ConversionOptions.Form = .model,
             input form: ConversionOptions.Form = .wire, hash: Bool = false) -> Outcome {
        var options = ConversionOptions()
        options.mode = mode
        options.output = output
        options.input = form
        options.hash = hash
        let bytes = Array(input.utf8)
        let result = bytes.withUnsafeBytes { convert($0, model: model, options: options) }
        switch result {
        case .success(let converted):
            return Outcome(status: 200, body: String(decoding: converted.body, as: UTF8.self),
                           entries: Outcome.entries(converted.diagnostics))
        case .failure(let error):
            var entries: [String] = []
            if case .validationFailed(let report) = error { entries = Outcome.entries(report.entries) }
            return Outcome(status: error.status, body: String(decoding: error.body(requestId: nil), as: UTF8.self),
                           entries: entries)
        }
    }

    /// Model-form output of a lax conversion that must succeed.
    func converted(_ model: String, _ input: String) -> String { run(model, input).body }
}
