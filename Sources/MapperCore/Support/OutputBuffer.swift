// SPDX-License-Identifier: Apache-2.0

/// The bytes a converter writes.
///
/// A class over memory it manages itself, like `FrameStack` and for the same reason: appending is a capacity
/// check and a copy, where an array first checks that its buffer is uniquely referenced, a runtime call on each
/// of the two thousand appends of a Weibo timeline. A buffer belongs to one converter, which hands its bytes on
/// as an array when it is done (`array`, one copy).
final class OutputBuffer: ByteSink {
    /// `capacity` bytes, of which the first `count` are written.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written, as an array.
    var array: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { buffer.baseAddress!.initialize(from: base, count: count) }
            initialized = count
        }
    }

    var isEmpty: Bool { count == 0 }

    /// Forgets the bytes, and makes room for at least `capacity` without growing (a pooled buffer's next use).
    func removeAll(reservingCapacity capacity: Int) {
        count = 0
        guard capacity > self.capacity else { return }
        base.deallocate()
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if capacity - count < extra { grow(count + extra) }
    }

    @inline(never)
    private func grow(_ needed: Int) {
        (base, capacity) = base.grown(keeping: count, capacity: capacity, toHold: needed)
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(bytes: UnsafeRawBufferPointer) {
        let length = bytes.count
        guard length > 0 else { return }
        reserve(length)
        copyBytes(to: UnsafeMutableRawPointer(base + count), from: bytes.baseAddress!, count: length)
        count += length
    }

    @inline(__always)
    func append(bytes first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) {
        let length = first.count + second.count
        reserve(length)
        let target = UnsafeMutableRawPointer(base + count)
        if let source = first.baseAddress { copyBytes(to: target, from: source, count: first.count) }
        if let source = second.baseAddress { copyBytes(to: target + first.count, from: source, count: second.count) }
        count += length
    }

    @inline(__always)
    func append(count length: Int, writingWith body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard length > 0 else { return }
        reserve(length)
        body(UnsafeMutableBufferPointer(start: base + count, count: length))
        count += length
    }

    /// Drops every byte from `count` on.
    @inline(__always)
    func truncate(to count: Int) {
        precondition(count >= 0 && count <= self.count, "OutputBuffer truncated past its end")
        self.count = count
    }

    func written(from start: Int) -> [UInt8] { Array(bytes(start..<count)) }

    /// The bytes in `range`, valid until the next change to the buffer.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "OutputBuffer range outside the bytes")
        return UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Replaces the bytes from `start` on with `bytes`.
    func replace(from start: Int, with bytes: [UInt8]) {
        truncate(to: start)
        bytes.withUnsafeBytes { append(bytes: $0) }
    }

    /// Inserts `bytes` before the byte at `index`, moving the rest up.
    func insert(_ bytes: [UInt8], at index: Int) {
        precondition(index >= 0 && index <= count, "OutputBuffer insertion outside the bytes")
        guard !bytes.isEmpty else { return }
        reserve(bytes.count)
        // `copyMemory` allows the two regions to overlap.
        UnsafeMutableRawPointer(base + index + bytes.count).copyMemory(from: base + index, byteCount: count - index)
        bytes.withUnsafeBytes {
            UnsafeMutableRawPointer(base + index).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
        }
        count += bytes.count
    }
}

/// Handed between threads through the converters' locked scratch pool, and with a batch part once its worker is
/// done; never used by two at once.
extension OutputBuffer: @unchecked Sendable {}
