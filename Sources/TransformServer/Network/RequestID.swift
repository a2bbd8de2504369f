// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// `X-Request-Id`: the client's when it is sane (1–128 visible ASCII characters without quotes or backslashes),
/// else a fresh one: 16 hex digits, unique within the process and unpredictable across processes.
enum RequestID {
    static func choose(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        {
            return given
        }
        return fresh()
    }

    /// A counter from a random start, scrambled by SplitMix64's finaliser (a bijection, so no two are equal):
    /// one atomic add instead of a `getrandom` system call per request.
    static func fresh() -> String {
        var z = seed &+ counter.add(1, ordering: .relaxed).oldValue &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for i in 0..<16 { buffer[i] = digits.utf8Start[Int(z >> UInt64(60 - 4 * i) & 0xF)] }
            return 16
        }
    }

    private static let seed = UInt64.random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)
}
