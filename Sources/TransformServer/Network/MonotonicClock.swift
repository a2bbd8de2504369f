// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic nanoseconds (`CLOCK_MONOTONIC`), as plain `UInt64`s: the connection state machine's deadlines, and
/// request durations. Not the standard library's `Clock` protocol, whose name this once shadowed.
enum MonotonicClock {
    /// `start + timeout`, or `UInt64.max` (never) when that is past the end of the clock.
    static func deadline(_ start: UInt64, after timeout: UInt64) -> UInt64 {
        let (sum, overflow) = start.addingReportingOverflow(timeout)
        return overflow ? .max : sum
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
