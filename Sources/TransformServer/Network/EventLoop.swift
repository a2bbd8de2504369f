// SPDX-License-Identifier: Apache-2.0

import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// One serial queue with the connections confined to it, one timer for all their deadlines, and one read buffer
/// they share (a connection keeps only the bytes it has not consumed yet).
final class EventLoop: @unchecked Sendable {
    let queue: DispatchQueue
    /// Scratch space for `read`, used only on `queue`.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
    private var connections: [ObjectIdentifier: Connection] = [:]
    private let timer: DispatchSourceTimer

    init(index: Int, tick: DispatchTimeInterval = .milliseconds(100)) {
        queue = DispatchQueue(label: "transform.loop.\(index)")
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + tick, repeating: tick, leeway: .milliseconds(20))
        timer.setEventHandler { [unowned self] in
            let now = Clock.now()
            for connection in connections.values { connection.tick(now: now) }
        }
        timer.resume()
    }

    deinit { readBuffer.deallocate() }

    /// Must run on `queue`.
    func add(_ connection: Connection) { connections[ObjectIdentifier(connection)] = connection }
    func remove(_ connection: Connection) { connections[ObjectIdentifier(connection)] = nil }
    var connectionCount: Int { connections.count }

    /// Must run on `queue`: idle connections close, the others finish their request.
    func drain() {
        let now = Clock.now()
        for connection in Array(connections.values) { connection.drain(now: now) }
    }

    /// Must run on `queue`: closes every connection (the grace period is over).
    func closeAll() -> Int {
        let open = Array(connections.values)
        for connection in open { connection.close() }
        return open.count
    }
}

/// Monotonic nanoseconds.
enum Clock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
