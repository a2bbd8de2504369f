// SPDX-License-Identifier: Apache-2.0

/// A problem with one value, found while converting it; the caller decides where it is reported
/// (as itself, or inside `element_dropped` when a container drops the element). Two issues are equal when their
/// codes and message bytes are (no Unicode equivalence, as in reports).
struct Issue: Sendable, Equatable {
    var code: DiagnosticCode
    /// Whether the issue is an error whatever the converter's strictness when it is recorded: set for the issue of a
    /// property with its own `strict` (nil: the converter's). Declared here, beside `code`, it fits in the padding.
    var isError: Bool?
    /// The sentence as UTF-8: what a report stores, copied into it as it is, with no `String` made for it. (The
    /// most frequent message, `coerced`, is no `Issue`: the converter writes it into the report from its parts.)
    var utf8: [UInt8]

    init(code: DiagnosticCode, utf8: [UInt8]) {
        self.code = code
        self.utf8 = utf8
    }

    init(code: DiagnosticCode, message: String) { self.init(code: code, utf8: Array(message.utf8)) }

    /// The sentence as a `String`.
    var message: String { String(decoding: utf8, as: UTF8.self) }

    /// `element_dropped` for an element left out of a container: the cause is the element's own issue, or what it
    /// gave instead of a value.
    static func elementDropped(cause issue: Issue?, noValue: Bool) -> Issue {
        var message: [UInt8] = []
        message.append("element dropped: ")
        if let issue { message.append(contentsOf: issue.utf8) } else { message.append(noValue ? "null" : "no value") }
        return Issue(code: .elementDropped, utf8: message)
    }

    /// `duplicate_key` for a key (its decoded bytes) that repeats in one object.
    static func duplicateKey(_ key: some Collection<UInt8>) -> Issue {
        Issue(
            code: .duplicateKey,
            message: "duplicate key \"\(String(decoding: key, as: UTF8.self))\": the last value wins")
    }
}
