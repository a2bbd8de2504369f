// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// `OutputBuffer` against `[UInt8]`: the same writes, through `ByteSink`, must give the same bytes, whatever the
/// capacity the buffer starts with (so every write also meets growth).
struct OutputBufferTests {
    /// A mixed series of writes, applied to any sink.
    private static func write(_ out: inout some ByteSink, seed: Int) {
        let source = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ seed) }
        source.withUnsafeBytes { source in
            for count in 0...source.count {
                out.append(UInt8(truncatingIfNeeded: count))
                out.append(bytes: UnsafeRawBufferPointer(rebasing: source[0..<count]))
                out.append(
                    bytes: UnsafeRawBufferPointer(rebasing: source[count...]),
                    UnsafeRawBufferPointer(rebasing: source[0..<(count / 2)]))
                out.append(count: count % 7) { buffer in
                    for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &+ count) }
                }
            }
        }
        out.append("a\u{e9}")
        out.append(utf8: "東京")
        out.append(contentsOf: source[3..<9])
        out.append(contentsOf: (0..<5).lazy.map { UInt8($0) })  // a sequence without contiguous storage
        out.append(source, range: 10..<20)
        FloatFormatting.writeInteger(-1_234_567, into: &out)
        DateFormatting.writeISO8601(Instant(microseconds: 1_441_296_741_500_000), into: &out)
        JSONStrings.writeQuoted(Array("tab\tquote\"".utf8), into: &out)
    }

    /// From the smallest capacity (16, what any smaller request gets), through ones the writes outgrow once or
    /// more, to one they never fill.
    @Test(arguments: [16, 100, 1_000, 100_000])
    func writesWhatAnArrayWrites(capacity: Int) {
        var array: [UInt8] = []
        Self.write(&array, seed: 7)
        var buffer = OutputBuffer(capacity: capacity)
        Self.write(&buffer, seed: 7)
        #expect(array.count > 1_000 && array.count < 100_000, "the writes outgrow every capacity but the last")
        if capacity < array.count {
            #expect(buffer.capacity >= array.count, "grown")
        } else {
            #expect(buffer.capacity == capacity, "never grown")
        }
        #expect(buffer.count == array.count)
        #expect(buffer.array == array)
        #expect(buffer.written(from: 100) == Array(array[100...]))
        #expect(Array(buffer.bytes(5..<50)) == Array(array[5..<50]))
    }

    @Test func truncatesReplacesAndInserts() {
        // (a `var`: `append(contentsOf:)` is a `ByteSink` extension, `mutating`)
        var buffer = OutputBuffer(capacity: 16)
        buffer.append(contentsOf: Array("hello world, all".utf8))
        #expect(buffer.count == 16 && buffer.capacity == 16)
        buffer.insert(Array(">> ".utf8), at: 0)  // moves every byte up, growing the buffer
        #expect(buffer.capacity > 16)
        #expect(buffer.array == Array(">> hello world, all".utf8))
        buffer.truncate(to: 8)
        #expect(buffer.array == Array(">> hello".utf8))
        buffer.replace(from: 0, with: [])
        buffer.append(contentsOf: Array("hello".utf8))
        buffer.insert(Array("oh, ".utf8), at: 0)
        #expect(buffer.array == Array("oh, hello".utf8))
        buffer.insert(Array("!".utf8), at: buffer.count)
        buffer.insert([], at: 2)
        #expect(buffer.array == Array("oh, hello!".utf8))
        buffer.replace(from: 4, with: Array("there".utf8))
        #expect(buffer.array == Array("oh, there".utf8))
        buffer.truncate(to: 0)
        #expect(buffer.isEmpty && buffer.array == [])
    }

    /// A pooled buffer's next use: empty, with at least the room asked for, and as good as new.
    @Test func startsOverWithRoomForTheNextUse() {
        var buffer = OutputBuffer(capacity: 16)
        buffer.append(contentsOf: Array(repeating: UInt8(ascii: "x"), count: 100))
        let grown = buffer.capacity
        buffer.removeAll(reservingCapacity: 10)
        #expect(buffer.isEmpty && buffer.capacity == grown)
        buffer.removeAll(reservingCapacity: grown * 4)
        #expect(buffer.isEmpty && buffer.capacity >= grown * 4)
        buffer.append(contentsOf: Array("abc".utf8))
        #expect(buffer.array == Array("abc".utf8))
    }
}
