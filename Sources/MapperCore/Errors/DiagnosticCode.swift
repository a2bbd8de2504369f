// SPDX-License-Identifier: Apache-2.0

/// The stable codes of report entries (docs/errors.md lists each with an example).
public enum DiagnosticCode: String, Sendable, CaseIterable {
    case coerced
    case notANumber = "not_a_number"
    case outOfRange = "out_of_range"
    case fractionTruncated = "fraction_truncated"
    case invalidDate = "invalid_date"
    case invalidURL = "invalid_url"
    case invalidBase64 = "invalid_base64"
    case wrongType = "wrong_type"
    case elementDropped = "element_dropped"
    case nullToDefault = "null_to_default"
    case duplicateKey = "duplicate_key"
    case unknownKey = "unknown_key"
    case outputConflict = "output_conflict"
    case missingRequired = "missing_required"
    case constraintFailed = "constraint_failed"
    case ruleFailed = "rule_failed"
    case lineTooLong = "line_too_long"
}

/// A problem with one value, found while converting it; the caller decides where it is reported
/// (as itself, or inside `element_dropped` when a container drops the element).
struct Issue: Sendable, Equatable {
    var code: DiagnosticCode
    var message: String

    /// `duplicate_key` for a key (its decoded bytes) that repeats in one object.
    static func duplicateKey(_ key: some Collection<UInt8>) -> Issue {
        Issue(code: .duplicateKey, message: "duplicate key \"\(String(decoding: key, as: UTF8.self))\": the last value wins")
    }
}
