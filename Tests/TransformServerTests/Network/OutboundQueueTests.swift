// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

#if canImport(Glibc)
    import Glibc
#endif

/// Queued output goes out in order, however little each send takes, at most `maxVectors` arrays per send.
@Suite struct OutboundQueueTests {
    /// A send that takes at most `limit` bytes of what it is given and records them.
    struct Sink {
        var received: [UInt8] = []
        var vectorsPerSend: [Int] = []

        mutating func send(_ vectors: UnsafeMutableBufferPointer<iovec>, limit: Int) -> Int {
            vectorsPerSend.append(vectors.count)
            var taken = 0
            for vector in vectors where taken < limit {
                let bytes = UnsafeRawBufferPointer(start: vector.iov_base, count: vector.iov_len)
                let part = bytes.prefix(limit - taken)
                received += part
                taken += part.count
            }
            return taken
        }
    }

    static func drain(_ queue: inout OutboundQueue, into sink: inout Sink, limit: Int) throws {
        while !queue.isEmpty {
            let before = queue.count
            let written = try #require(try queue.write { vectors in sink.send(vectors, limit: limit) })
            #expect(written > 0 && written <= limit)
            #expect(queue.count == before - written)
        }
    }

    @Test(arguments: [1, 3, 7, 1_000])
    func bytesGoOutInOrderWhateverEachSendTakes(limit: Int) throws {
        var queue = OutboundQueue()
        let parts: [[UInt8]] = [Array("HTTP/1.1 200 OK\r\n\r\n".utf8), [], Array("{\"a\":1}".utf8), Array("xyz".utf8)]
        for part in parts { queue.append(part) }
        #expect(queue.count == parts.reduce(0) { $0 + $1.count }, "an empty array queues nothing")
        var sink = Sink()
        try Self.drain(&queue, into: &sink, limit: limit)
        #expect(sink.received == parts.flatMap { $0 })
        #expect(queue.isEmpty)
    }

    @Test func oneSendGathersAtMostMaxVectorsArrays() throws {
        var queue = OutboundQueue()
        let parts = (0..<(OutboundQueue.maxVectors + 3)).map { [UInt8(truncatingIfNeeded: $0), 0x20] }
        for part in parts { queue.append(part) }
        var sink = Sink()
        try Self.drain(&queue, into: &sink, limit: .max)
        #expect(sink.vectorsPerSend == [OutboundQueue.maxVectors, 3])
        #expect(sink.received == parts.flatMap { $0 })
    }

    @Test func aQueueThatNeverEmptiesDropsItsWrittenArrays() throws {
        var queue = OutboundQueue()
        queue.append([0, 0])
        var sink = Sink()
        for piece in 1...200 {
            queue.append([UInt8(truncatingIfNeeded: piece), 0])  // a stream's next piece, before the last is out
            #expect(try queue.write { vectors in sink.send(vectors, limit: 2) } == 2)
            #expect(queue.count == 2)
        }
        #expect(queue.heldArrays <= 2 * OutboundQueue.maxVectors + 1, "written arrays do not pile up")
        try Self.drain(&queue, into: &sink, limit: .max)
        #expect(sink.received == [0, 0] + (1...200).flatMap { [UInt8(truncatingIfNeeded: $0), 0] })
    }

    @Test func wouldBlockWritesNothing() throws {
        var queue = OutboundQueue()
        queue.append([1, 2, 3])
        #expect(try queue.write { _ in nil } == nil)
        #expect(queue.count == 3)
        var sink = Sink()
        try Self.drain(&queue, into: &sink, limit: 2)
        #expect(sink.received == [1, 2, 3])
    }

    @Test func aFailedSendThrowsAndKeepsTheBytes() {
        var queue = OutboundQueue()
        queue.append([1, 2, 3])
        #expect(throws: SocketError.self) {
            try queue.write { _ throws(SocketError) in throw SocketError(operation: "sendmsg", errno: EPIPE) }
        }
        #expect(queue.count == 3)
    }

    @Test func aRealSocketReceivesEveryByteOfAQueueLargerThanItsBuffer() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK) == 0)
        Syscall.setOption(fds[0], SOL_SOCKET, SO_SNDBUF, 8_192)
        let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var queue = OutboundQueue()
        queue.append(Array("head\r\n\r\n".utf8))
        queue.append(body)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var blocked = 0
        for _ in 0..<10_000 where !queue.isEmpty {
            // Read only when the socket is full, so every full buffer leaves a send cut short to resume.
            guard try queue.write({ vectors throws(SocketError) in try Syscall.send(fds[0], vectors) }) == nil else {
                continue
            }
            blocked += 1
            let count = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { received += buffer[0..<count] }
        }
        while received.count < body.count + 8 {
            let count = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        #expect(queue.isEmpty)
        #expect(blocked > 0, "the socket buffer filled at least once, so a partial send was resumed")
        #expect(received == Array("head\r\n\r\n".utf8) + body)
    }
}
