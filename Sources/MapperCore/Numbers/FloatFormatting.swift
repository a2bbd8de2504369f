// SPDX-License-Identifier: Apache-2.0
//
// FloatFormatting — float and double output as ECMAScript's Number::toString writes them, and integer output.
//
// Output is two steps (docs/semantics.md, "Writing the output"):
//
//  1. The shortest digits that read back to the same value *of that type*. These come from the standard
//     library's own shortest-round-trip printer (the one behind `description`), received through
//     `TextOutputStream` by `ShortestDigits`, which implements the stream's ASCII entry point and so is handed the
//     printer's stack buffer: no String is built and nothing is allocated. Float 0.1 prints as "0.1", because the
//     printer works in Float. (Should a future standard library stop calling the ASCII entry point, `write(_:)`
//     receives the same text as a String: still correct, just allocating.)
//  2. ECMAScript's layout of those digits d₁…dₖ with value 0.d₁…dₖ × 10ⁿ (ECMA-262 Number::toString):
//
//         k ≤ n ≤ 21        digits then n-k zeros       1e20 → "100000000000000000000"
//         0 < n ≤ 21        digits with a point inside  1.5 → "1.5"
//         -6 < n ≤ 0        "0." then -n zeros, digits  1e-6 → "0.000001"
//         otherwise         d.ddd "e" sign (n-1)        1e21 → "1e+21", 1.5e-7 → "1.5e-7"
//
// -0 is written "0". NaN and infinities never reach this type (they are out of range for the target).
// Reading lives in FloatFormatting+Reading.swift.

enum FloatFormatting {
    private typealias Byte = NumberText.Byte

    /// ECMAScript formatting of the shortest digits that round-trip as a Double.
    static func write(_ value: Double, into out: inout some ByteSink) {
        guard value != 0 else {
            out.append(Byte.zero)
            return
        }
        var shortest = ShortestDigits()
        value.magnitude.write(to: &shortest)
        layOut(negative: value < 0, shortest, into: &out)
    }

    /// ECMAScript formatting of the shortest digits that round-trip as a Float (0.1 → "0.1").
    static func write(_ value: Float, into out: inout some ByteSink) {
        guard value != 0 else {
            out.append(Byte.zero)
            return
        }
        var shortest = ShortestDigits()
        value.magnitude.write(to: &shortest)
        layOut(negative: value < 0, shortest, into: &out)
    }

    /// Plain decimal digits, with a leading "-" for negative values.
    static func writeInteger(_ value: Int128, into out: inout some ByteSink) {
        if value < 0 { out.append(Byte.minus) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            let start = renderDigits(of: value.magnitude, into: buffer)
            out.append(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start...])))
        }
    }

    /// Writes the decimal digits of `value` at the end of `buffer` (which holds at least 39 bytes) and returns the
    /// index of the first one.
    static func renderDigits(of value: UInt128, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var index = buffer.count
        if let small = UInt64(exactly: value) {
            // The common case, in cheap 64-bit divisions.
            var rest = small
            repeat {
                index -= 1
                buffer[index] = Byte.zero + UInt8(rest % 10)
                rest /= 10
            } while rest != 0
            return index
        }
        var rest = value
        repeat {
            index -= 1
            buffer[index] = Byte.zero + UInt8(rest % 10)
            rest /= 10
        } while rest != 0
        return index
    }

    // MARK: - ECMAScript layout

    private static func layOut(negative: Bool, _ shortest: ShortestDigits, into out: inout some ByteSink) {
        if negative { out.append(Byte.minus) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            let start = renderDigits(of: UInt128(shortest.significantDigits), into: buffer)
            let digits = UnsafeBufferPointer(rebasing: buffer[start...])
            let count = digits.count
            let point = shortest.pointPosition
            if count <= point && point <= 21 {
                out.append(contentsOf: digits)
                out.append(contentsOf: repeatElement(Byte.zero, count: point - count))
            } else if 0 < point && point <= 21 {
                out.append(contentsOf: digits[..<point])
                out.append(Byte.dot)
                out.append(contentsOf: digits[point...])
            } else if -6 < point && point <= 0 {
                out.append(Byte.zero)
                out.append(Byte.dot)
                out.append(contentsOf: repeatElement(Byte.zero, count: -point))
                out.append(contentsOf: digits)
            } else {
                out.append(digits[0])
                if count > 1 {
                    out.append(Byte.dot)
                    out.append(contentsOf: digits[1...])
                }
                out.append(Byte.lowerE)
                if point - 1 >= 0 { out.append(Byte.plus) }
                writeInteger(Int128(point - 1), into: &out)
            }
        }
    }
}
