// SPDX-License-Identifier: Apache-2.0

extension FloatFormatting {
    /// Collects the digits of the standard library's shortest round-trip text of a Float or Double, without
    /// building a String: `value.write(to: &digits)` hands the printer's bytes ("1.2345e+20", "100.0", "1e-07",
    /// "0.001") to `_writeASCII`, which keeps only
    ///
    ///     significantDigits   the digits from the first to the last nonzero one, as an integer (12345)
    ///     pointPosition       n with value = 0.d₁d₂…dₖ × 10ⁿ
    ///                         (21 for "1.2345e+20", 3 for "100.0", -2 for "0.001")
    ///
    /// The bytes may arrive in any number of pieces. A shortest round-trip text has at most 17 significant digits
    /// (9 for Float), so they fit a UInt64.
    struct ShortestDigits: TextOutputStream {
        private enum Part { case integer, fraction, exponent }

        private typealias Byte = NumberText.Byte

        private var part = Part.integer
        private var digits: UInt64 = 0
        private var digitCount = 0
        /// n before the exponent is applied.
        private var mantissaPoint = 0
        private var exponent = 0
        private var exponentNegative = false

        /// The significant digits as an integer, without trailing zeros (0 only if no nonzero digit was seen).
        var significantDigits: UInt64 {
            var value = digits
            while value != 0 && value % 10 == 0 { value /= 10 }
            return value
        }

        /// n with |value| = 0.d₁d₂…dₖ × 10ⁿ.
        var pointPosition: Int {
            mantissaPoint + (exponentNegative ? -exponent : exponent)
        }

        mutating func write(_ string: String) {
            for byte in string.utf8 { consume(byte) }
        }

        /// The standard library's entry point for ASCII text (an underscored `TextOutputStream` requirement); its
        /// default implementation would build a String.
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            for byte in buffer { consume(byte) }
        }

        private mutating func consume(_ byte: UInt8) {
            guard byte.isASCIIDigit else {
                switch byte {
                case Byte.dot: part = .fraction
                case Byte.lowerE, Byte.upperE: part = .exponent
                case Byte.minus where part == .exponent: exponentNegative = true
                default: break  // the sign of the value and "+" of the exponent
                }
                return
            }
            let digit = Int(byte &- Byte.zero)
            switch part {
            case .exponent:
                exponent = exponent * 10 + digit
            case .integer, .fraction:
                if digitCount == 0 && digit == 0 {
                    // A leading zero: it moves the point only after the decimal point ("0.001").
                    if part == .fraction { mantissaPoint -= 1 }
                    return
                }
                if digitCount < 19 {
                    digits = digits * 10 + UInt64(digit)
                    digitCount += 1
                }
                if part == .integer { mantissaPoint += 1 }
            }
        }
    }
}
