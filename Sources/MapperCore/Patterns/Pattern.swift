// SPDX-License-Identifier: Apache-2.0

// A compiled `pattern` constraint (docs/schema.md, "Constraints"): the ECMA-262 subset with `u`-flag semantics,
// matched by code point in time linear in the text.
//
// Compilation is two stages, both iterative (nothing recurses on the pattern's depth):
//
//     "^(?:ab|c)+$"  ──PatternParser──▶  postfix  ^ a b · c | + · $ ·   (· = concatenation)
//                    ──PatternProgram─▶  Thompson NFA, at most 10,000 instructions
//
// Matching (`PatternMatcher`) simulates the NFA over the text's code points with one set of live states per
// position, so `^(a+)+$` costs the same as `^a+$`: O(text × states), never backtracking. Lazy and greedy
// quantifiers accept the same strings, so laziness is parsed and then ignored.

/// A regular expression from a schema's `pattern` constraint, compiled once at registration.
struct Pattern: Sendable {
    /// The pattern exactly as written in the schema.
    let source: String
    /// The compiled automaton; immutable, so `matches` may run concurrently from any number of threads.
    let program: PatternProgram

    /// Compiles the subset: literals and the escapes `\t \n \r \f \v \0`, `\uXXXX` (a surrogate pair of them is
    /// one code point), `\u{…}` and `\` before a syntax character; `.`; classes `[…]`, `[^…]` with ranges;
    /// `\d \D \w \W \s \S`; `^`, `$`; groups `(…)`, `(?:…)`; `|`; `* + ? {n} {n,} {n,m}` and their lazy forms
    /// with n, m ≤ 1,000; at most 10,000 compiled states. Anything else throws, naming the offset.
    init(_ source: String) throws(PatternError) {
        var parser = PatternParser(source)
        let postfix = try parser.parse()
        self.source = source
        self.program = PatternProgram(postfix)
    }

    /// Whether the pattern matches somewhere in `utf8` (anywhere, unless anchored by `^` / `$`).
    /// The bytes must be valid UTF-8; allocates only scratch sized by the program, never by the text.
    func matches(_ utf8: UnsafeRawBufferPointer) -> Bool {
        PatternMatcher.matches(program, utf8)
    }

    /// Whether the pattern matches somewhere in `string`.
    func matches(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { matches(UnsafeRawBufferPointer($0)) }
    }
}
