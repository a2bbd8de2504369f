// SPDX-License-Identifier: Apache-2.0

/// A date pattern that cannot be compiled: where (a UTF-8 byte offset into the pattern, from 0) and why.
struct DatePatternError: Error, Equatable, Sendable {
    /// UTF-8 byte offset of the offending symbol or quote in the pattern source.
    var offset: Int
    /// What is wrong, e.g. `unsupported symbol 'Q'`.
    var message: String
}

extension DatePatternError: CustomStringConvertible {
    var description: String {
        "Invalid date pattern at offset \(offset): \(message)."
    }
}
