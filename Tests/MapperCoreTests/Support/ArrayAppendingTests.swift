// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct ArrayAppendingTests {
    /// Every length from 0 to 40 (each branch of `copyBytes` and its edges), after a prefix of every length up to 9
    /// so that the target is unaligned too.
    @Test func appendsBytesOfEveryLength() {
        let source = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 7) }
        for prefix in 0..<10 {
            for count in 0...source.count {
                var out = [UInt8](repeating: 0xEE, count: prefix)
                source.withUnsafeBytes { out.append(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                #expect(
                    out == [UInt8](repeating: 0xEE, count: prefix) + source[0..<count],
                    "prefix \(prefix), count \(count)")
            }
        }
    }

    @Test func appendsLiteralsStringsRangesAndRepeats() {
        var out: [UInt8] = []
        out.append("a\u{e9}")
        out.append(utf8: "東京")
        out.append(Array("xyz".utf8), range: 1..<3)
        out.append(repeating: UInt8(ascii: "0"), count: 3)
        out.append(repeating: UInt8(ascii: "1"), count: 0)
        #expect(String(decoding: out, as: UTF8.self) == "a\u{e9}東京yz000")
        out.truncate(to: 3)
        #expect(String(decoding: out, as: UTF8.self) == "a\u{e9}")
        out.truncate(to: 10)  // longer than the array: nothing happens
        #expect(out.count == 3)
    }

    /// Every digit count and both signs, against Swift's own decimal text.
    @Test(arguments: [
        0, 7, 10, 99, 100, 200, 404, 1_337, 65_535, -1, -10, -999, Int.max, Int.min, Int.max - 1,
        Int.min + 1,
    ])
    func appendsDecimalIntegers(_ value: Int) {
        var out = Array("x".utf8)
        out.append(decimal: value)
        #expect(String(decoding: out, as: UTF8.self) == "x" + String(value))
    }
}
