// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Reading a JSON number as the nearest Double or Float, correctly rounded, without allocating.
//
//  - Zero, and values whose decimal point position puts them far outside the type's range, are answered from
//    the `NumberText.Anatomy` alone (any exponent length): ±infinity above, ±0 below.
//  - Fast path (Clinger): when the significant digits form an integer w that the type holds exactly and 10^|e| is
//    exact too, w × 10^e or w / 10^-e is one correctly rounded operation *in the type itself* (Float arithmetic
//    for Float, so there is no double rounding). "12.5", "3.14159", "1e10", "0.001" take this path.
//  - Otherwise libc's correctly rounded strtod / strtof reads a compact copy on the stack: the significant digits
//    as an integer and the exponent of the last one ("12345e-3"; no decimal point, so the C locale's radix
//    character never matters). Only the first 800 significant digits are kept; if more follow, a final "1" stands
//    for them. That keeps the rounding: every midpoint between two adjacent doubles has at most 767 significant
//    digits (floats: fewer), so no midpoint lies between the truncated value and the original.

extension FloatFormatting {
    private typealias Byte = NumberText.Byte

    /// Significant digits copied for libc; the rest collapse into one sticky digit.
    private static let keptDigits = 800

    /// Exact powers of ten: 10^22 is the largest a Double holds exactly.
    private static let doublePowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Exact powers of ten: 10^10 is the largest a Float holds exactly.
    private static let floatPowersOfTen: [Float] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]

    /// The correctly rounded nearest Double of a grammar-valid JSON number (±infinity on overflow; subnormals or
    /// ±0 on underflow).
    static func readDouble(_ text: UnsafeRawBufferPointer) -> Double { readDoubleNotingExactness(text).value }

    /// `readDouble`, and whether the value's written form (`write`) surely denotes the text's exact value: zero,
    /// or at most 15 significant digits in the normal range, read by the fast path. Any decimal of at most 15
    /// significant digits (DBL_DIG) reads back from its nearest Double, so the shortest digits of that Double are
    /// the text's own. When false, the caller compares the written text with the input (`precision_lost`).
    static func readDoubleNotingExactness(_ text: UnsafeRawBufferPointer) -> (value: Double, surelyExact: Bool) {
        let number = NumberText.Anatomy(text)
        let magnitude: Double
        var surelyExact = false
        // |value| < 10^point: 10^-330 rounds to 0; |value| >= 10^(point-1): 10^309 is beyond the largest Double.
        if number.isZero {
            magnitude = 0
            surelyExact = true
        } else if number.pointPosition < -330 {
            magnitude = 0
        } else if number.pointPosition > 310 {
            magnitude = .infinity
        } else if let fast = fastDouble(number) {
            magnitude = fast
            surelyExact = true
        } else {
            magnitude = withCompactText(number) { strtod($0, nil) }
        }
        return (number.negative ? -magnitude : magnitude, surelyExact)
    }

    /// The correctly rounded nearest Float of a grammar-valid JSON number, rounded directly from the decimal text.
    static func readFloat(_ text: UnsafeRawBufferPointer) -> Float { readFloatNotingExactness(text).value }

    /// `readFloat`, and whether the written form surely denotes the text's exact value: zero, or at most 6
    /// significant digits (FLT_DIG) read by the fast path (see `readDoubleNotingExactness`).
    static func readFloatNotingExactness(_ text: UnsafeRawBufferPointer) -> (value: Float, surelyExact: Bool) {
        let number = NumberText.Anatomy(text)
        let magnitude: Float
        var surelyExact = false
        // 10^-50 rounds to 0 (the least Float is about 1.4e-45); 10^39 is beyond the largest (about 3.4e38).
        if number.isZero {
            magnitude = 0
            surelyExact = true
        } else if number.pointPosition < -50 {
            magnitude = 0
        } else if number.pointPosition > 40 {
            magnitude = .infinity
        } else if let fast = fastFloat(number) {
            magnitude = fast
            // The fast path's range (10^-10 to below 10^18) is normal for Float.
            surelyExact = number.significantCount <= 6
        } else {
            magnitude = withCompactText(number) { strtof($0, nil) }
        }
        return (number.negative ? -magnitude : magnitude, surelyExact)
    }

    // MARK: - Helpers

    /// Clinger's fast path for Double: at most 15 significant digits (< 2^53) and an exact power of ten.
    private static func fastDouble(_ number: NumberText.Anatomy) -> Double? {
        guard let (digits, power) = exactInteger(number, maxDigits: 15, maxPower: 22) else { return nil }
        let value = Double(digits)
        return power >= 0 ? value * doublePowersOfTen[power] : value / doublePowersOfTen[-power]
    }

    /// Clinger's fast path for Float: at most 7 significant digits (< 2^24) and an exact power of ten.
    private static func fastFloat(_ number: NumberText.Anatomy) -> Float? {
        guard let (digits, power) = exactInteger(number, maxDigits: 7, maxPower: 10) else { return nil }
        let value = Float(digits)
        return power >= 0 ? value * floatPowersOfTen[power] : value / floatPowersOfTen[-power]
    }

    /// |value| = digits × 10^power with digits of at most `maxDigits` digits and |power| <= maxPower, when
    /// possible; a too-large power is folded into the digits while they stay short enough ("1e25" → 1000 × 10^22).
    private static func exactInteger(
        _ number: NumberText.Anatomy, maxDigits: Int, maxPower: Int
    ) -> (UInt64, Int)? {
        let count = number.significantCount
        guard count <= maxDigits else { return nil }
        var power = Int(number.lastDigitExponent)  // bounded by the callers' range checks
        guard power >= -maxPower, power <= maxPower + (maxDigits - count) else { return nil }
        var digits: UInt64 = 0
        for offset in 0..<count { digits = digits * 10 + UInt64(number.significantDigit(offset)) }
        while power > maxPower {
            digits *= 10
            power -= 1
        }
        return (digits, power)
    }

    /// Calls `body` with a NUL-terminated "digits" "e" exponent copy of the number's magnitude, on the stack.
    private static func withCompactText<Result>(
        _ number: NumberText.Anatomy, _ body: (UnsafePointer<CChar>) -> Result
    ) -> Result {
        let kept = min(number.significantCount, keptDigits)
        let sticky = number.significantCount > kept
        let written = kept + (sticky ? 1 : 0)
        // The callers bound pointPosition to a few hundred, so the exponent has at most 4 digits.
        let power = Int(number.pointPosition) - written
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keptDigits + 16) { buffer in
            for offset in 0..<kept { buffer[offset] = Byte.zero + number.significantDigit(offset) }
            if sticky { buffer[kept] = Byte.one }
            var index = written
            buffer[index] = Byte.lowerE
            index += 1
            if power < 0 {
                buffer[index] = Byte.minus
                index += 1
            }
            var remaining = power.magnitude
            var divisor: UInt = 1
            while divisor * 10 <= remaining { divisor *= 10 }
            repeat {
                buffer[index] = Byte.zero + UInt8(remaining / divisor)
                remaining %= divisor
                divisor /= 10
                index += 1
            } while divisor > 0
            buffer[index] = Byte.nul
            return buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: index + 1) { body($0) }
        }
    }
}
