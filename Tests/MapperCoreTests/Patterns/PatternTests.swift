// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct PatternTests {
    static let literals: [Case] = [
        .init("abc", "xxabcxx", true), .init("abc", "abd", false), .init("abc", "ab", false),
        .init("", "", true), .init("", "anything", true), .init("é", "café", true), .init("e", "café", false),
        .init("😀", "a😀b", true), .init("a,b-c", "a,b-c", true), .init("/", "a/b", true),
    ]

    static let escapes: [Case] = [
        .init(#"\t"#, "a\tb", true), .init(#"\n"#, "a\nb", true), .init(#"\r"#, "\r", true),
        .init(#"\f"#, "\u{0C}", true), .init(#"\v"#, "\u{0B}", true), .init(#"\0"#, "\u{0}", true),
        .init(#"\n"#, "n", false), .init(#"\u0041"#, "A", true), .init(#"\u00e9"#, "é", true),
        .init(#"\u{41}"#, "A", true), .init(#"\u{000041}"#, "A", true), .init(#"^\u{1F600}$"#, "😀", true),
        .init(#"^\uD83D\uDE00$"#, "😀", true), .init(#"^\uD83D\uDE00$"#, "😁", false),
        .init(#"\uD83D"#, "😀", false), .init(#"^\u{10FFFF}$"#, "\u{10FFFF}", true),
        .init(#"\^\$\\\.\*\+\?\(\)\[\]\{\}\|\/"#, #"^$\.*+?()[]{}|/"#, true), .init(#"a\.b"#, "axb", false),
    ]

    static let classes: [Case] = [
        .init("[abc]", "xbx", true), .init("[abc]", "xyz", false), .init("[^abc]", "abc", false),
        .init("[^abc]", "abcd", true), .init("^[a-z]+$", "hello", true), .init("[a-z]", "ABC", false),
        .init("^[a-zA-Z0-9_]+$", "ab_9Z", true), .init("[]", "a", false), .init("[^]", "\n", true),
        .init("[-a]", "-", true), .init("[a-]", "-", true), .init("[a-c-e]", "-", true), .init("[a-c-e]", "d", false),
        .init(#"[\d-]"#, "-", true), .init(#"[\w]"#, "_", true), .init(#"[\-]"#, "-", true),
        .init(#"[\]]"#, "]", true), .init("[[]", "[", true), .init("[.]", "x", false), .init("[.]", ".", true),
        .init(#"[\u00e0-\u00ff]"#, "é", true), .init(#"[\u00e0-\u00ff]"#, "e", false), .init("[😀-😂]", "😁", true),
        .init(#"[\uD83D\uDE00-\uD83D\uDE4F]"#, "🙂", true), .init(#"[\u{1F600}-\u{1F64F}]"#, "🚀", false),
        .init(#"^[^\s]+$"#, "a b", false), .init(#"^[^\d\s]$"#, "x", true), .init(#"^[\D]$"#, "5", false),
        .init("[^a]", "😀", true), .init("^[^a]$", "😀", true), .init(#"[\t\n]"#, "\n", true),
    ]

    static let predefined: [Case] = [
        .init(#"^\d+$"#, "0123456789", true), .init(#"\d"#, "٣", false), .init(#"^\D$"#, "٣", true),
        .init(#"^\w+$"#, "az_AZ09", true), .init(#"\w"#, "é", false), .init(#"^\W$"#, "é", true),
        .init(#"^\s+$"#, " \t\n\r\u{0B}\u{0C}", true), .init(#"^\s$"#, "\u{A0}", true),
        .init(#"^\s$"#, "\u{FEFF}", true), .init(#"^\s$"#, "\u{3000}", true), .init(#"^\s$"#, "\u{2028}", true),
        .init(#"^\s$"#, "\u{1680}", true), .init(#"^\s$"#, "\u{200A}", true), .init(#"^\s$"#, "\u{200B}", false),
        .init(#"^\s$"#, "\u{180E}", false), .init(#"^\S$"#, "a", true), .init(#"^\S$"#, " ", false),
    ]

    static let dots: [Case] = [
        .init("^.$", "a", true), .init("^.$", "😀", true), .init("^..$", "😀", false),
        .init("^.$", "\n", false), .init("^.$", "\r", false), .init("^.$", "\u{2028}", false),
        .init("^.$", "\u{2029}", false), .init("^.$", "\u{85}", true), .init("^.$", "\t", true),
        .init("a.c", "a\nc", false), .init("a.c", "abc", true),
    ]

    static let anchors: [Case] = [
        .init("^abc", "abcd", true), .init("^abc", "xabc", false), .init("abc$", "xabc", true),
        .init("abc$", "abcx", false), .init("^$", "", true), .init("^$", "a", false), .init("^$", "\n", false),
        .init("^a$", "a\n", false), .init("^b", "a\nb", false), .init("a^b", "ab", false), .init("a$b", "ab", false),
        .init("^a|b$", "xxb", true), .init("^a|b$", "xax", false), .init("bc", "abcd", true),
        .init("(?:^|,)b(?:,|$)", "a,b,c", true), .init("(?:^|,)b(?:,|$)", "abc", false), .init("$", "abc", true),
        .init("^^a$$", "a", true),
    ]

    static let groups: [Case] = [
        .init("^(?:ab|cd)+$", "abcdab", true), .init("^(ab|cd)+$", "abc", false), .init("a|", "zzz", true),
        .init("^(|a)$", "", true), .init("^()$", "", true), .init("^(?:)$", "", true), .init("cat|dog", "hotdog", true),
        .init("cat|dog", "cow", false), .init("^(a(b(c|d)))$", "abd", true), .init("^a|b|c$", "xbx", true),
        .init("^(?:a|b|c)$", "xbx", false), .init("^(a|ab)(c|bcd)$", "abcd", true),
    ]

    static let quantifiers: [Case] = [
        .init("^a*$", "", true), .init("^a*$", "aaa", true), .init("^a*$", "ab", false),
        .init("^a+$", "", false), .init("^a+$", "aaa", true), .init("^a?$", "", true), .init("^a?$", "aa", false),
        .init("^a{0}$", "", true), .init("^a{0}$", "a", false), .init("^ba{0}c$", "bc", true),
        .init("^a{0,0}$", "", true), .init("^a{1}$", "a", true), .init("^a{2}$", "aa", true),
        .init("^a{2}$", "a", false), .init("^a{2}$", "aaa", false), .init("^a{2,}$", "a", false),
        .init("^a{2,}$", "aa", true), .init("^a{2,}$", "aaaaaa", true), .init("^a{0,}$", "", true),
        .init("^a{1,}$", "", false), .init("^a{2,3}$", "a", false), .init("^a{2,3}$", "aa", true),
        .init("^a{2,3}$", "aaa", true), .init("^a{2,3}$", "aaaa", false), .init("^a{0,2}$", "", true),
        .init("^a*?$", "aaa", true), .init("^a+?$", "", false), .init("^a+?$", "aa", true),
        .init("^a??b$", "ab", true), .init("^a??b$", "aab", false), .init("^a{2}?$", "aa", true),
        .init("^a{2,}?$", "aaa", true), .init("^a{1,2}?$", "aaa", false), .init("^a{0}?$", "", true),
        .init("^(?:ab){2}$", "abab", true), .init("^(?:ab){2}$", "aba", false), .init("^(a|b){3}$", "aba", true),
        .init("^[0-9]{3}-[0-9]{4}$", "555-1234", true), .init("^[0-9]{3}-[0-9]{4}$", "555-123", false),
        .init("^(?:a{2}){2,3}$", "aaaaaa", true), .init("^(?:a{2}){2,3}$", "aaaaa", false),
        .init("^😀{2}$", "😀😀", true), .init("^(?:a*)*$", "aaa", true), .init("^(?:a?)+b$", "b", true),
        .init("^(?:a|)*$", "aab", false), .init("x{1,3}", "yy", false),
    ]

    @Test(arguments: literals + escapes + classes + predefined + dots)
    func matchesCodePointsAndSets(_ row: Case) throws {
        #expect(try Pattern(row.pattern).matches(row.text) == row.matches)
    }

    @Test(arguments: anchors + groups)
    func anchorsApplyToTheWholeStringAndSearchIsUnanchoredOtherwise(_ row: Case) throws {
        #expect(try Pattern(row.pattern).matches(row.text) == row.matches)
    }

    @Test(arguments: quantifiers)
    func quantifiersRepeatWithinTheirBounds(_ row: Case) throws {
        #expect(try Pattern(row.pattern).matches(row.text) == row.matches)
    }

    @Test func keepsTheSourceAsWritten() throws {
        #expect(try Pattern(#"^\d{3}$"#).source == #"^\d{3}$"#)
    }

    @Test func matchesAByteBufferSliceWithAnchorsAtItsEdges() throws {
        let pattern = try Pattern("^b+$")
        let bytes = Array("abbba".utf8)
        bytes.withUnsafeBytes { buffer in
            #expect(pattern.matches(UnsafeRawBufferPointer(rebasing: buffer[1..<4])))
            #expect(!pattern.matches(UnsafeRawBufferPointer(rebasing: buffer[0..<4])))
            #expect(!pattern.matches(UnsafeRawBufferPointer(rebasing: buffer[2..<2])))
        }
    }

    /// Patterns that make a backtracking engine take exponential or quadratic time, on ~50 KB texts.
    static let pathological: [Case] = [
        .init("^(a+)+$", String(repeating: "a", count: 50_000) + "b", false),
        .init("^(a+)+$", String(repeating: "a", count: 50_000), true),
        .init("(a|a)*b", String(repeating: "a", count: 50_000), false),
        .init("(a*)*c", String(repeating: "a", count: 50_000), false),
        .init("^(a|aa)+$", String(repeating: "a", count: 50_000) + "!", false),
        .init("(?:a?){30}a{30}", String(repeating: "a", count: 50_000), true),
        .init("a{1000}", String(repeating: "a", count: 50_000), true),
        .init("a{1000}", String(repeating: "ab", count: 25_000), false),
        .init("^a{1000}$", String(repeating: "a", count: 1_000), true),
        .init("^a{1000}$", String(repeating: "a", count: 1_001), false),
        .init("^.*x$", String(repeating: "y", count: 50_000), false),
    ]

    @Test(arguments: pathological)
    func pathologicalPatternsFinishWithTheRightAnswer(_ row: Case) throws {
        #expect(try Pattern(row.pattern).matches(row.text) == row.matches)
    }

    @Test func acceptsExactlyTenThousandStates() throws {
        // ^ + 9,000 a + 498 × (b, split) + c + d + accept = 10,000 instructions.
        let pattern = try Pattern("^(?:a{1000}){9}b{0,498}cd")
        #expect(pattern.program.instructions.count == 10_000)
        #expect(pattern.matches(String(repeating: "a", count: 9_000) + "bcd"))
        #expect(!pattern.matches(String(repeating: "a", count: 8_999) + "bcd"))
        #expect(throws: PatternError(offset: 25, message: "The pattern compiles to more than 10,000 states.")) {
            try Pattern("^(?:a{1000}){9}b{0,498}cde")
        }
    }

    @Test(arguments: [("(a{1000}){1000}", 9), ("(?:a{1000}){10}", 11), ("(?:[a-z]{1000}){2,}(?:x{1000}){9}", 30)])
    func rejectsPatternsOverTheStateLimit(_ pattern: String, _ offset: Int) {
        var caught: PatternError?
        do throws(PatternError) { _ = try Pattern(pattern) } catch { caught = error }
        #expect(caught?.message == "The pattern compiles to more than 10,000 states.")
        #expect(caught?.offset == offset)
    }

    @Test func longLiteralRunsCountTowardTheStateLimit() {
        let pattern = String(repeating: "a", count: 20_000)
        #expect(throws: PatternError(offset: 9_999, message: "The pattern compiles to more than 10,000 states.")) {
            try Pattern(pattern)
        }
    }

    @Test func deeplyNestedGroupsNeitherRecurseNorFail() throws {
        let depth = 100_000
        let pattern = try Pattern(String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth))
        #expect(pattern.matches("xa"))
        #expect(!pattern.matches("x"))
    }

    @Test func matchesConcurrentlyOnOnePattern() async throws {
        let pattern = try Pattern(#"^(?:[a-z]+\d)+$"#)
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    (0..<200).allSatisfy { round in
                        let good = String(repeating: "ab1", count: 1 + (task + round) % 7)
                        return pattern.matches(good) && !pattern.matches(good + "-")
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 16))
    }

    static let rejected: [Rejection] = [
        .init(#"(a)\1"#, 3, "Backreferences"), .init(#"[\1]"#, 1, "Backreferences"),
        .init(#"\k<x>"#, 0, "Named backreferences"), .init("(?=a)", 0, "Lookahead"), .init("a(?!b)", 1, "Lookahead"),
        .init("(?<=a)b", 0, "Lookbehind"), .init("(?<!a)b", 0, "Lookbehind"), .init("(?<n>a)", 0, "Named groups"),
        .init("(?P<n>a)", 0, "Named groups"), .init("(?i)a", 0, "flags"), .init("(?i:a)", 0, "flags"),
        .init("(?-i:a)", 0, "flags"), .init("(?#x)", 0, "'(?' must be followed by ':'"), .init("(?", 0, "':'"),
        .init(#"\b"#, 0, "Word-boundary"), .init(#"a\B"#, 1, "Word-boundary"), .init(#"[\b]"#, 1, "Word-boundary"),
        .init(#"\p{L}"#, 0, "property"), .init(#"\P{L}"#, 0, "property"), .init(#"[a\p{L}]"#, 2, "property"),
        .init(#"\cA"#, 0, "Control"), .init(#"\x41"#, 0, "Hexadecimal"), .init(#"\01"#, 0, "octal"),
        .init(#"\q"#, 0, #"'\q' is not supported"#), .init(#"a\-"#, 1, #"'\-' is not supported"#),
        .init(#"\a"#, 0, "not supported"), .init(#"\"#, 0, "lone '\\'"), .init(#"ab\"#, 2, "lone '\\'"),
        .init(#"\u12"#, 0, "four hexadecimal digits"), .init(#"\uZZZZ"#, 0, "four hexadecimal digits"),
        .init(#"\u{}"#, 0, "hexadecimal digits and '}'"), .init(#"\u{41"#, 0, "'}'"),
        .init(#"\u{110000}"#, 0, "above U+10FFFF"), .init(#"\u{FFFFFFFFFFFF}"#, 0, "above U+10FFFF"),
        .init("a{2,1}", 1, "larger than its maximum"), .init("a{1001}", 1, "above 1,000"),
        .init("a{0,1001}", 1, "above 1,000"), .init("a{1001,}", 1, "above 1,000"),
        .init("a{99999999999999999999999}", 1, "above 1,000"), .init("(a", 0, "never closed"),
        .init("((a)", 0, "never closed"), .init("(?:a|(b)", 0, "never closed"), .init("a)", 1, "no matching '('"),
        .init("(a))", 3, "no matching '('"), .init("*a", 0, "nothing to repeat"), .init("a**", 2, "nothing to repeat"),
        .init("a{2}{3}", 4, "nothing to repeat"), .init("a?+", 2, "nothing to repeat"), .init("a??+", 3, "nothing"),
        .init("^*", 1, "nothing to repeat"), .init("a$+", 2, "nothing to repeat"), .init("(*)", 1, "nothing"),
        .init("a|*", 2, "nothing to repeat"), .init("{1}", 0, "nothing to repeat"), .init("{", 0, "'\\{'"),
        .init("a{", 1, "'\\{'"), .init("a{x}", 1, "'\\{'"), .init("a{,5}", 1, "'\\{'"), .init("a{1,2", 1, "'\\{'"),
        .init("}", 0, "'\\}'"), .init("a]", 1, "'\\]'"),
        .init("[a", 0, "never closed"), .init("[a-", 0, "never closed"),
        .init("x[z-a]", 2, "start is after its end"), .init(#"[\d-z]"#, 1, "start of a range"),
        .init(#"[a-\d]"#, 3, "end of a range"), .init(#"[\u{1F602}-\u{1F600}]"#, 1, "after its end"),
    ]

    @Test(arguments: rejected)
    func rejectsUnsupportedSyntaxAtItsOffset(_ row: Rejection) {
        var caught: PatternError?
        do throws(PatternError) { _ = try Pattern(row.pattern) } catch { caught = error }
        #expect(caught?.offset == row.offset)
        #expect(caught?.message.contains(row.phrase) == true, "\(caught?.message ?? "no error")")
        #expect(caught?.message.last == ".")
    }

    @Test func describesTheErrorWithItsOffset() {
        let error = PatternError(offset: 3, message: "Backreferences such as \\1 are not supported.")
        #expect(error.description == "offset 3: Backreferences such as \\1 are not supported.")
    }

    @Test func countsOffsetsInUnicodeScalars() {
        #expect(throws: PatternError(offset: 2, message: "A literal ']' must be escaped as '\\]'.")) {
            try Pattern("😀é]")
        }
    }
}

extension PatternTests {
    /// One row of a matching table: the pattern, the text, and whether the pattern matches somewhere in it.
    struct Case: CustomTestStringConvertible, Sendable {
        var pattern: String
        var text: String
        var matches: Bool
        init(_ pattern: String, _ text: String, _ matches: Bool) {
            (self.pattern, self.text, self.matches) = (pattern, text, matches)
        }
        var testDescription: String { "/\(pattern)/ on \(text.debugDescription) → \(matches)" }
    }

    /// One row of a rejection table: the pattern, the offset reported, and a phrase the message must contain.
    struct Rejection: CustomTestStringConvertible, Sendable {
        var pattern: String
        var offset: Int
        var phrase: String
        init(_ pattern: String, _ offset: Int, _ phrase: String) {
            (self.pattern, self.offset, self.phrase) = (pattern, offset, phrase)
        }
        var testDescription: String { "/\(pattern)/ at \(offset)" }
    }
}
