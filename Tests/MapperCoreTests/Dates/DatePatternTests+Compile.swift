// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import MapperCore

extension DatePatternTests {
    @Test func compilesIntoFieldsWithMergedLiterals() throws {
        let pattern = try DatePattern("dd/MM/yyyy 'at' HH")
        #expect(
            pattern.fields == [
                .day(width: 2), .literal([UInt8(ascii: "/")]), .month(width: 2), .literal([UInt8(ascii: "/")]), .year4,
                .literal(Array(" at ".utf8)), .hour24(width: 2),
            ])
        #expect(pattern.source == "dd/MM/yyyy 'at' HH")
    }

    @Test(
        arguments: [
            ("yyyy-MM-dd Q", 11, "'Q'"), ("yyy", 0, "'yyy'"), ("y", 0, "'y'"), ("yyyyy", 0, "'yyyyy'"),
            ("MMMMM", 0, "'MMMMM'"), ("EEEEE", 0, "'EEEEE'"), ("ddd", 0, "'ddd'"), ("HHH", 0, "'HHH'"),
            ("dd/MM/yyyy G", 11, "'G'"), ("ss.SSSSSSS", 3, "'SSSSSSS'"), ("ZZ", 0, "'ZZ'"), ("ZZZ", 0, "'ZZZ'"),
            ("ZZZZ", 0, "'ZZZZ'"), ("XX", 0, "'XX'"), ("XXXX", 0, "'XXXX'"), ("HH:mm z", 6, "'z'"),
            ("HH:mm k", 6, "'k'"), ("h aa", 2, "'aa'"), ("D", 0, "'D'"), ("u", 0, "'u'"), ("é yyyy Q", 8, "'Q'"),
            ("'T' L", 4, "'L'"),
        ] as [(String, Int, String)])
    func rejectsUnsupportedSymbolsNamingThemAndTheirOffset(source: String, offset: Int, symbol: String) {
        #expect {
            _ = try DatePattern(source)
        } throws: { error in
            guard let error = error as? DatePatternError else { return false }
            return error.offset == offset && error.message.contains(symbol)
                && error.description.contains("offset \(offset)") && error.description.contains(symbol)
        }
    }

    @Test(arguments: [("yyyy 'T", 5), ("'", 0), ("yyyy-MM-dd'T", 10), ("'it''s", 0)] as [(String, Int)])
    func rejectsUnterminatedQuotes(source: String, offset: Int) {
        #expect(throws: DatePatternError(offset: offset, message: "unterminated quoted literal")) {
            _ = try DatePattern(source)
        }
    }

    @Test func rejectsEmptyPattern() {
        #expect(throws: DatePatternError(offset: 0, message: "empty pattern")) {
            _ = try DatePattern("")
        }
    }

    @Test func treatsNonLetterCharactersAsLiterals() throws {
        let pattern = try DatePattern("[yyyy]~{MM}#")
        #expect(pattern.parse("[2015]~{09}#") == .at(1_441_065_600))
        #expect(pattern.format(.make(seconds: 1_441_065_600)) == "[2015]~{09}#")
    }

    @Test func equalsAndHashesBySource() throws {
        let first = try DatePattern("dd/MM/yyyy")
        let second = try DatePattern("dd/MM/yyyy")
        let other = try DatePattern("dd/MM/yy")
        #expect(first == second && first.hashValue == second.hashValue)
        #expect(first != other)
        #expect(Set([DateFormat.pattern(first), .pattern(second), .pattern(other), .iso8601]).count == 3)
    }
}
