// SPDX-License-Identifier: Apache-2.0

/// An integer type's range as the common-value path checks canonical integers (at most 18 digits) against it:
/// clamped to `Int64`, which is exact for them, and the digit counts that every positive or negative number of that
/// many digits fits, so that most numbers are settled by counting their digits rather than reading their value.
struct IntegerBounds: Sendable {
    let range: ClosedRange<Int64>
    /// The most digits such that every positive number with as many digits is in range (9 for `int32`).
    let positiveDigits: Int
    /// The same for negative numbers (0 for unsigned types).
    let negativeDigits: Int

    init(_ range: ClosedRange<Int128>) {
        self.range = Int64(clamping: range.lowerBound)...Int64(clamping: range.upperBound)
        // The most digits, up to 18, such that every number with as many has a magnitude of at most `limit`.
        func digits(upTo limit: Int128) -> Int {
            var count = 0
            var largest: Int128 = 9  // the largest number with one digit more than `count`
            while count < 18, largest <= limit {
                count += 1
                largest = largest * 10 + 9
            }
            return count
        }
        positiveDigits = digits(upTo: range.upperBound)
        negativeDigits = digits(upTo: -range.lowerBound)
    }
}
