// SPDX-License-Identifier: Apache-2.0

import CSocket
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// One serial queue with the connections confined to it, one timer for all their deadlines, and one read buffer
/// they share (a connection keeps only the bytes it has not consumed yet).
///
/// Deadlines: the loop keeps each connection's next deadline beside it in a table indexed by descriptor, and
/// updates it after every event the connection handles (its start in `adopt`, `ready`, `tick`, `drain`, and the
/// work `run` brings back from workers). The timer reads that table and wakes only the connections whose
/// deadline has passed. Visiting every connection object on every tick cost a cache miss or more per connection:
/// with 10,000 idle connections each tick held the loop for milliseconds, and a fresh `/health` waited behind it.
///
/// Readiness: the loop's connections are watched by one epoll set, and one Dispatch read source on that set runs
/// `pollReady` on the queue whenever any of them is ready; it hands each ready connection its readiness. One
/// source per loop instead of one per connection: libdispatch re-arms a source through its manager thread after
/// every event (an eventfd write and a thread wake-up), and with one source that cost is shared by every
/// connection that became ready in the meantime.
final class EventLoop: @unchecked Sendable {
    /// Everything that touches this loop's connections runs here, and only through the loop's own methods
    /// (`adopt`, `run`, `beginDrain`, `closeAll`, the readiness source and the timer), each of which updates the
    /// deadline table after the event.
    private let queue: DispatchQueue
    /// Scratch space for `read`, used only on `queue`.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
    /// The open connections and their deadlines, indexed by descriptor (descriptors are small and reused, so the
    /// table is as long as the highest one this loop has served; another loop's descriptors leave empty slots).
    private var slots: [Slot] = []
    private struct Slot {
        var connection: Connection?
        var deadline = UInt64.max
    }
    /// Runs only while the loop has connections (`add` and `remove` start and stop it), so an idle server's
    /// loops do not wake up at all. It runs once at start, all the same: arming the first timer makes libdispatch
    /// create its timer descriptor, which must not wait until descriptors may have run out (every timer, the
    /// listener's retry after `EMFILE` included, would then never fire).
    private let timer: any DispatchSourceTimer
    private var timerRunning = true
    private var connectionCount = 0
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
        timer.setEventHandler { [unowned self] in checkDeadlines() }
        timer.resume()
        readiness.setEventHandler { [unowned self] in pollReady() }
        readiness.resume()
    }

    deinit {
        if !timerRunning { timer.resume() }  // a suspended source must not be released
        timer.cancel()
        readBuffer.deallocate()
        readyDescriptors.deallocate()
        readyFlags.deallocate()
    }

    /// Takes over an accepted descriptor: its connection starts on this loop's queue.
    func adopt(_ fd: Int32, server: Server) {
        queue.async { [self] in
            let connection = Connection(fd: fd, loop: self, server: server)
            connection.start()
            reschedule(connection)
        }
    }

    /// Must run on `queue`.
    func add(_ connection: Connection) {
        preconditionOnQueue()
        let index = Int(connection.fd)
        if index >= slots.count { slots.append(contentsOf: repeatElement(Slot(), count: index + 1 - slots.count)) }
        slots[index] = Slot(connection: connection)  // its deadline follows when `start` has run
        connectionCount += 1
        if !timerRunning {
            timerRunning = true
            timer.resume()
        }
    }

    /// Must run on `queue`.
    func remove(_ connection: Connection) {
        preconditionOnQueue()
        let index = Int(connection.fd)
        guard index < slots.count, slots[index].connection === connection else { return }
        slots[index] = Slot()
        connectionCount -= 1
        stopTimerWhenIdle()
    }

    /// Must run on `queue`, after `connection` handled an event: notes when it next needs a `tick`.
    func reschedule(_ connection: Connection) {
        preconditionOnQueue()
        let index = Int(connection.fd)
        if index < slots.count, slots[index].connection === connection { slots[index].deadline = connection.deadline }
    }

    /// Runs an event for `connection` on this loop's queue (an answer from a worker, a later turn), then notes its
    /// deadline as after every other event. The connection's own queue is this loop's.
    func run(_ connection: LoopBound<Connection>, _ event: @escaping @Sendable (Connection) -> Void) {
        queue.async { [self] in
            let connection = connection.value
            event(connection)
            reschedule(connection)
        }
    }

    /// Stops the process unless the caller runs on this loop's queue: the check behind each "must run on `queue`"
    /// here and in `Connection`, so loop confinement is verified and not only promised.
    func preconditionOnQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// The open connections, for a sweep over all of them.
    private var connections: [Connection] { slots.compactMap(\.connection) }

    /// Ticks the connections whose deadline has passed.
    private func checkDeadlines() {
        let now = MonotonicClock.now()
        #if DEBUG
            // The table may name a deadline earlier than a connection's own (a tick then finds nothing to do), never
            // a later one: that would be an event that changed the connection without `reschedule` after it.
            for slot in slots {
                if let connection = slot.connection {
                    assert(slot.deadline <= connection.deadline, "a connection changed without reschedule")
                }
            }
        #endif
        for index in slots.indices where slots[index].deadline <= now {
            guard let connection = slots[index].connection else { continue }
            connection.tick(now: now)
            reschedule(connection)
        }
        stopTimerWhenIdle()
    }

    private func stopTimerWhenIdle() {
        guard connectionCount == 0, timerRunning else { return }
        timerRunning = false
        timer.suspend()
    }

    /// Must run on `queue`: watches `fd` for input and/or output (`registered`: it is watched already); neither
    /// stops watching it. False when the kernel refuses (the connection should close).
    func watch(_ fd: Int32, registered: Bool, reading: Bool, writing: Bool) -> Bool {
        preconditionOnQueue()
        return csocket_epoll_watch(epoll, fd, registered ? 1 : 0, reading ? 1 : 0, writing ? 1 : 0) == 0
    }

    /// Hands every ready connection its readiness, in bounded rounds (the source fires again if more are ready).
    private func pollReady() {
        for _ in 0..<8 {
            let count = Int(
                csocket_epoll_ready(
                    epoll, readyDescriptors.baseAddress, readyFlags.baseAddress,
                    Int32(Self.readyCapacity)))
            guard count > 0 else { return }
            for i in 0..<count {
                let index = Int(readyDescriptors[i])
                guard index < slots.count, let connection = slots[index].connection else { continue }
                connection.ready(
                    readable: readyFlags[i] & UInt32(CSOCKET_READABLE) != 0,
                    writable: readyFlags[i] & UInt32(CSOCKET_WRITABLE) != 0)
                reschedule(connection)
            }
            if count < Self.readyCapacity { return }
        }
    }

    /// Idle connections close, the others finish their request (on this loop's queue, soon).
    func beginDrain() {
        queue.async { [self] in drain() }
    }

    private func drain() {
        let now = MonotonicClock.now()
        for connection in connections {
            connection.drain(now: now)
            reschedule(connection)
        }
    }

    /// Closes every connection (the grace period is over), waiting for this loop's queue; returns how many.
    func closeAll() -> Int {
        queue.sync {
            let open = connections
            for connection in open { connection.close() }
            return open.count
        }
    }
}
