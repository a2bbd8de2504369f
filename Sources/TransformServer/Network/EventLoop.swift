// SPDX-License-Identifier: Apache-2.0

import CSocket
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// One serial queue with the connections confined to it, one timer for all their deadlines, and one read buffer
/// they share (a connection keeps only the bytes it has not consumed yet).
///
/// Readiness: the loop's connections are watched by one epoll set, and one Dispatch read source on that set runs
/// `pollReady` on the queue whenever any of them is ready; it hands each ready connection its readiness. One
/// source per loop instead of one per connection: libdispatch re-arms a source through its manager thread after
/// every event (an eventfd write and a thread wake-up), and with one source that cost is shared by every
/// connection that became ready in the meantime.
final class EventLoop: @unchecked Sendable {
    let queue: DispatchQueue
    /// Scratch space for `read`, used only on `queue`.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
    /// The open connections, by descriptor.
    private var connections: [Int32: Connection] = [:]
    private let timer: any DispatchSourceTimer
    private let epoll: Int32
    private let readiness: any DispatchSourceRead
    /// Scratch space for `pollReady`.
    private let readyDescriptors = UnsafeMutableBufferPointer<Int32>.allocate(capacity: EventLoop.readyCapacity)
    private let readyFlags = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: EventLoop.readyCapacity)
    private static let readyCapacity = 256

    init(index: Int, tick: DispatchTimeInterval = .milliseconds(100)) {
        queue = DispatchQueue(label: "transform.loop.\(index)")
        epoll = csocket_epoll_create()
        precondition(epoll >= 0, "epoll_create1 failed: errno \(errno)")
        readiness = DispatchSource.makeReadSource(fileDescriptor: epoll, queue: queue)
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + tick, repeating: tick, leeway: .milliseconds(20))
        timer.setEventHandler { [unowned self] in
            let now = Clock.now()
            for connection in connections.values { connection.tick(now: now) }
        }
        timer.resume()
        readiness.setEventHandler { [unowned self] in pollReady() }
        readiness.resume()
    }

    deinit {
        readBuffer.deallocate()
        readyDescriptors.deallocate()
        readyFlags.deallocate()
    }

    /// Must run on `queue`.
    func add(_ connection: Connection) { connections[connection.fd] = connection }
    func remove(_ connection: Connection) { connections[connection.fd] = nil }

    /// Must run on `queue`: watches `fd` for input and/or output (`registered`: it is watched already); neither
    /// stops watching it. False when the kernel refuses (the connection should close).
    func watch(_ fd: Int32, registered: Bool, reading: Bool, writing: Bool) -> Bool {
        csocket_epoll_watch(epoll, fd, registered ? 1 : 0, reading ? 1 : 0, writing ? 1 : 0) == 0
    }

    /// Hands every ready connection its readiness, in bounded rounds (the source fires again if more are ready).
    private func pollReady() {
        for _ in 0..<8 {
            let count = Int(csocket_epoll_ready(epoll, readyDescriptors.baseAddress, readyFlags.baseAddress,
                                                Int32(Self.readyCapacity)))
            guard count > 0 else { return }
            for i in 0..<count {
                connections[readyDescriptors[i]]?.ready(readable: readyFlags[i] & UInt32(CSOCKET_READABLE) != 0,
                                                        writable: readyFlags[i] & UInt32(CSOCKET_WRITABLE) != 0)
            }
            if count < Self.readyCapacity { return }
        }
    }

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
