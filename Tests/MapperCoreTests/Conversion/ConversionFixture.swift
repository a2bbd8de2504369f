// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// What one conversion produced, as strings for exact assertions: the status, the model's bytes (the report's
/// `result` on a 422, so failing conversions still show what was built) and the report entries
/// (`"/path code"`, errors marked `"!/path code"`).
struct Produced: Equatable, CustomStringConvertible {
    var status: Int
    var output: String
    var entries: [String]

    var description: String { "\(status) \(output) \(entries)" }
}

extension RegistrySnapshot {
    /// Converts `input` as `model`; 400/404 failures give their error code as `output`.
    func produce(
        _ model: String, _ input: String, mode: ConversionOptions.Mode = .lax,
        output: ConversionOptions.Form = .model, from: ConversionOptions.Form = .wire
    ) -> Produced {
        var options = ConversionOptions()
        options.mode = mode
        options.output = output
        options.input = from
        return Produced(convertBothWays(Array(input.utf8), model: model, options: options))
    }
}

extension Produced {
    /// What a conversion's result shows: its bytes and entries, a 422's `result` and entries, or an error's code.
    init(_ result: Result<Converted, MappingError>) {
        switch result {
        case .success(let converted):
            self.init(
                status: 200, output: String(decoding: converted.body, as: UTF8.self),
                entries: Outcome.entries(converted.diagnostics))
        case .failure(.validationFailed(let report)):
            self.init(
                status: 422, output: String(decoding: report.result, as: UTF8.self),
                entries: Outcome.entries(report.entries))
        case .failure(let error):
            self.init(status: error.status, output: error.code, entries: [])
        }
    }
}

/// Builds one registry per suite from a bundle of model documents, once.
enum ConversionFixture {
    /// A snapshot holding `models` (JSON model documents), or the registry's problems as the thrown error.
    static func snapshot(_ models: [String]) -> Result<RegistrySnapshot, SchemaSetError> {
        let registry = SchemaRegistry()
        let bundle = "{\"models\":[" + models.joined(separator: ",") + "]}"
        do throws(SchemaSetError) {
            return .success(try registry.load([SchemaFile(name: "bundle.json", bytes: Array(bundle.utf8))]))
        } catch {
            return .failure(error)
        }
    }
}

extension Result where Success == RegistrySnapshot, Failure == SchemaSetError {
    /// `produce` on the snapshot; a rejected schema set gives status 0 and its problems, so the test fails showing them.
    func produce(
        _ model: String, _ input: String, mode: ConversionOptions.Mode = .lax,
        output: ConversionOptions.Form = .model, from: ConversionOptions.Form = .wire
    ) -> Produced {
        switch self {
        case .success(let snapshot): snapshot.produce(model, input, mode: mode, output: output, from: from)
        case .failure(let error): Produced(status: 0, output: "\(error.problems)", entries: [])
        }
    }
}
