// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// What a connection still has to write: arrays queued as they are, written together with one gathering send. A
/// response's head and body are two entries, so a body (1.5 MB for a batch of 1,000 users) is never copied behind
/// its head; stream pieces queue up the same way.
struct OutboundQueue {
    /// The most arrays one send takes; the rest wait for the next.
    static let maxVectors = 8

    private var chunks: [[UInt8]] = []
    /// Index of the first chunk not fully written, and bytes of it already written.
    private var first = 0
    private var offset = 0
    /// Bytes not yet written.
    private(set) var count = 0
    /// Arrays held, written or not.
    var heldArrays: Int { chunks.count }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(bytes)
        count += bytes.count
    }

    /// Hands the unwritten bytes of up to `maxVectors` chunks to `send` as `iovec`s, then drops what it reports
    /// written. Returns that count, or nil when `send` would block.
    mutating func write(
        _ send: (UnsafeMutableBufferPointer<iovec>) throws(SocketError) -> Int?
    ) throws(SocketError) -> Int? {
        let used = min(chunks.count - first, Self.maxVectors)
        let sent = try withUnsafeTemporaryAllocation(of: iovec.self, capacity: used) { vectors in
            gather(first, into: vectors, filled: 0) { vectors in Result { () throws(SocketError) in try send(vectors) }
            }
        }.get()
        if let sent { consume(sent) }
        return sent
    }

    /// Fills `vectors[filled...]` from `chunks[index...]`, each inside its own array's `withUnsafeBytes` (so every
    /// pointer is valid while `send` runs), then sends. The recursion is at most `maxVectors` deep.
    private func gather(
        _ index: Int, into vectors: UnsafeMutableBufferPointer<iovec>, filled: Int,
        _ send: (UnsafeMutableBufferPointer<iovec>) -> Result<Int?, SocketError>
    ) -> Result<Int?, SocketError> {
        guard filled < vectors.count else { return send(vectors) }
        let skip = index == first ? offset : 0
        return chunks[index].withUnsafeBytes { bytes in
            vectors[filled] = iovec(
                iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + skip),
                iov_len: bytes.count - skip)
            return gather(index + 1, into: vectors, filled: filled + 1, send)
        }
    }

    /// Marks `written` bytes written: whole chunks are dropped, and once all are, the array keeps its capacity.
    private mutating func consume(_ written: Int) {
        precondition(written <= count, "wrote more than was queued")
        count -= written
        var left = written
        while left > 0 {
            let rest = chunks[first].count - offset
            guard left >= rest else {
                offset += left
                return
            }
            left -= rest
            chunks[first] = []  // release the written bytes now, not when the queue empties
            first += 1
            offset = 0
        }
        if count == 0 {
            chunks.removeAll(keepingCapacity: true)
            first = 0
        } else if first >= Self.maxVectors, 2 * first >= chunks.count {
            // A stream read as fast as it is written never empties the queue: drop the written entries here.
            chunks.removeFirst(first)
            first = 0
        }
    }
}
