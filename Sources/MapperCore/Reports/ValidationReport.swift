// SPDX-License-Identifier: Apache-2.0

/// A validation report (docs/errors.md, "The validation report"): the body of `/validate` and of every 422.
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

    /// The report's JSON; with `includeError` the `error` member of a 422 comes first.
    public func render(requestId: String?, includeError: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.append(.openBrace)
        if includeError {
            out.append(contentsOf: "\"error\":".utf8)
            ErrorBody.writeErrorObject(status: 422, code: "validation_failed", message: summary, requestId: requestId,
                                       into: &out, extra: { _ in })
            out.append(.comma)
        }
        writeMembers(into: &out)
        out.append(.closeBrace)
        return out
    }

    /// `"valid":…,"model":…,["built":…,]"result":…,"errors":[…],"warnings":[…][,"truncated":true]`.
    func writeMembers(into out: inout [UInt8]) {
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
    func writeEntries(into out: inout [UInt8]) {
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

/// The error bodies of docs/errors.md, "HTTP errors": `{"error": {"status", "code", "message", "requestId", …}}`.
public enum ErrorBody {
    /// Writes the `error` object; `extra` appends further members (each starting with a comma).
    public static func writeErrorObject(status: Int, code: String, message: String, requestId: String?,
                                        into out: inout [UInt8], extra: (inout [UInt8]) -> Void) {
        out.append(contentsOf: "{\"status\":\(status),\"code\":\"\(code)\",\"message\":".utf8)
        JSONValue.writeString(message, into: &out)
        if let requestId {
            out.append(contentsOf: ",\"requestId\":".utf8)
            JSONValue.writeString(requestId, into: &out)
        }
        extra(&out)
        out.append(.closeBrace)
    }

    /// `text` as a canonical JSON string: quoted, escaping only `"`, `\\` and U+0000–U+001F (docs/semantics.md,
    /// "Bytes").
    public static func quoted(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        JSONValue.writeString(text, into: &out)
        return out
    }

    /// `quoted(text)`, appended to `out`.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) { JSONValue.writeString(text, into: &out) }

    /// A whole error body.
    public static func render(status: Int, code: String, message: String, requestId: String?,
                              extra: (inout [UInt8]) -> Void = { _ in }) -> [UInt8] {
        var out: [UInt8] = Array("{\"error\":".utf8)
        writeErrorObject(status: status, code: code, message: message, requestId: requestId, into: &out, extra: extra)
        out.append(.closeBrace)
        return out
    }
}

extension MappingError {
    /// The response body: a 422 report, or an error body with the fields that help (offset, line, column).
    public func body(requestId: String?) -> [UInt8] {
        switch self {
        case .validationFailed(let report): return report.render(requestId: requestId, includeError: true)
        case .invalidJSON(let at), .nestingTooDeep(let at):
            return ErrorBody.render(status: status, code: code, message: at.message, requestId: requestId) { out in
                out.append(contentsOf: ",\"offset\":\(at.offset),\"line\":\(at.line),\"column\":\(at.column)".utf8)
            }
        case .notAnObject(let message), .notAnArray(let message):
            return ErrorBody.render(status: status, code: code, message: message, requestId: requestId)
        case .unknownModel:
            return ErrorBody.render(status: status, code: code, message: description, requestId: requestId)
        }
    }
}
