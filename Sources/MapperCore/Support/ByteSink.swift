// SPDX-License-Identifier: Apache-2.0

/// Where the writers of JSON text (strings, numbers, dates, whole values) append their bytes: a `[UInt8]`, or a
/// converter's `OutputBuffer`. The writers are generic over it, and specialised for each.
protocol ByteSink {
    var count: Int { get }
    mutating func append(_ byte: UInt8)
    /// Appends `bytes` with one capacity check and one copy.
    mutating func append(bytes: UnsafeRawBufferPointer)
    /// Appends `first` and then `second` with one capacity check (a key fragment and its value).
    mutating func append(bytes first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer)
    /// Appends `count` bytes that `body` writes into uninitialised memory (a number or a date filled in place).
    mutating func append(count: Int, writingWith body: (UnsafeMutableBufferPointer<UInt8>) -> Void)
    /// A copy of the bytes from `start` on (a message that quotes what was just written).
    func written(from start: Int) -> [UInt8]
}

extension ByteSink {
    /// Appends a literal's UTF-8 bytes.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(bytes: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes.
    @inline(__always)
    mutating func append(utf8 text: String) {
        text.withUTF8Bytes { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Appends a sequence of bytes: contiguous ones (an array, a slice, a buffer) with one copy.
    @inline(__always)
    mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        let copied: Void? = bytes.withContiguousStorageIfAvailable { append(bytes: UnsafeRawBufferPointer($0)) }
        guard copied == nil else { return }
        for byte in bytes { append(byte) }
    }

    /// Appends `range` of `source`.
    @inline(__always)
    mutating func append(_ source: [UInt8], range: Range<Int>) {
        source.withUnsafeBytes { append(bytes: UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    func written(from start: Int) -> [UInt8] { Array(self[start...]) }

    @inline(__always)
    mutating func append(count: Int, writingWith body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard count > 0 else { return }
        append(addingCapacity: count) { (span: inout OutputSpan<UInt8>) in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                body(UnsafeMutableBufferPointer(rebasing: buffer[..<count]))
                initialized = count
            }
        }
    }
}
