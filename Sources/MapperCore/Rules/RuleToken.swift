// SPDX-License-Identifier: Apache-2.0

/// One lexical token of an expression, with the byte offset where it starts.
struct RuleToken: Sendable {
    enum Kind: Sendable, Equatable {
        case int(Int64)
        /// A decimal or hex integer too large for `int`: only valid right after a unary minus (`-9223372036854775808`).
        case bigInt(UInt64)
        case uint(UInt64)
        case double(Double)
        case string(String)
        case bytes([UInt8])
        case identifier(String)
        /// A field name in backquotes, valid only after `.`: `` a.`b-c` ``.
        case quotedName(String)
        /// An operator or punctuation mark: `( ) [ ] { } . , : ? + - * / % ! == != < <= > >= && || in`.
        case symbol(String)
        case end
    }

    let kind: Kind
    let offset: Int
}
