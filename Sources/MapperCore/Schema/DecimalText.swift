// SPDX-License-Identifier: Apache-2.0

/// Exact comparisons of JSON number texts (`-1.5e+3`, `18446744073709551615`), without converting them to a
/// binary type that would round: a bound written with twenty digits compares by all twenty.
enum DecimalText {
    /// Sign, significant digits without leading or trailing zeros, and the power of ten of the first digit.
    private struct Parsed {
        var negative: Bool
        var digits: [UInt8]
        var exponent: Int
    }

    private static func parse(_ text: String) -> Parsed? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var pointAt: Int?
        var exponent = 0
        while let byte = bytes.first {
            if byte.isASCIIDigit {
                digits.append(byte)
            } else if byte == UInt8(ascii: "."), pointAt == nil {
                pointAt = digits.count
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard
                    let value = Int(
                        String(decoding: bytes.dropFirst(), as: UTF8.self)
                            .replacingPlusSign()), abs(value) < 1_000_000
                else { return nil }
                exponent = value
                bytes = []
                break
            } else {
                return nil
            }
            bytes = bytes.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var integerDigits = pointAt ?? digits.count
        while digits.first == UInt8(ascii: "0") {
            digits.removeFirst()
            integerDigits -= 1
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.isEmpty { return Parsed(negative: false, digits: [], exponent: 0) }
        return Parsed(negative: negative, digits: digits, exponent: integerDigits + exponent)
    }

    /// -1, 0 or 1 as `a` is less than, equal to or greater than `b`; nil when either is not a number.
    static func compare(_ a: String, _ b: String) -> Int? {
        guard let x = parse(a), let y = parse(b) else { return nil }
        let magnitude = compareMagnitude(x, y)
        switch (x.digits.isEmpty ? 0 : x.negative ? -1 : 1, y.digits.isEmpty ? 0 : y.negative ? -1 : 1) {
        case let (sx, sy) where sx != sy: return sx < sy ? -1 : 1
        case (0, _): return 0
        case (-1, _): return -magnitude
        default: return magnitude
        }
    }

    private static func compareMagnitude(_ x: Parsed, _ y: Parsed) -> Int {
        if x.exponent != y.exponent { return x.exponent < y.exponent ? -1 : 1 }
        for i in 0..<max(x.digits.count, y.digits.count) {
            let a = i < x.digits.count ? x.digits[i] : UInt8(ascii: "0")
            let b = i < y.digits.count ? y.digits[i] : UInt8(ascii: "0")
            if a != b { return a < b ? -1 : 1 }
        }
        return 0
    }

    /// Whether the number is integral (`1`, `1.0`, `1e3`; JSON Schema's `integer`).
    static func isIntegral(_ text: String) -> Bool {
        guard let x = parse(text) else { return false }
        return x.digits.count <= x.exponent || x.digits.isEmpty
    }
}

extension String {
    /// `+12` → `12` (Int's initialiser takes a sign, but be explicit about exponents written `e+12`).
    fileprivate func replacingPlusSign() -> String { hasPrefix("+") ? String(dropFirst()) : self }
}
