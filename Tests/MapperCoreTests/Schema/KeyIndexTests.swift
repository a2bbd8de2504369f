// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct KeyIndexTests {
    /// Keys of every length from 0 to 24, two past the length filter's last bit (63), and keys that agree on
    /// length, head and tail (the hash reads only those).
    static let keys: [[UInt8]] =
        ((0...24).map { $0 } + [64, 70]).map { Array(String(repeating: "k", count: $0).utf8) }
        + ["followers_url", "following_url", "prefix_A_middle_suffix", "prefix_B_middle_suffix", "ab", "ba"]
        .map { Array($0.utf8) }

    @Test func findsEveryKeyAfterEveryPreviousKey() {
        let index = KeyIndex(Self.keys)
        for (id, key) in Self.keys.enumerated() {
            key.withUnsafeBytes { key in
                #expect(index.id(of: key) == id)
                // In the schema's order, out of it (learning a hint each time), and after the last key.
                for previous in -1..<Self.keys.count { #expect(index.id(of: key, after: previous) == id) }
            }
        }
    }

    @Test func learnsTheOrderOfInputsThatDoNotFollowTheSchema() {
        let index = KeyIndex(Self.keys)
        func lookUp(_ text: String, after previous: Int) -> Int? {
            Array(text.utf8).withUnsafeBytes { index.id(of: $0, after: previous) }
        }
        let ab = Self.keys.firstIndex(of: Array("ab".utf8))!, ba = ab + 1, following = 28
        #expect(index.learnedSuccessor(of: -1) == nil)
        #expect(lookUp("ba", after: -1) == ba)  // out of order: hashed, and learned
        #expect(index.learnedSuccessor(of: -1) == ba)
        #expect(lookUp("following_url", after: ba) == following)
        #expect(index.learnedSuccessor(of: ba) == following)
        // In the schema's order nothing is learned: the next id is tried first.
        #expect(lookUp("ba", after: ab) == ba && index.learnedSuccessor(of: ab) == nil)
        // A hint that no longer fits costs a comparison, never a wrong id, and is replaced.
        #expect(lookUp("ab", after: -1) == ab)
        #expect(index.learnedSuccessor(of: -1) == ab)
        #expect(lookUp("ba", after: -1) == ba && lookUp("k", after: -1) == 1)
        // Unknown keys are refused whatever was learned, and teach nothing.
        #expect(lookUp("prefix_C_middle_suffix", after: -1) == nil)
        #expect(index.learnedSuccessor(of: -1) == 1)
    }

    @Test func refusesKeysItDoesNotHold() {
        let index = KeyIndex(Self.keys)
        let refused = [
            "k" + String(repeating: "k", count: 25), "prefix_C_middle_suffix", "followers_urL", "a", "K",
            String(repeating: "k", count: 80), String(repeating: "j", count: 70),
        ]
        for text in refused {
            Array(text.utf8).withUnsafeBytes { key in
                #expect(index.id(of: key) == nil, "\(text)")
                for previous in -1..<Self.keys.count { #expect(index.id(of: key, after: previous) == nil) }
            }
        }
    }

    /// One differing byte at every position of every length up to 40 is found, and equal buffers compare equal.
    @Test func memcmpEqualComparesEveryByte() {
        for count in 0...40 {
            let a = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            a.withUnsafeBytes { pa in
                a.withUnsafeBytes { pb in
                    #expect(
                        memcmpEqual(
                            pa.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!,
                            pb.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!, count))
                }
            }
            for position in 0..<count {
                var b = a
                b[position] ^= 0x40
                a.withUnsafeBytes { pa in
                    b.withUnsafeBytes { pb in
                        #expect(
                            !memcmpEqual(pa.baseAddress!, pb.baseAddress!, count), "count \(count), byte \(position)")
                    }
                }
            }
        }
    }
}
