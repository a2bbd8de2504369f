// SPDX-License-Identifier: Apache-2.0

// A date pattern is compiled once, at schema registration, into a list of fields; parsing and formatting then walk
// that list over bytes without allocating. The supported subset of Unicode LDML (docs/schema.md, "dateFormat"),
// with English (en_US_POSIX) names:
//
//     symbol        parse                                   format (always UTC)
//     yyyy  yy      exactly 4 / 2 digits (yy: 1970–2069)    4 / 2 digits
//     M  MM         1–2 / exactly 2 digits                  9 / 09
//     MMM  MMMM     Sep / September                         Sep / September
//     d  dd         1–2 / exactly 2 digits                  4 / 04
//     E…EEE  EEEE   Fri / Friday (not checked)              Fri / Friday
//     H  HH         hour 0–23, 1–2 / exactly 2 digits       0 / 00
//     h  hh  a      hour 1–12, AM / PM (12 AM is 0h)        12 / 12 / AM
//     m mm  s ss    1–2 / exactly 2 digits                  5 / 05
//     S…SSSSSS      exactly that many fraction digits       that many digits, truncated
//     Z             ±HHmm                                   +0000
//     ZZZZZ  XXX    Z or ±HH:mm                             Z
//     X             Z, ±HH or ±HHmm                         Z
//     'text'  ''    literal text / a single quote
//
// Any other ASCII letter (or run length, e.g. `yyy`, `MMMMM`) is rejected; other characters are literals.
// "dd/MM/yyyy HH:mm" compiles to [day(2), "/", month(2), "/", year4, " ", hour24(2), ":", minute(2)].

/// A compiled date pattern (the LDML subset of docs/schema.md, "dateFormat"); equal and hashed by its source text.
struct DatePattern: Sendable {
    /// One compiled element of a pattern.
    enum Field: Equatable, Sendable {
        case literal([UInt8])
        case year4
        case year2
        /// `M` (width 1) or `MM` (width 2); likewise for the other numeric fields.
        case month(width: Int)
        case monthAbbreviation
        case monthName
        case day(width: Int)
        case weekdayAbbreviation
        case weekdayName
        case hour24(width: Int)
        case hour12(width: Int)
        case amPm
        case minute(width: Int)
        case second(width: Int)
        /// `S` … `SSSSSS`: that many digits of the fraction of a second.
        case fraction(digits: Int)
        /// `Z`: ±HHmm.
        case zoneBasic
        /// `ZZZZZ`, `XXX`: `Z` or ±HH:mm.
        case zoneExtended
        /// `X`: `Z`, ±HH or ±HHmm.
        case zoneShort
    }

    /// The pattern as written in the schema.
    let source: String
    /// The compiled fields, adjacent literals merged; never empty.
    let fields: [Field]

    /// Compiles the LDML subset of docs/schema.md, "dateFormat": yyyy, yy (pivot 1970–2069), M, MM, MMM, MMMM, d, dd,
    /// E–EEEE, H, HH, h, hh, a, m, mm, s, ss, S–SSSSSS, zones Z, ZZZZZ, X, XXX, quoted literals ('T', '' = a quote);
    /// other ASCII letters (and other run lengths) are unsupported (the error names the symbol and its UTF-8 byte
    /// offset); other characters are literals. English names (en_US_POSIX).
    init(_ source: String) throws(DatePatternError) {
        self.source = source
        self.fields = try DatePattern.compile(Array(source.utf8))
    }

    private static func compile(_ bytes: [UInt8]) throws(DatePatternError) -> [Field] {
        guard !bytes.isEmpty else { throw DatePatternError(offset: 0, message: "empty pattern") }
        var fields: [Field] = []
        var literal: [UInt8] = []
        var index = 0
        func flushLiteral() {
            if !literal.isEmpty {
                fields.append(.literal(literal))
                literal.removeAll()
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                index = try readQuoted(bytes, at: index, into: &literal)
            } else if byte.isASCIILetter {
                var end = index + 1
                while end < bytes.count, bytes[end] == byte {
                    end += 1
                }
                guard let field = field(for: byte, count: end - index) else {
                    let symbol = String(decoding: bytes[index..<end], as: UTF8.self)
                    throw DatePatternError(offset: index, message: "unsupported symbol '\(symbol)'")
                }
                flushLiteral()
                fields.append(field)
                index = end
            } else {
                literal.append(byte)
                index += 1
            }
        }
        flushLiteral()
        return fields
    }

    /// Reads `''` or a quoted literal starting at the quote at `index`; returns the index after it.
    private static func readQuoted(_ bytes: [UInt8], at index: Int, into literal: inout [UInt8])
        throws(DatePatternError) -> Int
    {
        let quote = UInt8(ascii: "'")
        var position = index + 1
        if position < bytes.count, bytes[position] == quote {
            literal.append(quote)
            return position + 1
        }
        while position < bytes.count {
            if bytes[position] == quote {
                guard position + 1 < bytes.count, bytes[position + 1] == quote else { return position + 1 }
                literal.append(quote)
                position += 2
            } else {
                literal.append(bytes[position])
                position += 1
            }
        }
        throw DatePatternError(offset: index, message: "unterminated quoted literal")
    }

    /// The field for a run of `count` copies of the ASCII letter `symbol`, or nil when it is not in the subset.
    private static func field(for symbol: UInt8, count: Int) -> Field? {
        switch (symbol, count) {
        case (UInt8(ascii: "y"), 4): .year4
        case (UInt8(ascii: "y"), 2): .year2
        case (UInt8(ascii: "M"), 1...2): .month(width: count)
        case (UInt8(ascii: "M"), 3): .monthAbbreviation
        case (UInt8(ascii: "M"), 4): .monthName
        case (UInt8(ascii: "d"), 1...2): .day(width: count)
        case (UInt8(ascii: "E"), 1...3): .weekdayAbbreviation
        case (UInt8(ascii: "E"), 4): .weekdayName
        case (UInt8(ascii: "H"), 1...2): .hour24(width: count)
        case (UInt8(ascii: "h"), 1...2): .hour12(width: count)
        case (UInt8(ascii: "a"), 1): .amPm
        case (UInt8(ascii: "m"), 1...2): .minute(width: count)
        case (UInt8(ascii: "s"), 1...2): .second(width: count)
        case (UInt8(ascii: "S"), 1...6): .fraction(digits: count)
        case (UInt8(ascii: "Z"), 1): .zoneBasic
        case (UInt8(ascii: "Z"), 5), (UInt8(ascii: "X"), 3): .zoneExtended
        case (UInt8(ascii: "X"), 1): .zoneShort
        default: nil
        }
    }
}

extension DatePattern: Hashable {
    static func == (lhs: DatePattern, rhs: DatePattern) -> Bool {
        lhs.source == rhs.source
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(source)
    }
}
