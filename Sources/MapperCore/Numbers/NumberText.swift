// SPDX-License-Identifier: Apache-2.0
//
// NumberText — exact questions about JSON number text, answered on the decimal digits.
//
// Every number in the input stays text until a target type reads it (docs/coercion-rules.md, "Numbers in strings"):
// integrality, range and order are decided on the digits and the exponent, never through a binary float,
// and in time linear in the text. The work is done on an `Anatomy` (NumberText+Anatomy.swift), which splits
// a grammar-valid number into offsets without copying, e.g. for "-12.50e+3":
//
//     significant digits "125"  (first to last nonzero digit of "1250")
//     point position     5      (value = -0.125 × 10^5 = -12500)
//
// A number is then compared by sign, point position, and significant digits, in that order; an integer is
// read from the first `point` significant digits. Exponent texts of any length are safe: their value is held
// exactly up to 30 digits and saturates beyond (`Anatomy.exponentLimit`), which no digit count can offset,
// and `compare` subtracts two long exponents digit by digit.

/// The result of reading a number as an integer of a bounded type.
enum IntegerReading: Equatable {
    /// The value; `truncated` when a nonzero fraction was dropped (toward zero) to get it.
    case value(Int128, truncated: Bool)
    /// The integer part lies outside the requested range.
    case outOfRange
}

enum NumberText {
    /// True when `text` matches the RFC 8259 number grammar exactly (no surrounding whitespace, no "+", no leading
    /// zeros, etc.).
    // RFC 8259 §6 — number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT );
    // frac = decimal-point 1*DIGIT; exp = e [ minus / plus ] 1*DIGIT
    static func isJSONNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let end = text.count
        if index < end, text[index] == Byte.minus { index += 1 }
        guard index < end else { return false }
        if text[index] == Byte.zero {
            index += 1
        } else if text[index].isASCIIDigit {
            index = skipDigits(text, from: index)
        } else {
            return false
        }
        if index < end, text[index] == Byte.dot {
            let fractionStart = index + 1
            index = skipDigits(text, from: fractionStart)
            guard index > fractionStart else { return false }
        }
        if index < end, text[index] == Byte.lowerE || text[index] == Byte.upperE {
            index += 1
            if index < end, text[index] == Byte.plus || text[index] == Byte.minus { index += 1 }
            let exponentStart = index
            index = skipDigits(text, from: exponentStart)
            guard index > exponentStart else { return false }
        }
        return index == end
    }

    /// `text` without leading/trailing JSON whitespace (SP, HTAB, LF, CR). Returns a sub-slice (no copy).
    static func trimmingJSONWhitespace(_ text: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = text.count
        while start < end, text[start].isJSONWhitespace { start += 1 }
        while end > start, text[end - 1].isJSONWhitespace { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: text[start..<end])
    }

    /// Reads a grammar-valid JSON number as an integer in [min, max]. A nonzero fraction is truncated toward zero
    /// first (truncated: true), then the range is checked. Decided on the decimal text, in linear time.
    static func readInteger(_ text: UnsafeRawBufferPointer, min: Int128, max: Int128) -> IntegerReading {
        let number = Anatomy(text)
        let point = number.pointPosition
        guard !number.isZero, point > 0 else {
            // |value| < 1: the integer part is 0, truncated unless the value is exactly 0.
            return min <= 0 && 0 <= max ? .value(0, truncated: !number.isZero) : .outOfRange
        }
        // Int128 has at most 39 digits; more integer digits cannot fit whatever they are.
        guard point <= 39 else { return .outOfRange }
        let integerDigits = Int(point)
        var magnitude: UInt128 = 0
        for offset in 0..<integerDigits {
            let digit = offset < number.significantCount ? number.significantDigit(offset) : 0
            let (scaled, scaleOverflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = scaled.addingReportingOverflow(UInt128(digit))
            guard !scaleOverflow, !sumOverflow else { return .outOfRange }
            magnitude = sum
        }
        let value: Int128
        if number.negative {
            guard magnitude <= Int128.min.magnitude else { return .outOfRange }
            value = Int128(bitPattern: 0 &- magnitude)
        } else {
            guard magnitude <= UInt128(Int128.max) else { return .outOfRange }
            value = Int128(magnitude)
        }
        guard min <= value, value <= max else { return .outOfRange }
        return .value(value, truncated: number.significantCount > integerDigits)
    }

    /// Exact comparison of two grammar-valid JSON numbers by value: -1, 0 or 1. Any length, any exponent, linear
    /// time. "1.0" == "1" == "10e-1"; "-0" == "0".
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let left = Anatomy(a)
        let right = Anatomy(b)
        if left.sign != right.sign { return left.sign < right.sign ? -1 : 1 }
        if left.sign == 0 { return 0 }
        let magnitudeOrder = compareMagnitudes(left, right)
        return left.negative ? -magnitudeOrder : magnitudeOrder
    }

    /// True when the number's value is exactly 0 ("0", "-0.000", "0e99").
    static func isZero(_ text: UnsafeRawBufferPointer) -> Bool {
        Anatomy(text).isZero
    }

    /// True when the number's value is exactly 1 ("1", "1.000", "0.1e1", "100e-2").
    static func isOne(_ text: UnsafeRawBufferPointer) -> Bool {
        let number = Anatomy(text)
        return !number.negative && number.significantCount == 1 && number.significantDigit(0) == 1
            && number.pointPosition == 1
    }

    // MARK: - Helpers

    /// Orders two nonzero numbers by absolute value: point position first, then significant digits.
    private static func compareMagnitudes(_ a: Anatomy, _ b: Anatomy) -> Int {
        // point = exponent + shift, so pointA - pointB = (exponentA - exponentB) + (shiftA - shiftB); the exponent
        // difference is exact or saturated far beyond any shift difference.
        let pointDifference = Anatomy.exponentDifference(a, b) + Int128(a.pointShift - b.pointShift)
        if pointDifference != 0 { return pointDifference < 0 ? -1 : 1 }
        let shared = Swift.min(a.significantCount, b.significantCount)
        for offset in 0..<shared {
            let digitA = a.significantDigit(offset)
            let digitB = b.significantDigit(offset)
            if digitA != digitB { return digitA < digitB ? -1 : 1 }
        }
        // The last significant digit is nonzero, so the longer digit string is the larger magnitude.
        if a.significantCount == b.significantCount { return 0 }
        return a.significantCount < b.significantCount ? -1 : 1
    }

    private static func skipDigits(_ text: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < text.count, text[index].isASCIIDigit { index += 1 }
        return index
    }
}

extension NumberText {
    /// The bytes of the number grammar and of JSON whitespace, named.
    enum Byte {
        static let zero = UInt8(ascii: "0")
        static let one = UInt8(ascii: "1")
        static let nine = UInt8(ascii: "9")
        static let minus = UInt8(ascii: "-")
        static let plus = UInt8(ascii: "+")
        static let dot = UInt8(ascii: ".")
        static let lowerE = UInt8(ascii: "e")
        static let upperE = UInt8(ascii: "E")
        static let space = UInt8(ascii: " ")
        static let tab = UInt8(ascii: "\t")
        static let lineFeed = UInt8(ascii: "\n")
        static let carriageReturn = UInt8(ascii: "\r")
        static let nul: UInt8 = 0
        // Digits and JSON whitespace are classified by UInt8.isASCIIDigit and UInt8.isJSONWhitespace.
    }
}
