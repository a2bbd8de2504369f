// SPDX-License-Identifier: Apache-2.0

extension NumberText {
    /// A grammar-valid JSON number taken apart by offsets into its text (no copy, one linear pass).
    ///
    /// The integer and fraction digits form one digit stream; the significant digits run from its first to its
    /// last nonzero digit. For "-12.50e+3":
    ///
    ///     stream "1250", significant "125" (significantCount 3, firstSignificant 0)
    ///     exponent 3, pointShift 2 (integer digits before the first significant one)
    ///     pointPosition 5: |value| = 0.125 × 10^5
    ///
    /// and for "0.0012": stream "00012", significant "12", pointShift 1 - 3 = -2, pointPosition -2 (0.12 × 10^-2).
    /// Zero has no significant digits. The text must be grammar-valid (`NumberText.isJSONNumber`).
    struct Anatomy {
        /// Beyond this magnitude an exponent is held as ±exponentLimit. Any shift a text can add is below 2^63,
        /// far smaller, so a saturated exponent still decides every range check it takes part in.
        static let exponentLimit: Int128 = 1_000_000_000_000_000_000_000_000_000_000

        let text: UnsafeRawBufferPointer
        let negative: Bool
        let integerDigits: Range<Int>
        let fractionDigits: Range<Int>
        let exponentNegative: Bool
        /// The exponent's digits without leading zeros (empty for no exponent or a zero exponent).
        let exponentDigits: Range<Int>
        /// The exponent's value, exact up to 30 digits, else ±exponentLimit.
        let exponent: Int128
        /// Stream index of the first nonzero digit (the stream's length when the value is zero).
        let firstSignificant: Int
        /// Number of digits from the first to the last nonzero digit; 0 for zero.
        let significantCount: Int

        init(_ text: UnsafeRawBufferPointer) {
            self.text = text
            var index = 0
            negative = index < text.count && text[index] == Byte.minus
            if negative { index += 1 }
            let integerStart = index
            while index < text.count, text[index].isASCIIDigit { index += 1 }
            integerDigits = integerStart..<index
            var fractionStart = index
            if index < text.count, text[index] == Byte.dot {
                index += 1
                fractionStart = index
                while index < text.count, text[index].isASCIIDigit { index += 1 }
            }
            fractionDigits = fractionStart..<index
            var exponentIsNegative = false
            if index < text.count, text[index] == Byte.lowerE || text[index] == Byte.upperE {
                index += 1
                if index < text.count, text[index] == Byte.plus || text[index] == Byte.minus {
                    exponentIsNegative = text[index] == Byte.minus
                    index += 1
                }
            }
            while index < text.count, text[index] == Byte.zero { index += 1 }
            exponentDigits = index..<text.count
            exponentNegative = exponentIsNegative && !exponentDigits.isEmpty
            exponent = Self.saturatedValue(of: exponentDigits, in: text, negative: exponentNegative)

            let streamLength = integerDigits.count + fractionDigits.count
            var first = 0
            while first < streamLength, Self.digit(at: first, text, integerDigits, fractionDigits) == 0 { first += 1 }
            var last = streamLength - 1
            while last >= first, Self.digit(at: last, text, integerDigits, fractionDigits) == 0 { last -= 1 }
            firstSignificant = first
            significantCount = last - first + 1
        }

        var isZero: Bool { significantCount == 0 }

        /// -1, 0 or 1.
        var sign: Int { isZero ? 0 : (negative ? -1 : 1) }

        /// pointPosition - exponent: the integer digits that precede the first significant digit, less the
        /// leading zeros of the stream (negative for "0.00x").
        var pointShift: Int { integerDigits.count - firstSignificant }

        /// |value| = 0.d₁d₂…dₙ × 10^pointPosition, d being the significant digits (saturated with `exponent`).
        var pointPosition: Int128 { exponent + Int128(pointShift) }

        /// |value| = (significant digits as an integer) × 10^lastDigitExponent (saturated with `exponent`).
        var lastDigitExponent: Int128 { pointPosition - Int128(significantCount) }

        /// The value 0…9 of the significant digit at `offset` (0 is the first nonzero digit).
        func significantDigit(_ offset: Int) -> UInt8 {
            Self.digit(at: firstSignificant + offset, text, integerDigits, fractionDigits)
        }

        /// exponentA - exponentB, exact while below exponentLimit in magnitude and saturated beyond, for exponent
        /// texts of any length (a digit-by-digit subtraction, linear in the texts).
        static func exponentDifference(_ a: Anatomy, _ b: Anatomy) -> Int128 {
            let limitDigits = 30
            if a.exponentDigits.count <= limitDigits && b.exponentDigits.count <= limitDigits {
                return a.exponent - b.exponent
            }
            // At least one exponent has 31+ digits, so |a| + |b| >= 10^30 when the signs differ.
            if a.exponentNegative != b.exponentNegative {
                return a.exponentNegative ? -exponentLimit : exponentLimit
            }
            let order = compareDigits(a.exponentDigits, a.text, b.exponentDigits, b.text)
            if order == 0 { return 0 }
            let (larger, smaller) = order > 0 ? (a, b) : (b, a)
            let magnitude = subtractDigits(larger.exponentDigits, larger.text, smaller.exponentDigits, smaller.text)
            // a - b = ±(|a| - |b|), negated when both exponents are negative.
            return (order > 0) != a.exponentNegative ? magnitude : -magnitude
        }

        // MARK: - Helpers

        private static func digit(
            at streamIndex: Int, _ text: UnsafeRawBufferPointer, _ integer: Range<Int>, _ fraction: Range<Int>
        ) -> UInt8 {
            let offset =
                streamIndex < integer.count
                ? integer.lowerBound + streamIndex : fraction.lowerBound + streamIndex - integer.count
            return text[offset] &- Byte.zero
        }

        private static func saturatedValue(
            of digits: Range<Int>, in text: UnsafeRawBufferPointer, negative: Bool
        ) -> Int128 {
            guard digits.count <= 30 else { return negative ? -exponentLimit : exponentLimit }
            var value: Int128 = 0
            for index in digits { value = value * 10 + Int128(text[index] &- Byte.zero) }
            return negative ? -value : value
        }

        /// Orders two digit strings without leading zeros by value.
        private static func compareDigits(
            _ a: Range<Int>, _ textA: UnsafeRawBufferPointer, _ b: Range<Int>, _ textB: UnsafeRawBufferPointer
        ) -> Int {
            if a.count != b.count { return a.count < b.count ? -1 : 1 }
            for (indexA, indexB) in zip(a, b) where textA[indexA] != textB[indexB] {
                return textA[indexA] < textB[indexB] ? -1 : 1
            }
            return 0
        }

        /// larger - smaller for digit strings with larger >= smaller, saturated at exponentLimit.
        private static func subtractDigits(
            _ larger: Range<Int>, _ textL: UnsafeRawBufferPointer,
            _ smaller: Range<Int>, _ textS: UnsafeRawBufferPointer
        ) -> Int128 {
            var value: Int128 = 0
            var scale: Int128 = 1
            var borrow: UInt8 = 0
            for place in 0..<larger.count {
                let top = textL[larger.upperBound - 1 - place] &- Byte.zero
                let bottom = place < smaller.count ? textS[smaller.upperBound - 1 - place] &- Byte.zero : 0
                var digit = Int(top) - Int(bottom) - Int(borrow)
                borrow = digit < 0 ? 1 : 0
                if digit < 0 { digit += 10 }
                if place < 30 {
                    value += Int128(digit) * scale
                    if place < 29 { scale *= 10 }
                } else if digit != 0 {
                    return exponentLimit
                }
            }
            return value
        }
    }
}
