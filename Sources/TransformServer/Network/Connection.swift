// SPDX-License-Identifier: Apache-2.0

import Dispatch
import MapperCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One client connection, confined to its event loop's queue: reads bytes, feeds the state machine, carries out
/// its actions, and writes responses. Its loop tells it when it is ready (`ready`); it watches for input unless
/// reading is paused, and for room to write only after a write would block.
///
/// Reading, writing and closing are here; answering requests is in `Connection+Requests.swift`, NDJSON streams in
/// `Connection+Streaming.swift`. State those extensions share is internal rather than private for that reason only:
/// nothing outside the connection touches it.
final class Connection {
    let fd: Int32
    unowned let loop: EventLoop
    let server: Server
    var machine: ConnectionStateMachine
    /// What the loop watches the descriptor for, and whether it is in the loop's set at all.
    private var reading = true
    private var writing = false
    private var watched = false
    private var outbound = OutboundQueue()
    /// The answer whose bytes are being written: logged, counted and followed up once they are all out.
    var afterFlush: Completion?
    private var lastWriteProgress: UInt64 = 0
    var closed = false
    /// The request being answered: its id and start time, for logs and metrics.
    var requestId = ""
    var requestStart: UInt64 = 0
    /// The request routed when its head was decided: `handle` takes it, a stream keeps reading it.
    var routed: RequestHandler.Request?
    /// A streamed NDJSON request in progress (its state lives on its box's worker queue, in order; its head is
    /// `routed`'s), and whether its response head is written.
    var stream: StreamBox?
    /// Chunks handed to the worker and not yet written back; reading waits while there are any.
    var streamJobs = 0
    var streamHeadSent = false
    /// Reading paused because too much output is waiting to be written.
    private var pausedForOutput = false
    /// Closing after a last response: the write side is shut and input is discarded until this time (a lingering
    /// close, docs/operations.md).
    private var lingerUntil: UInt64?
    /// Bytes of the in-flight body budget this connection's request holds (`Server.reserveBody`).
    var reservedBody = 0
    /// How many answers are on the stack right now (a pipelined request answered from inside the previous
    /// answer's completion); past `maxNestedAnswers` the next one starts on a fresh turn of the loop.
    var nestedAnswers = 0
    static let maxNestedAnswers = 8
    private static let maxPendingOutput = 1 << 20

    init(fd: Int32, loop: EventLoop, server: Server) {
        self.fd = fd
        self.loop = loop
        self.server = server
        machine = ConnectionStateMachine(limits: server.connectionLimits, now: MonotonicClock.now())
    }

    /// Must run on the loop's queue.
    func start() {
        loop.preconditionOnQueue()
        loop.add(self)
        updateWatch()
        // Accepted after the drain sweep: treat it like every other idle connection.
        if server.context.isDraining { drain(now: MonotonicClock.now()) }
    }

    /// Called by the loop: input (or a hang-up) to read, room to write.
    func ready(readable: Bool, writable: Bool) {
        if readable, reading { self.readable() }
        if writable, writing, !closed { flush() }
    }

    /// Tells the loop what to watch for, after `reading` or `writing` changed.
    private func updateWatch() {
        guard !closed else { return }
        let wanted = reading || writing
        guard loop.watch(fd, registered: watched, reading: reading, writing: writing) else { return close() }
        watched = wanted
    }

    // MARK: - Reading

    private func readable() {
        if lingerUntil != nil { return discardLingering() }
        for _ in 0..<16 {
            guard !closed, !machine.isHandling, streamJobs == 0 else { return pauseReading() }
            if outbound.count > Self.maxPendingOutput {
                pausedForOutput = true
                return pauseReading()
            }
            let count: Int?
            do throws(SocketError) {
                count = try Syscall.read(fd, into: loop.readBuffer)
            } catch {
                return clientLeft()
            }
            guard let count else { return }  // would block: wait for the next event
            if count == 0 {
                // In the middle of a stream's body, the end of the input is a client that gave up.
                if stream != nil { return clientLeft() }
                perform(machine.peerClosed())
                return
            }
            let now = MonotonicClock.now()
            if case .idle = machine.state { requestStart = now }
            perform(machine.received(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]), now: now))
            if !reserveGrowth(to: machine.chunkedBodyBytes) {
                return perform(machine.refuseBody(Self.tooManyBodiesInFlight()))
            }
            // A short read took everything there was; the loop's level-triggered watch reports any more, so there
            // is no need for one more read only to hear "would block".
            if count < loop.readBuffer.count { return }
        }
    }

    /// Stops watching for input (the descriptor leaves the loop's set unless a write is waiting, so a hang-up
    /// cannot be reported over and over while nothing reads).
    func pauseReading() {
        guard reading, !closed else { return }
        reading = false
        updateWatch()
    }

    func resumeReading() {
        guard !reading, !closed else { return }
        reading = true
        updateWatch()
    }

    // MARK: - Writing

    /// Queues bytes to write: one array, or a response's head and body as two (so the body is not copied).
    func enqueue(_ bytes: [UInt8], _ more: [UInt8] = []) {
        outbound.append(bytes)
        outbound.append(more)
        lastWriteProgress = MonotonicClock.now()
    }

    func flush() {
        while !outbound.isEmpty, !closed {
            let written: Int?
            do throws(SocketError) {
                written = try outbound.write { [fd] vectors throws(SocketError) in try Syscall.send(fd, vectors) }
            } catch {
                return clientLeft()
            }
            guard written != nil else { return waitForWritable() }
            lastWriteProgress = MonotonicClock.now()
        }
        guard !closed else { return }
        if pausedForOutput {
            pausedForOutput = false
            resumeReading()
        }
        if writing {
            writing = false
            updateWatch()
        }
        if let answer = afterFlush {
            afterFlush = nil
            completed(answer)
        }
        closeIfDrainedAndIdle()
    }

    private func waitForWritable() {
        guard !writing else { return }
        writing = true
        updateWatch()
    }

    /// Closes after a last response the way nginx does: shut the sending side (the client reads every byte
    /// written, then the end), then read and discard whatever the client still sends — pipelined requests, the
    /// rest of a body never read — until it closes too or `lingeringCloseMs` pass, and only then `close`. Closing
    /// with unread input at once makes the kernel send a reset, and a reset makes the client's kernel throw away
    /// response bytes it has received but not yet handed to the client.
    func closeLingering() {
        guard server.lingeringClose > 0, shutdown(fd, Int32(SHUT_WR)) == 0 else { return close() }
        lingerUntil = MonotonicClock.deadline(MonotonicClock.now(), after: server.lingeringClose)
        pausedForOutput = false
        resumeReading()
        discardLingering()
    }

    /// Reads and drops input while lingering, in bounded rounds like `readable` (the watch reports any more).
    private func discardLingering() {
        for _ in 0..<16 {
            let result: Int?
            do throws(SocketError) {
                result = try Syscall.read(fd, into: loop.readBuffer)
            } catch {
                return close()
            }
            guard let count = result else { return }
            if count == 0 { return close() }
        }
    }

    // MARK: - Time and lifecycle

    /// When this connection next needs a `tick`: its earliest timeout, `UInt64.max` when none runs. Its loop reads
    /// this after every event, so an event that starts a timeout (the first byte of a request, a blocked write)
    /// brings it forward in time.
    var deadline: UInt64 {
        if closed { return .max }
        if let lingerUntil { return lingerUntil }
        return min(machine.deadline, writeDeadline)
    }

    /// While output waits: when the write timeout falls unless a write makes progress first (`UInt64.max`, never,
    /// while nothing waits).
    private var writeDeadline: UInt64 {
        outbound.isEmpty ? .max : MonotonicClock.deadline(lastWriteProgress, after: server.writeTimeout)
    }

    func tick(now: UInt64) {
        guard !closed else { return }
        if let lingerUntil {
            if now >= lingerUntil { close() }
            return
        }
        let writeDeadline = writeDeadline
        if writeDeadline != .max, now >= writeDeadline {
            Log.event(.writeTimeout, ["requestId": requestId])
            return close()
        }
        perform(machine.tick(now: now))
    }

    /// Stops taking requests: a request being read or handled is still answered (then the connection closes); an
    /// idle one closes, see `closeIfDrainedAndIdle`.
    func drain(now: UInt64) {
        guard !closed else { return }
        machine.stopTakingRequests()
        closeIfDrainedAndIdle()
    }

    /// While draining, an idle connection closes once everything it wrote is out. First it reads what its socket
    /// already holds: a request that has arrived there gets its `503`, where closing on unread input would send a
    /// reset that destroys it (and the answers before it that the client has not read yet).
    private func closeIfDrainedAndIdle() {
        guard machine.draining, case .idle = machine.state, lingerUntil == nil, !closed else { return }
        if reading { readable() }
        guard !closed, outbound.isEmpty, case .idle = machine.state else { return }
        perform(machine.drain(now: MonotonicClock.now()))
    }

    /// Leaves the loop and closes the descriptor (closing also takes it out of the loop's epoll set).
    func close() {
        guard !closed else { return }
        closed = true
        releaseReservedBody()
        server.reclaimer.released(machine.inputCapacity)  // an aborted upload's buffer, freed with the connection
        loop.remove(self)
        Syscall.close(fd)
        server.connectionClosed()
    }
}

/// Confined to its loop's queue (`LoopBound` carries it through other queues and back): never shared.
@available(*, unavailable)
extension Connection: Sendable {}
