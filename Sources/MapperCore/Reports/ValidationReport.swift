// SPDX-License-Identifier: Apache-2.0

/// A validation report (docs/errors.md, "The validation report"): every problem of one conversion, valid or not.
/// The server answers it as it is, or behind its `error` member when the model is invalid.
public struct ValidationReport: Sendable {
    /// The model asked for.
    public var model: String
    /// The model built when `classForDictionary` picked another.
    public var built: String?
    /// Model-form result bytes (`null` for a batch element that failed).
    public var result: [UInt8]
    /// Every entry in report order; errors and warnings are split when rendered.
    public var entries: [Diagnostic]
    /// Entries listed at most.
    public var maxEntries: Int

    /// Whether the model is valid (no errors).
    public var isValid: Bool { !entries.contains { $0.isError } }
    /// Error count.
    public var errorCount: Int { entries.count { $0.isError } }
    /// Warning count.
    public var warningCount: Int { entries.count { !$0.isError } }
    /// `1 error`, `3 errors`.
    public var summary: String { errorCount == 1 ? "1 error" : "\(errorCount) errors" }

    /// The report's JSON object.
    public func render() -> [UInt8] {
        var out: [UInt8] = []
        out.append(.openBrace)
        writeMembers(into: &out)
        out.append(.closeBrace)
        return out
    }

    /// `"valid":…,"model":…,["built":…,]"result":…,"errors":[…],"warnings":[…][,"truncated":true]`.
    package func writeMembers(into out: inout [UInt8]) {
        out.append(contentsOf: "\"valid\":\(isValid),\"model\":".utf8)
        JSONValue.writeString(model, into: &out)
        if let built {
            out.append(contentsOf: ",\"built\":".utf8)
            JSONValue.writeString(built, into: &out)
        }
        out.append(contentsOf: ",\"result\":".utf8)
        out.append(contentsOf: result)
        writeEntries(into: &out)
    }

    /// `,"errors":[…],"warnings":[…]` capped at `maxEntries` (errors first), then `,"truncated":true` if cut.
    package func writeEntries(into out: inout [UInt8]) {
        var budget = maxEntries
        var truncated = false
        for (name, wantErrors) in [("errors", true), ("warnings", false)] {
            out.append(contentsOf: ",\"\(name)\":[".utf8)
            var first = true
            for entry in entries where entry.isError == wantErrors {
                guard budget > 0 else { truncated = true; break }
                budget -= 1
                if !first { out.append(.comma) }
                first = false
                out.append(contentsOf: "{\"path\":".utf8)
                JSONValue.writeString(entry.path, into: &out)
                out.append(contentsOf: ",\"code\":\"\(entry.code.rawValue)\",\"message\":".utf8)
                JSONValue.writeString(entry.message, into: &out)
                out.append(.closeBrace)
            }
            out.append(.closeBracket)
        }
        if truncated { out.append(contentsOf: ",\"truncated\":true".utf8) }
    }
}
