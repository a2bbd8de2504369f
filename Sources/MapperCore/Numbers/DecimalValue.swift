// SPDX-License-Identifier: Apache-2.0
//
// DecimalValue — the `decimal` type: an exact decimal, never touched by binary floating point.
//
//     value = (-1)^negative × significand × 10^exponent
//
// The form is normalised, so equal values have equal fields (and synthesised `Hashable` is by value): the
// significand has no trailing zero digits and zero is (false, 0, 0). "12.50" → (false, 125, -1); "-1200" →
// (true, 12, 2); "-0.0" → (false, 0, 0). Input has at most 38 significant digits (docs/coercion-rules.md, "decimal"),
// so the significand fits a UInt128 with room to spare; `init(integer:)` may use all 39 digits of an Int128.
// The exponent is unbounded (docs/coercion-rules.md, "decimal") but is held in an Int: a number whose exponent does not
// fit is treated as out of range, like one with too many digits (no real input comes near ±9.2e18).

struct DecimalValue: Hashable, Sendable {
    /// The largest number of significant digits a JSON number may have to be read as a decimal.
    static let maxSignificantDigits = 38
    /// Output longer than this many characters in plain notation is written in exponent notation.
    static let maxPlainLength = 40

    static let zero = DecimalValue(negative: false, significand: 0, exponent: 0)

    /// True for values below zero; never true for zero.
    var negative: Bool
    /// The digits, with no trailing zero (0 only for zero).
    var significand: UInt128
    /// The power of ten of the significand's last digit (0 for zero).
    var exponent: Int

    /// Normalises any triple: strips the significand's trailing zeros into the exponent, and makes zero (false, 0, 0).
    /// The exponent after stripping must fit in an Int.
    init(negative: Bool, significand: UInt128, exponent: Int) {
        guard significand != 0 else {
            (self.negative, self.significand, self.exponent) = (false, 0, 0)
            return
        }
        var digits = significand
        var power = exponent
        while digits % 10 == 0 {
            digits /= 10
            power += 1
        }
        (self.negative, self.significand, self.exponent) = (negative, digits, power)
    }

    /// The exact value of a grammar-valid JSON number; nil when it has more than 38 significant digits (counted
    /// from the first to the last nonzero digit: 1200 and 0.0012 have 2) or its exponent does not fit in an Int.
    init?(jsonNumber text: UnsafeRawBufferPointer) {
        let number = NumberText.Anatomy(text)
        guard !number.isZero else {
            self = .zero
            return
        }
        guard number.significantCount <= Self.maxSignificantDigits,
            let exponent = Int(exactly: number.lastDigitExponent)
        else { return nil }
        var digits: UInt128 = 0
        for offset in 0..<number.significantCount {
            digits = digits * 10 + UInt128(number.significantDigit(offset))
        }
        (self.negative, self.significand, self.exponent) = (number.negative, digits, exponent)
    }

    init(integer: Int128) {
        self.init(negative: integer < 0, significand: integer.magnitude, exponent: 0)
    }

    /// Number of decimal digits of the significand (1 for zero).
    var digitCount: Int {
        var count = 1
        var bound: UInt128 = 10
        while significand >= bound {
            count += 1
            guard count < 39 else { break }
            bound *= 10
        }
        return count
    }

    /// The power of ten of the first digit: value = d.ddd × 10^scientificExponent.
    var scientificExponent: Int128 {
        Int128(exponent) + Int128(digitCount - 1)
    }

    /// -1, 0 or 1 by value.
    static func compare(_ a: DecimalValue, _ b: DecimalValue) -> Int {
        let signA = a.significand == 0 ? 0 : (a.negative ? -1 : 1)
        let signB = b.significand == 0 ? 0 : (b.negative ? -1 : 1)
        if signA != signB { return signA < signB ? -1 : 1 }
        if signA == 0 { return 0 }
        let magnitudeOrder = compareMagnitudes(a, b)
        return a.negative ? -magnitudeOrder : magnitudeOrder
    }

    /// Orders nonzero values by absolute value: scientific exponent, then digits aligned at the first digit.
    private static func compareMagnitudes(_ a: DecimalValue, _ b: DecimalValue) -> Int {
        let exponentA = a.scientificExponent
        let exponentB = b.scientificExponent
        if exponentA != exponentB { return exponentA < exponentB ? -1 : 1 }
        let countA = a.digitCount
        let countB = b.digitCount
        if countA == countB { return a.significand == b.significand ? 0 : (a.significand < b.significand ? -1 : 1) }
        // Align by cutting the longer significand (no overflow); its cut-off digits are nonzero (normalised), so
        // when the heads are equal the longer one is larger.
        let longerIsA = countA > countB
        let (longer, shorter) = longerIsA ? (a.significand, b.significand) : (b.significand, a.significand)
        let head = longer / Self.powerOfTen(abs(countA - countB))
        let order = head == shorter ? 1 : (head < shorter ? -1 : 1)
        return longerIsA ? order : -order
    }

    static func powerOfTen(_ power: Int) -> UInt128 {
        var value: UInt128 = 1
        for _ in 0..<power { value *= 10 }
        return value
    }
}

// MARK: - Output

extension DecimalValue {
    /// Canonical form: no exponent, no leading zeros, no trailing fractional zeros, -0 as 0 ("1.50" → "1.5",
    /// "1e3" → "1000"); if that plain form would exceed 40 characters (sign included), the shortest d.ddde±x form
    /// ("1e+50", "-1.5e-45", "1.23e+41").
    func write(into out: inout some ByteSink) {
        typealias Byte = NumberText.Byte
        guard significand != 0 else {
            out.append(Byte.zero)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            let start = FloatFormatting.renderDigits(of: significand, into: buffer)
            let digits = UnsafeBufferPointer(rebasing: buffer[start...])
            let count = digits.count
            if negative { out.append(Byte.minus) }
            let signLength: Int128 = negative ? 1 : 0
            let power = Int128(exponent)
            let pointIndex = Int128(count) + power  // digits before the decimal point
            let plainLength: Int128
            if power >= 0 {
                plainLength = signLength + Int128(count) + power
            } else if pointIndex > 0 {
                plainLength = signLength + Int128(count) + 1
            } else {
                plainLength = signLength + 2 - power
            }
            guard plainLength <= Int128(Self.maxPlainLength) else {
                out.append(digits[0])
                if count > 1 {
                    out.append(Byte.dot)
                    out.append(contentsOf: digits[1...])
                }
                out.append(Byte.lowerE)
                let scientific = pointIndex - 1
                if scientific >= 0 { out.append(Byte.plus) }
                FloatFormatting.writeInteger(scientific, into: &out)
                return
            }
            if power >= 0 {
                out.append(contentsOf: digits)
                out.append(contentsOf: repeatElement(Byte.zero, count: Int(power)))
            } else if pointIndex > 0 {
                out.append(contentsOf: digits[..<Int(pointIndex)])
                out.append(Byte.dot)
                out.append(contentsOf: digits[Int(pointIndex)...])
            } else {
                out.append(Byte.zero)
                out.append(Byte.dot)
                out.append(contentsOf: repeatElement(Byte.zero, count: Int(-pointIndex)))
                out.append(contentsOf: digits)
            }
        }
    }
}

extension DecimalValue: Comparable {
    static func < (lhs: DecimalValue, rhs: DecimalValue) -> Bool {
        compare(lhs, rhs) < 0
    }
}
