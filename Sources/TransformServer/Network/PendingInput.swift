// SPDX-License-Identifier: Apache-2.0

/// The bytes a connection has received and not yet consumed, in one array whose consumed prefix is dropped lazily:
/// consuming a head or a chunk moves no bytes, and a whole body is handed over as a slice of the array itself. So a
/// body that arrives in one read (the loop reads up to 64 KiB at a time) is copied once, from the event loop's read
/// buffer into here; one that arrives over several reads is also moved when the array grows (amortised doubling).
///
///     storage: [ consumed … | unread … ]
///                            ▲ start
struct PendingInput {
    private var storage: [UInt8] = []
    private var start = 0

    /// Unread bytes.
    var count: Int { storage.count - start }
    /// Bytes held, consumed or not.
    var heldCount: Int { storage.count }
    /// Bytes allocated: what the connection's input costs in memory.
    var capacity: Int { storage.capacity }
    var isEmpty: Bool { start == storage.count }

    /// Appends received bytes. The consumed prefix is dropped first (moving the unread bytes to the front) unless
    /// `keepingPrefix`, which a body gathered in place asks for so that its first bytes are not moved again.
    mutating func append(_ bytes: UnsafeRawBufferPointer, keepingPrefix: Bool = false) {
        if start > 0, !keepingPrefix {
            storage.removeFirst(start)
            start = 0
        }
        storage.append(contentsOf: bytes)
    }

    /// Marks the next `count` unread bytes consumed; when nothing unread is left, the array is emptied (its
    /// capacity kept for the next request).
    mutating func consume(_ count: Int) {
        precondition(count <= self.count, "consumed more than was received")
        start += count
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        }
    }

    /// The next `count` unread bytes, consumed. They are a slice of the array, which is given away with them: the
    /// bytes after them, if any (a pipelined request), move to a new array.
    mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        precondition(count <= self.count, "took more than was received")
        guard count > 0 else { return [] }
        let end = start + count
        let taken = storage[start..<end]
        storage = end == storage.count ? [] : Array(storage[end...])
        start = 0
        return taken
    }

    /// A copy of the next `count` unread bytes, consumed (a piece of a streamed body).
    mutating func copy(_ count: Int) -> [UInt8] {
        let piece = Array(storage[start..<start + count])
        consume(count)
        return piece
    }

    /// True when the unread bytes are exactly CR LF.
    var isLineEnding: Bool {
        count == 2 && storage[start] == 13 && storage[start + 1] == 10
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }
}
