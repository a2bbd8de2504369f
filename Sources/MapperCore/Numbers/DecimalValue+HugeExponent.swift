// SPDX-License-Identifier: Apache-2.0

/// Decimals whose exponent does not fit in 64 bits (docs/coercion-rules.md, "decimal": the `decimal` exponent is
/// unbounded).
///
/// Such a value is written in the `d.ddde±x` form, the exponent computed on its decimal digits: for
/// `12.5e<huge>` the digits are `125` and the written exponent is `<huge> + 1`. Only the addition of a small shift
/// to a long digit string is needed, so the cost stays linear in the text.
extension DecimalValue {
    /// Writes the canonical form of a grammar-valid number with at most 38 significant digits whose exponent is
    /// too large for `DecimalValue`; returns false when the text has more significant digits than that.
    static func writeHugeExponent(_ text: UnsafeRawBufferPointer, into out: inout some ByteSink) -> Bool {
        let anatomy = NumberText.Anatomy(text)
        guard anatomy.significantCount <= 38, !anatomy.isZero, !anatomy.exponentDigits.isEmpty else { return false }
        // value = d₁.d₂…dₙ × 10^(E + pointShift - 1)
        let (negativeExponent, magnitude) = add(
            Array(text[anatomy.exponentDigits]), negative: anatomy.exponentNegative, anatomy.pointShift - 1)
        if anatomy.negative { out.append(UInt8(ascii: "-")) }
        let stream = Array(text[anatomy.integerDigits]) + Array(text[anatomy.fractionDigits])
        let significant = stream[anatomy.firstSignificant..<anatomy.firstSignificant + anatomy.significantCount]
        out.append(significant.first!)
        if significant.count > 1 {
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: significant.dropFirst())
        }
        out.append(UInt8(ascii: "e"))
        out.append(negativeExponent ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        out.append(contentsOf: magnitude)
        return true
    }

    /// `±digits + shift`, for a `digits` far larger in magnitude than `shift` (so the sign never changes).
    static func add(_ digits: [UInt8], negative: Bool, _ shift: Int) -> (negative: Bool, digits: [UInt8]) {
        var result = digits
        let grows = (shift >= 0) != negative  // the magnitude grows when the shift has the number's sign
        var carry = shift.magnitude
        var index = result.count - 1
        while carry > 0 {
            if index < 0 {
                result.insert(UInt8(ascii: "0") + UInt8(carry % 10), at: 0)
                carry /= 10
                continue
            }
            var digit = Int(result[index] - UInt8(ascii: "0"))
            if grows {
                let sum = digit + Int(carry % 10)
                carry = carry / 10 + UInt(sum / 10)
                digit = sum % 10
            } else {
                var difference = digit - Int(carry % 10)
                carry /= 10
                if difference < 0 {
                    difference += 10
                    carry += 1
                }
                digit = difference
            }
            result[index] = UInt8(ascii: "0") + UInt8(digit)
            index -= 1
        }
        while result.count > 1, result[0] == UInt8(ascii: "0") { result.removeFirst() }
        return (negative, result)
    }
}
