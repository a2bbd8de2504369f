// SPDX-License-Identifier: Apache-2.0

/// Why an expression does not compile: a syntax error, an unknown name, or a type that cannot fit. `offset` is the
/// 0-based byte offset into the expression; `column(in:)` turns it into the 1-based code-point column that schema
/// problems quote.
struct RuleSyntaxError: Error, Sendable, Equatable {
    let offset: Int
    let message: String

    /// The 1-based column, in code points, of `offset` within `source`.
    func column(in source: String) -> Int {
        let utf8 = source.utf8
        let end = min(offset, utf8.count)
        return utf8.prefix(end).reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}

extension RuleSyntaxError: CustomStringConvertible {
    var description: String { "\(message) (offset \(offset))" }
}

/// A run-time failure of an expression (CEL's error value): a missing key, an overflow, a bad conversion, the
/// cost budget. Carried as a thrown error; `&&`, `||` and the macros absorb it where CEL's commutative logic says.
struct RuleFailure: Error, Sendable, Equatable {
    let message: String
    init(_ message: String) { self.message = message }

    static func noOverload(_ function: String, _ arguments: [RuleValue]) -> RuleFailure {
        RuleFailure("no such overload: \(function)(\(arguments.map { $0.typeName.rawValue }.joined(separator: ", ")))")
    }
}
