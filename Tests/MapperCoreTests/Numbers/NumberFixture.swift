// SPDX-License-Identifier: Apache-2.0

/// Shared fixtures for the number tests: text as raw bytes, and a deterministic pseudo-random sequence.
enum NumberFixture {
    /// Calls `body` with the UTF-8 bytes of `text`.
    static func withText<Result>(_ text: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        Array(text.utf8).withUnsafeBytes(body)
    }

    /// SplitMix64: the same sequence on every run and platform for a given seed.
    struct Random: RandomNumberGenerator {
        var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }
}
