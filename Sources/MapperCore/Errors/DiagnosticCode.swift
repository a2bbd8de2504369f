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
    case precisionLost = "precision_lost"
    case wrappedInArray = "wrapped_in_array"
    case notAUUID = "not_a_uuid"
}
