// SPDX-License-Identifier: Apache-2.0

/// A set of code points as closed ranges, used for `.`, classes `[…]` and `\d \w \s` and their complements.
/// `normalized()` sorts and merges the ranges, which is the form `PatternProgram` stores and searches.
struct PatternCharacterSet: Equatable, Sendable {
    /// The member ranges; after `normalized()` they are sorted, disjoint and not adjacent.
    private(set) var ranges: [ClosedRange<UInt32>]

    init(_ ranges: [ClosedRange<UInt32>] = []) {
        self.ranges = ranges
    }

    static let maxCodePoint: UInt32 = 0x10FFFF

    mutating func insert(_ range: ClosedRange<UInt32>) {
        ranges.append(range)
    }

    mutating func formUnion(_ other: PatternCharacterSet) {
        ranges.append(contentsOf: other.ranges)
    }

    /// The same members as sorted, merged ranges.
    func normalized() -> PatternCharacterSet {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        merged.reserveCapacity(sorted.count)
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return PatternCharacterSet(merged)
    }

    /// Every code point in 0…U+10FFFF that is not a member.
    func inverted() -> PatternCharacterSet {
        var gaps: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in normalized().ranges {
            if range.lowerBound > next { gaps.append(next...(range.lowerBound - 1)) }
            next = range.upperBound &+ 1
        }
        if next <= Self.maxCodePoint { gaps.append(next...Self.maxCodePoint) }
        return PatternCharacterSet(gaps)
    }
}

// MARK: - The predefined sets (ECMA-262 §22.2.2.9, CharacterClassEscape, without the `i` flag)

extension PatternCharacterSet {
    /// `\d`: ASCII digits only.
    static let digits = PatternCharacterSet([0x30...0x39])

    /// `\w`: `[A-Za-z0-9_]` (the `u` flag widens it only together with `i`, which is not supported).
    static let word = PatternCharacterSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])

    /// `\s`: WhiteSpace (TAB, VT, FF, ZWNBSP and category Zs) plus LineTerminator (LF, CR, LS, PS).
    static let whiteSpace = PatternCharacterSet([
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
        0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ])

    /// `.`: everything but the line terminators LF, CR, U+2028 and U+2029 (no `s` flag).
    static let dot = PatternCharacterSet([0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029]).inverted()

    /// The set named by the letter of a class escape (`d D w W s S`), or nil for any other letter.
    static func classEscape(_ letter: Unicode.Scalar) -> PatternCharacterSet? {
        switch letter {
        case "d": digits
        case "D": digits.inverted()
        case "w": word
        case "W": word.inverted()
        case "s": whiteSpace
        case "S": whiteSpace.inverted()
        default: nil
        }
    }
}
