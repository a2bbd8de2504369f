// SPDX-License-Identifier: Apache-2.0

/// A replay (docs/lifecycle.md, Replay): real documents converted with the current and a proposed version of a
/// model, reported only where the outcome differs.
///
/// Each document's outcome per version is what a conversion would answer: the model form, or the failure's body
/// as the caller renders it (`failureBody`). `newly_failing`: current converts, proposed not; `newly_passing`: the
/// reverse; `changed`: both convert to different bytes, or both fail with different bodies; otherwise the same.
public enum Replay {
    /// Why a replay body cannot be used.
    package struct BodyError: Error, Sendable {
        /// The error code (`invalid_json`, `not_an_object`).
        package var code: String
        /// One sentence.
        package var message: String
    }

    /// The proposed schema document and the documents of a replay body `{"schema": {…}, "documents": […]}`.
    package static func parse(_ body: [UInt8], maxDepth: Int) throws(BodyError) -> (
        schema: [UInt8], documents: [[UInt8]]
    ) {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONValue.parse(body, maxDepth: maxDepth)
        } catch {
            throw BodyError(code: "invalid_json", message: error.located)
        }
        guard case .object(let members) = root else {
            throw BodyError(
                code: "not_an_object", message: "the body must be an object {\"schema\": {…}, \"documents\": […]}")
        }
        for member in members where member.key != "schema" && member.key != "documents" {
            throw BodyError(
                code: "not_an_object",
                message: "the body holds only \"schema\" and \"documents\", not \"\(member.key)\"")
        }
        guard let schema = root["schema"], case .object = schema else {
            throw BodyError(
                code: "not_an_object", message: "\"schema\" must be the proposed model document (an object)")
        }
        guard case .array(let documents)? = root["documents"] else {
            throw BodyError(code: "not_an_array", message: "\"documents\" must be an array of JSON values")
        }
        return (schema.bytes, documents.map(\.bytes))
    }

    /// The report: counts, and the documents whose outcome differs (at most `maxEntries`, then
    /// `"truncated": true`); a failing document's outcome is `failureBody` of its error.
    public static func run(
        _ documents: [[UInt8]], model: String, current: RegistrySnapshot, proposed: RegistrySnapshot,
        options: ConversionOptions, maxEntries: Int,
        failureBody: (MappingError) -> [UInt8]
    ) -> [UInt8] {
        var modelOptions = options
        modelOptions.output = .model
        modelOptions.keepsEntries = true
        var counts = (same: 0, changed: 0, failing: 0, passing: 0)
        var results: [UInt8] = []
        var listed = 0
        var truncated = false
        for (index, document) in documents.enumerated() {
            let before = outcome(document, model, current, modelOptions, failureBody)
            let after = outcome(document, model, proposed, modelOptions, failureBody)
            let kind: String
            switch (before.passed, after.passed) {
            case (true, false): counts.failing += 1; kind = "newly_failing"
            case (false, true): counts.passing += 1; kind = "newly_passing"
            default:
                guard before.body != after.body else {
                    counts.same += 1
                    continue
                }
                counts.changed += 1
                kind = "changed"
            }
            guard listed < maxEntries else {
                truncated = true
                continue
            }
            if listed > 0 { results.append(.comma) }
            listed += 1
            results +=
                Array("{\"index\":\(index),\"outcome\":\"\(kind)\",\"current\":".utf8) + before.body
                + Array(",\"proposed\":".utf8) + after.body + [.closeBrace]
        }
        var out: [UInt8] = Array(
            ("{\"total\":\(documents.count),\"same\":\(counts.same),\"changed\":\(counts.changed),"
                + "\"newlyFailing\":\(counts.failing),\"newlyPassing\":\(counts.passing),\"results\":[").utf8)
        out += results
        out.append(.closeBracket)
        if truncated { out += Array(",\"truncated\":true".utf8) }
        out.append(.closeBrace)
        return out
    }

    private static func outcome(
        _ document: [UInt8], _ model: String, _ snapshot: RegistrySnapshot,
        _ options: ConversionOptions, _ failureBody: (MappingError) -> [UInt8]
    )
        -> (passed: Bool, body: [UInt8])
    {
        let result = document.withUnsafeBytes { body in
            Result { () throws(MappingError) in try snapshot.convert(body, model: model, options: options) }
        }
        return switch result {
        case .success(let converted): (true, converted.body)
        case .failure(let error): (false, failureBody(error))
        }
    }
}

extension CompatibilityConfig {
    /// Reads a model's configuration `{"compatibility": …, "view": …}` (either may be omitted); the
    /// error is one sentence.
    package static func parse(_ body: [UInt8]) -> Result<CompatibilityConfig, Replay.BodyError> {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONValue.parse(body)
        } catch {
            return .failure(
                .init(code: "invalid_json", message: error.located))
        }
        guard case .object(let members) = root else {
            return .failure(
                .init(code: "not_an_object", message: "the body must be an object {\"compatibility\": …, \"view\": …}"))
        }
        var config = CompatibilityConfig()
        for member in members {
            switch (member.key, member.value) {
            case ("compatibility", .string(let text)) where CompatibilityLevel(rawValue: text) != nil:
                config.level = CompatibilityLevel(rawValue: text)
            case ("view", .string(let text)) where CompatibilityView(rawValue: text) != nil:
                config.view = CompatibilityView(rawValue: text)
            case ("compatibility", _):
                let levels = CompatibilityLevel.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(.init(code: "invalid_parameter", message: "compatibility must be one of \(levels)"))
            case ("view", _):
                return .failure(.init(code: "invalid_parameter", message: "view must be input, output or both"))
            default:
                return .failure(
                    .init(
                        code: "invalid_parameter",
                        message: "the configuration holds only \"compatibility\" and \"view\", not \"\(member.key)\""))
            }
        }
        return .success(config)
    }
}
