// SPDX-License-Identifier: Apache-2.0

// Reading a JSON number as Unix seconds (or milliseconds) exactly, without binary floating point. The number's
// digits (integer and fraction part, leading zeros skipped) d1 d2 … dn have a decimal exponent P such that
// value = 0.d1d2…dn × 10^P. Scaled to microseconds (× 10^6, or × 10^3 for milliseconds) the integer part has
// m = P + 6 (or P + 3) digits: d1 … dm, padded with zeros when m > n. Every supported instant has at most 18
// digits of microseconds, so m > 18 is out of range before any arithmetic, and the exponent is read saturating —
// a 10,000-digit number or `1e999999999999` costs one linear pass and cannot overflow.
//
//     "1.4412967415e9", seconds: digits 14412967415, P = 10, m = 16 → 1441296741500000 µs
//     "-0.0000001",     seconds: m = 0, a non-zero digit is cut   → -1 µs, truncated (toward the past)

extension DateFormatting {
    /// A JSON number's text (grammar-valid, may be huge or have an exponent: "1.4412967415e9") read EXACTLY (no binary
    /// float) as Unix seconds, or milliseconds when `millis`; digits beyond microseconds truncated toward the past
    /// (truncated: true); outside the Instant range → .invalid. Linear time, no overflow on 10,000-digit input.
    /// Text that is not a JSON number → .invalid.
    static func readEpoch(_ text: UnsafeRawBufferPointer, millis: Bool) -> DateReading {
        guard let number = EpochNumber(text) else { return .invalid }
        guard let first = number.firstNonZeroDigit else { return .instant(Instant(microseconds: 0), truncated: false) }
        let digitCount = number.digitCount - first
        let integerDigits = number.integerCount - first + number.exponent + (millis ? 3 : 6)
        guard integerDigits <= 18 else { return .invalid }
        var magnitude: UInt64 = 0
        var truncated = false
        for position in first..<number.digitCount {
            let digit = number.digit(position, in: text)
            if position - first < integerDigits {
                magnitude = magnitude * 10 + UInt64(digit)
            } else if digit != 0 {
                truncated = true
                break
            }
        }
        var padding = integerDigits - digitCount
        while padding > 0 {
            magnitude *= 10
            padding -= 1
        }
        let microseconds = number.isNegative ? -Int64(magnitude) - (truncated ? 1 : 0) : Int64(magnitude)
        let instant = Instant(microseconds: microseconds)
        return instant.isInRange ? .instant(instant, truncated: truncated) : .invalid
    }
}

/// Where the parts of a JSON number's text are: `-? int (. frac)? (e ±? exp)?`, checked against the JSON grammar.
private struct EpochNumber {
    /// Largest exponent magnitude kept; anything beyond is equally out of range (or equally zero).
    static let exponentLimit = 1 << 40

    var isNegative = false
    var integerStart = 0
    var integerCount = 0
    var fractionStart = 0
    var fractionCount = 0
    /// The decimal exponent, saturated at ±`exponentLimit`.
    var exponent = 0
    /// Index (into the integer digits followed by the fraction digits) of the first non-zero digit; nil when all
    /// digits are zero.
    var firstNonZeroDigit: Int?

    var digitCount: Int { integerCount + fractionCount }

    init?(_ text: UnsafeRawBufferPointer) {
        var index = 0
        if DateScanning.byte(UInt8(ascii: "-"), in: text, at: 0) {
            isNegative = true
            index = 1
        }
        integerStart = index
        guard index < text.count, DateScanning.digitValue(text[index]) != nil else { return nil }
        if text[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            index = Self.skipDigits(text, from: index, firstNonZero: &firstNonZeroDigit, base: -integerStart)
        }
        integerCount = index - integerStart
        if DateScanning.byte(UInt8(ascii: "."), in: text, at: index) {
            fractionStart = index + 1
            index = Self.skipDigits(
                text, from: fractionStart, firstNonZero: &firstNonZeroDigit,
                base: integerCount - fractionStart)
            fractionCount = index - fractionStart
            guard fractionCount > 0 else { return nil }
        }
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            var exponentSign = 1
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentSign = text[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
            }
            let exponentStart = index
            while index < text.count, let digit = DateScanning.digitValue(text[index]) {
                exponent = Swift.min(exponent * 10 + digit, Self.exponentLimit)
                index += 1
            }
            guard index > exponentStart else { return nil }
            exponent *= exponentSign
        }
        guard index == text.count else { return nil }
    }

    /// The `position`-th digit of the integer digits followed by the fraction digits.
    func digit(_ position: Int, in text: UnsafeRawBufferPointer) -> Int {
        let index = position < integerCount ? integerStart + position : fractionStart + position - integerCount
        return Int(text[index] &- UInt8(ascii: "0"))
    }

    /// Skips ASCII digits from `index`; records the first non-zero one (as text index + `base`) if none was yet.
    private static func skipDigits(
        _ text: UnsafeRawBufferPointer, from index: Int, firstNonZero: inout Int?,
        base: Int
    ) -> Int {
        var position = index
        while position < text.count, let digit = DateScanning.digitValue(text[position]) {
            if firstNonZero == nil, digit != 0 {
                firstNonZero = position + base
            }
            position += 1
        }
        return position
    }
}
