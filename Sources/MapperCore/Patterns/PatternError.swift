// SPDX-License-Identifier: Apache-2.0

/// Why a `pattern` constraint's source was rejected: where (`offset`, counted in Unicode scalars from the
/// start of the source) and what (`message`, one sentence).
struct PatternError: Error, Equatable, Sendable {
    /// The index, in Unicode scalars, of the first character of the offending construct.
    var offset: Int
    /// One sentence saying what is wrong or unsupported.
    var message: String
}

extension PatternError: CustomStringConvertible {
    /// `offset 3: Backreferences such as \1 are not supported.`
    var description: String { "offset \(offset): \(message)" }
}
