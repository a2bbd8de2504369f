// SPDX-License-Identifier: Apache-2.0

extension Array where Element == UInt8 {
    /// Appends `bytes` with one capacity check and one copy. `append(contentsOf:)` is generic over its source and
    /// costs about four times as much, which shows for the short fragments a conversion writes most (keys,
    /// numbers, literals).
    @inline(__always)
    mutating func append(bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count > 0 else { return }
        append(addingCapacity: count) { (span: inout OutputSpan<UInt8>) in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: bytes.baseAddress!, byteCount: count)
                initialized = count
            }
        }
    }

    /// Appends `range` of `source` (see `append(bytes:)`).
    @inline(__always)
    mutating func append(_ source: [UInt8], range: Range<Int>) {
        source.withUnsafeBytes { append(bytes: UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}
