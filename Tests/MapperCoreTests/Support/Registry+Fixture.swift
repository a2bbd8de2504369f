// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

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
            try SchemaRegistry().load(
                documents.enumerated().map { SchemaFile(name: "doc\($0).json", bytes: Array($1.utf8)) })
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
    func run(
        _ model: String, _ input: String, mode: ConversionOptions.Mode = .lax, output: ConversionOptions.Form = .model,
        input form: ConversionOptions.Form = .wire, hash: Bool = false
    ) -> Outcome {
        var options = ConversionOptions()
        options.mode = mode
        options.output = output
        options.input = form
        options.hash = hash
        let result = convertBothWays(Array(input.utf8), model: model, options: options)
        switch result {
        case .success(let converted):
            return Outcome(
                status: 200, body: String(decoding: converted.body, as: UTF8.self),
                entries: Outcome.entries(converted.diagnostics))
        case .failure(let error):
            var entries: [String] = []
            if case .validationFailed(let report) = error { entries = Outcome.entries(report.entries) }
            return Outcome(
                status: error.status, body: String(decoding: error.body(requestId: nil), as: UTF8.self),
                entries: entries)
        }
    }

    /// Model-form output of a lax conversion that must succeed.
    func converted(_ model: String, _ input: String) -> String { run(model, input).body }
}

extension RegistrySnapshot {
    /// `convert` with `options`, checked against the same conversion with `keepsEntries` off (the server's and the
    /// CLI's setting, under which warnings keep coded paths): the two must agree on everything that setting
    /// answers — the body, the warning count and the codes of a success, every byte of a failure. Every conversion
    /// test that goes through `run` or `produce` checks this.
    func convertBothWays(_ bytes: [UInt8], model: String, options: ConversionOptions) -> Result<Converted, MappingError>
    {
        let kept = bytes.withUnsafeBytes { body in
            Result { () throws(MappingError) in try convert(body, model: model, options: options) }
        }
        var lean = options
        lean.keepsEntries = false
        let coded = bytes.withUnsafeBytes { body in
            Result { () throws(MappingError) in try convert(body, model: model, options: lean) }
        }
        switch (kept, coded) {
        case (.success(let kept), .success(let coded)):
            #expect(coded.body == kept.body, "body with keepsEntries off")
            #expect(coded.warnings == kept.warnings, "warning count with keepsEntries off")
            #expect(coded.diagnosticCodes == kept.diagnosticCodes, "codes with keepsEntries off")
        case (.failure(let kept), .failure(let coded)):
            #expect(coded.body(requestId: nil) == kept.body(requestId: nil), "failure with keepsEntries off")
        default:
            Testing.Issue.record("keepsEntries off gave \(coded), on gave \(kept)")
        }
        return kept
    }
}
