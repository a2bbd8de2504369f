// SPDX-License-Identifier: Apache-2.0

/// Byte appends for output buffers (public: the server writes its response heads and access log lines with them).
extension Array where Element == UInt8 {
    /// Appends `bytes` with one capacity check and one copy. `append(contentsOf:)` is generic over its source and
    /// costs about four times as much, which shows for the short fragments a conversion writes most (keys,
    /// numbers, literals).
    @inlinable @inline(__always)
    package mutating func append(bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count > 0 else { return }
        append(addingCapacity: count) { (span: inout OutputSpan<UInt8>) in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                copyBytes(to: UnsafeMutableRawPointer(buffer.baseAddress!), from: bytes.baseAddress!, count: count)
                initialized = count
            }
        }
    }

    /// Appends `first` and then `second` with one capacity check (a key fragment and its value).
    @inlinable @inline(__always)
    package mutating func append(bytes first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) {
        let count = first.count + second.count
        guard count > 0 else { return }
        append(addingCapacity: count) { (span: inout OutputSpan<UInt8>) in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                let target = UnsafeMutableRawPointer(buffer.baseAddress!)
                if let source = first.baseAddress { copyBytes(to: target, from: source, count: first.count) }
                if let source = second.baseAddress {
                    copyBytes(to: target + first.count, from: source, count: second.count)
                }
                initialized = count
            }
        }
    }

    /// Appends a literal's UTF-8 bytes (see `append(bytes:)`).
    @inlinable @inline(__always)
    package mutating func append(_ text: StaticString) {
        append(bytes: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes (see `append(bytes:)`).
    @inlinable @inline(__always)
    package mutating func append(utf8 text: String) {
        text.withUTF8Bytes { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Appends `value` in decimal (a status code, a length, a count) with one append and no `String`
    /// (`FloatFormatting.writeInteger`, the digits conversions write).
    package mutating func append(decimal value: Int) {
        FloatFormatting.writeInteger(Int128(value), into: &self)
    }

    /// Appends `range` of `source` (see `append(bytes:)`).
    @inline(__always)
    mutating func append(_ source: [UInt8], range: Range<Int>) {
        source.withUnsafeBytes { append(bytes: UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}

extension Array where Element: BitwiseCopyable {
    /// Appends `count` copies of `value` in one step (a frame of a converter's scratch stacks). The generic
    /// `append(contentsOf: repeatElement(…))` walks the repetition as a sequence.
    @inlinable @inline(__always)
    package mutating func append(repeating value: Element, count: Int) {
        guard count > 0 else { return }
        append(addingCapacity: count) { (span: inout OutputSpan<Element>) in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                buffer.baseAddress!.initialize(repeating: value, count: count)
                initialized = count
            }
        }
    }

    /// Drops every element from `count` on (a frame popped off a scratch stack).
    @inlinable @inline(__always)
    package mutating func truncate(to count: Int) {
        if count < self.count { removeLast(self.count - count) }
    }
}

/// Copies `count` bytes. Up to 16 bytes, the common length of keys and numbers, move as two overlapping words (or
/// half-words) without a call; longer runs go to `memcpy`.
@inlinable @inline(__always)
func copyBytes(to target: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count: Int) {
    switch count {
    case 8...16:
        let head = source.loadUnaligned(as: UInt64.self)
        let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        target.storeBytes(of: head, as: UInt64.self)
        target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
    case 4..<8:
        let head = source.loadUnaligned(as: UInt32.self)
        let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        target.storeBytes(of: head, as: UInt32.self)
        target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
    case 0..<4:
        for index in 0..<count {
            target.storeBytes(
                of: source.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self)
        }
    default:
        target.copyMemory(from: source, byteCount: count)
    }
}
