// SPDX-License-Identifier: Apache-2.0

/// The outcome of reading a date from text or from a JSON number.
enum DateReading: Equatable, Sendable {
    /// A valid instant; `truncated` says that non-zero fraction digits beyond the microsecond were cut (toward the
    /// past), which the converter reports as `fraction_truncated`.
    case instant(Instant, truncated: Bool)
    /// The text is not in the format, a field is out of range, or the instant is outside the supported range
    /// (`invalid_date`).
    case invalid
}
