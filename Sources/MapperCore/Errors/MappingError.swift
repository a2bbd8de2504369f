// SPDX-License-Identifier: Apache-2.0

/// Why a conversion produced no output: every case maps to one status and code of docs/errors.md, "HTTP errors".
public enum MappingError: Error, Sendable {
    /// The body is not valid JSON; `location` says where.
    case invalidJSON(JSONErrorLocation)
    /// The body nests deeper than the limit.
    case nestingTooDeep(JSONErrorLocation)
    /// The body (or a named member) is not an object.
    case notAnObject(String)
    /// The body is not an array.
    case notAnArray(String)
    /// The model is invalid: the 422 report.
    case validationFailed(ValidationReport)
    /// No model of this name is registered.
    case unknownModel(String)

    /// The HTTP status docs/errors.md assigns.
    public var status: Int {
        switch self {
        case .invalidJSON, .nestingTooDeep, .notAnObject, .notAnArray: 400
        case .validationFailed: 422
        case .unknownModel: 404
        }
    }

    /// The stable error code.
    public var code: String {
        switch self {
        case .invalidJSON: "invalid_json"
        case .nestingTooDeep: "nesting_too_deep"
        case .notAnObject: "not_an_object"
        case .notAnArray: "not_an_array"
        case .validationFailed: "validation_failed"
        case .unknownModel: "unknown_model"
        }
    }
}

/// Where a JSON document stopped being acceptable.
public struct JSONErrorLocation: Sendable, Equatable {
    /// One sentence.
    public var message: String
    /// 0-based byte offset of the first byte that cannot be accepted.
    public var offset: Int
    /// 1-based line (split at LF).
    public var line: Int
    /// 1-based column, in bytes.
    public var column: Int

    init(_ error: JSONSyntaxError, in bytes: UnsafeRawBufferPointer) {
        let (line, column) = error.location(in: bytes)
        message = error.description
        offset = error.offset
        self.line = line
        self.column = column
    }
}

extension MappingError: CustomStringConvertible {
    /// One sentence for logs and the CLI.
    public var description: String {
        switch self {
        case .invalidJSON(let at): "Invalid JSON at line \(at.line), column \(at.column): \(at.message)"
        case .nestingTooDeep(let at): "JSON nested too deep at line \(at.line), column \(at.column): \(at.message)"
        case .notAnObject(let message), .notAnArray(let message): message
        case .validationFailed(let report): "The \(report.model) model is invalid: \(report.summary)."
        case .unknownModel(let name): "No model named \"\(name)\" is registered."
        }
    }
}
