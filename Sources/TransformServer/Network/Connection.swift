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
final class Connection {
    let fd: Int32
    unowned let loop: EventLoop
    let server: Server
    private var machine: ConnectionStateMachine
    /// What the loop watches the descriptor for, and whether it is in the loop's set at all.
    private var reading = true
    private var writing = false
    private var watched = false
    private var outbound = OutboundQueue()
    /// The answer whose bytes are being written: logged, counted and followed up once they are all out.
    private var afterFlush: Completion?
    private var lastWriteProgress: UInt64 = 0
    private var closed = false
    /// The request being answered: its id and start time, for logs and metrics.
    private var requestId = ""
    private var requestStart: UInt64 = 0
    /// The request routed when its head was decided: `handle` takes it, a stream keeps reading it.
    private var routed: RequestHandler.Request?
    /// A streamed NDJSON request in progress (its state lives on `streamQueue`, a worker queue, in order; its head
    /// is `routed`'s), and whether its response head is written.
    private var stream: StreamBox?
    private var streamQueue: DispatchQueue?
    /// Chunks handed to the worker and not yet written back; reading waits while there are any.
    private var streamJobs = 0
    private var streamHeadSent = false
    /// Reading paused because too much output is waiting to be written.
    private var pausedForOutput = false
    /// Closing after a last response: the write side is shut and input is discarded until this time (a lingering
    /// close, docs/operations.md).
    private var lingerUntil: UInt64?
    /// Bytes of the in-flight body budget this connection's request holds (`Server.reserveBody`).
    private var reservedBody = 0
    /// How many answers are on the stack right now (a pipelined request answered from inside the previous
    /// answer's completion); past `maxNestedAnswers` the next one starts on a fresh turn of the loop.
    private var nestedAnswers = 0
    private static let maxNestedAnswers = 8
    private static let maxPendingOutput = 1 << 20

    init(fd: Int32, loop: EventLoop, server: Server) {
        self.fd = fd
        self.loop = loop
        self.server = server
        machine = ConnectionStateMachine(limits: server.connectionLimits, now: Clock.now())
    }

    /// Must run on the loop's queue.
    func start() {
        loop.add(self)
        updateWatch()
        // Accepted after the drain sweep: treat it like every other idle connection.
        if server.context.isDraining { drain(now: Clock.now()) }
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
            let now = Clock.now()
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
    private func pauseReading() {
        guard reading, !closed else { return }
        reading = false
        updateWatch()
    }

    private func resumeReading() {
        guard !reading, !closed else { return }
        reading = true
        updateWatch()
    }

    // MARK: - Actions

    private func perform(_ actions: [ConnectionStateMachine.Action]) {
        for action in actions {
            guard !closed else { return }
            switch action {
            case .decide(let head):
                requestId = RequestID.choose(head.firstValue(of: "x-request-id"))
                var (decision, request) = server.handler.decide(head)
                if case .read(let limit) = decision, let refusal = reserve(head, limit: limit) {
                    (decision, request) = (.rejectNow(refusal), nil)
                }
                if decision == .stream, let request {
                    stream = server.handler.makeStream(request).map(StreamBox.init)
                    streamQueue = server.workers.queue()
                    streamHeadSent = false
                }
                routed = request
                perform(machine.decided(decision, now: Clock.now()))
            case .bodyChunk(let bytes):
                streamChunk(bytes)
            case .bodyEnd(let head, let isLast):
                streamEnd(head, isLast: isLast)
            case .sendContinue:
                enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                flush()
            case .handle(let head, let body, let isLast):
                handle(head, body: body, isLast: isLast)
            case .respond(let response, let head, let close):
                if requestId.isEmpty || head == nil { requestId = RequestID.choose(nil) }
                send(response, head: head, route: head == nil ? nil : routed?.route, close: close)
            case .close:
                close()
            }
        }
    }

    /// Takes a large announced body's bytes from the server's in-flight budget; the refusal when they do not fit
    /// (docs/operations.md, `maxInFlightBodyBytes`). Bodies over the limit (a 413) and small ones take nothing.
    private func reserve(_ head: HTTPRequestHead, limit: Int) -> HTTPResponse? {
        guard let length = head.contentLength, length > UInt64(server.inlineBodyLimit), length <= UInt64(limit)
        else { return nil }
        guard server.reserveBody(Int(length)) else { return Self.tooManyBodiesInFlight() }
        reservedBody = Int(length)
        return nil
    }

    /// A chunked body announces no length, so it takes from the in-flight budget as it arrives: once it holds more
    /// than 64 KiB, every byte it holds. False, taking nothing more, when the growth does not fit.
    private func reserveGrowth(to bytes: Int) -> Bool {
        guard bytes > server.inlineBodyLimit, bytes > reservedBody else { return true }
        guard server.reserveBody(bytes - reservedBody) else { return false }
        reservedBody = bytes
        return true
    }

    private static func tooManyBodiesInFlight() -> HTTPResponse {
        ErrorResponse.unavailable("too many large request bodies are in flight; retry later")
    }

    private func releaseReservedBody() {
        guard reservedBody > 0 else { return }
        server.releaseBody(reservedBody)
        reservedBody = 0
    }

    private func handle(_ head: HTTPRequestHead, body: ArraySlice<UInt8>, isLast: Bool) {
        // `.handle` follows only a successful decision. The routed request is handed over, not copied: from here
        // on its answer carries the route.
        guard let request = routed.take() else { return close() }
        let route = request.route
        // The last piece of a chunked body arrived with its end: it is counted here, before it is handed over.
        if head.chunked, !reserveGrowth(to: body.count) {
            return send(Self.tooManyBodiesInFlight(), head: head, route: route, close: true)
        }
        let id = requestId
        let handler = server.handler
        // A registry write through etcd waits for etcd's answer (longer while etcd elects a leader): never on this
        // loop, whose other connections keep being served (docs/cluster.md).
        let waitsOnStore = server.storeWrites != nil && SchemasEndpoint.isWrite(route, method: head.method)
        if body.count <= server.inlineBodyLimit, !waitsOnStore {
            answer(handler.handle(request, body: body, requestId: id), head: head, route: route, isLast: isLast)
        } else {
            // Large bodies convert on the worker pool so this loop's other connections (and /health) keep going;
            // the answer hops back to this connection's queue before it touches the connection. Reading waits.
            // A client that has gone (closed or reset) while the request waited for a worker gets no conversion: as
            // nginx does, its request ends as 499 and the connection closes.
            pauseReading()
            let connection = Unchecked(self)
            let routed = Unchecked(request)
            let (fd, reclaimer) = (fd, server.reclaimer)
            let queue = (waitsOnStore ? server.storeWrites : nil) ?? server.workers.queue()
            queue.async { [loop] in
                defer { reclaimer.released(body.count) }
                guard !Syscall.peerHasLeft(fd) else {
                    return loop.run(connection) { $0.abandon(head: head, route: route) }
                }
                let response = Unchecked(handler.handle(routed.value, body: body, requestId: id))
                loop.run(connection) { $0.answer(response.value, head: head, route: route, isLast: isLast) }
            }
        }
    }

    /// A request whose client left before it was converted: logged and counted as 499 (nginx's "client closed
    /// request"), nothing written, the connection closed.
    private func abandon(head: HTTPRequestHead, route: Route) {
        guard !closed else { return }
        server.requestCompleted(head: head, route: route, status: 499, bytes: 0, requestId: requestId,
                                started: requestStart)
        close()
    }

    /// The client has gone: a read or a write failed (a reset), or its input ended in the middle of a stream's body.
    /// A stream being answered ends there, converted no further, and its request is logged and counted as 499 like
    /// a large body whose client left (`abandon`); otherwise the connection just closes.
    private func clientLeft() {
        guard let request = routed, stream != nil || streamJobs > 0 else { return close() }
        abandon(head: request.head, route: request.route)
    }

    /// Sends the answer to a handled request, closing after it when the request, the answer or a drain says so.
    private func answer(_ response: consuming HTTPResponse, head: HTTPRequestHead, route: Route, isLast: Bool) {
        let close = isLast || !head.keepAlive || response.closesConnection || server.context.isDraining
        send(response, head: head, route: route, close: close)
    }

    // MARK: - Streams

    private func sendStreamHead() {
        guard !streamHeadSent, let stream, let head = routed?.head else { return }
        streamHeadSent = true
        var response = stream.value.head()
        response.headers.append(("X-Request-Id", requestId))
        var bytes: [UInt8] = []
        let http10 = head.versionMinor == 0
        HTTPResponseWriter.head(response, framing: http10 ? .closeDelimited : .chunked, closing: http10,
                                http10KeepAlive: false, into: &bytes)
        enqueue(bytes)
    }

    /// Converts a piece of the body on the stream's worker queue; its output comes back to this loop in order.
    private func streamChunk(_ bytes: [UInt8]) {
        guard let stream, let queue = streamQueue else { return }
        sendStreamHead()
        flush()
        streamJobs += 1
        pauseReading()
        let connection = Unchecked(self)
        queue.async { [loop, fd] in
            // A client that has gone gets nothing more converted. One that closed without a reset is reset by the
            // response head written before the first piece, so this finds it at the latest one piece later.
            guard !Syscall.peerHasReset(fd) else { return loop.run(connection) { $0.clientLeft() } }
            let output = stream.feed(bytes)
            loop.run(connection) { $0.streamFed(output) }
        }
    }

    private func streamFed(_ output: (bytes: [UInt8], endedEarly: Bool)) {
        streamJobs -= 1
        guard !closed else { return }
        enqueue(output.bytes)
        if output.endedEarly {
            // Strict mode's first failing line (or a corrupt gzip body) ended the stream; the rest of the body is
            // not read: the connection closes lingering (it shuts its write side and discards input for a while).
            machine.abandonBody()
            completeAfterFlush(head: routed?.head, route: routed?.route, status: 200, bytes: 0, closing: true)
        } else if streamJobs == 0 {
            resumeReading()
        }
        flush()
    }

    private func streamEnd(_ head: HTTPRequestHead, isLast: Bool) {
        guard let stream, let queue = streamQueue else { return }
        sendStreamHead()
        self.stream = nil
        streamJobs += 1
        let connection = Unchecked(self)
        queue.async { [loop] in
            let output = stream.finish()
            loop.run(connection) { $0.streamFinished(output, head: head, isLast: isLast) }
        }
    }

    private func streamFinished(_ output: [UInt8], head: HTTPRequestHead, isLast: Bool) {
        streamJobs -= 1
        guard !closed else { return }
        enqueue(output)
        let closing = isLast || !head.keepAlive || head.versionMinor == 0 || server.context.isDraining
        completeAfterFlush(head: head, route: routed?.route, status: 200, bytes: 0, closing: closing)
        flush()
    }

    /// Closes after a last response the way nginx does: shut the sending side (the client reads every byte
    /// written, then the end), then read and discard whatever the client still sends — pipelined requests, the
    /// rest of a body never read — until it closes too or `lingeringCloseMs` pass, and only then `close`. Closing
    /// with unread input at once makes the kernel send a reset, and a reset makes the client's kernel throw away
    /// response bytes it has received but not yet handed to the client.
    private func closeLingering() {
        guard server.lingeringClose > 0, shutdown(fd, Int32(SHUT_WR)) == 0 else { return close() }
        lingerUntil = Clock.deadline(Clock.now(), after: server.lingeringClose)
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

    private func send(_ response: consuming HTTPResponse, head: HTTPRequestHead?, route: Route?, close: Bool) {
        let rendered = server.render(response, head: head, requestId: requestId, close: close)
        enqueue(rendered.head, rendered.body)
        completeAfterFlush(head: head, route: route, status: rendered.status,
                           bytes: rendered.head.count + rendered.body.count, closing: rendered.closing)
        flush()
    }

    /// An answer waiting for its bytes to be written (plain values, not a closure: no allocation per request).
    private struct Completion {
        let head: HTTPRequestHead?
        let route: Route?
        let status: Int
        let bytes: Int
        let requestId: String
        let started: UInt64
        /// Close after it (lingering), or serve the next request.
        let closing: Bool
    }

    /// Arranges for `completed` to run once the pending output is written.
    private func completeAfterFlush(head: HTTPRequestHead?, route: Route?, status: Int, bytes: Int, closing: Bool) {
        afterFlush = Completion(head: head, route: route, status: status, bytes: bytes, requestId: requestId,
                                started: requestStart, closing: closing)
    }

    /// Once the answer is written: logs and counts the request, forgets its id and route (a next answer given
    /// from its head alone, such as 411, must not inherit them), then follows up.
    private func completed(_ answer: Completion) {
        server.requestCompleted(head: answer.head, route: answer.route, status: answer.status, bytes: answer.bytes,
                                requestId: answer.requestId, started: answer.started)
        releaseReservedBody()
        requestId = ""
        routed = nil
        next(closing: answer.closing)
    }

    /// After an answer: close (lingering), or start timing and serving the next request.
    private func next(closing: Bool) {
        if closing {
            closeLingering()
        } else {
            requestStart = Clock.now()
            responded()
        }
    }

    /// Moves on to the next request: at once, without a trip through the queue (the common case), unless
    /// answers are already nested; then on a fresh turn of the loop, so answering many pipelined requests does
    /// not recurse without bound (flush → after-flush → next request → flush … once overflowed the stack).
    private func responded() {
        guard nestedAnswers < Self.maxNestedAnswers else { return respondedLater() }
        nestedAnswers += 1
        defer { nestedAnswers -= 1 }
        perform(machine.responded(closed: false, now: Clock.now()))
        if !closed, !machine.isHandling { resumeReading() }
    }

    private func respondedLater() {
        loop.run(Unchecked(self)) { connection in
            if !connection.closed { connection.responded() }  // a fresh turn: nothing is nested any more
        }
    }

    // MARK: - Writing

    /// Queues bytes to write: one array, or a response's head and body as two (so the body is not copied).
    private func enqueue(_ bytes: [UInt8], _ more: [UInt8] = []) {
        outbound.append(bytes)
        outbound.append(more)
        lastWriteProgress = Clock.now()
    }

    private func flush() {
        while !outbound.isEmpty, !closed {
            let written: Int?
            do throws(SocketError) {
                written = try outbound.write { [fd] vectors throws(SocketError) in try Syscall.send(fd, vectors) }
            } catch {
                return clientLeft()
            }
            guard written != nil else { return waitForWritable() }
            lastWriteProgress = Clock.now()
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
        outbound.isEmpty ? .max : Clock.deadline(lastWriteProgress, after: server.writeTimeout)
    }

    func tick(now: UInt64) {
        guard !closed else { return }
        if let lingerUntil {
            if now >= lingerUntil { close() }
            return
        }
        let writeDeadline = writeDeadline
        if writeDeadline != .max, now >= writeDeadline {
            Log.event("write_timeout", ["requestId": requestId])
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
        perform(machine.drain(now: Clock.now()))
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

/// `X-Request-Id`: the client's when it is sane (1–128 visible ASCII characters without quotes or backslashes),
/// else a fresh one: 16 hex digits, unique within the process and unpredictable across processes.
enum RequestID {
    static func choose(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count),
           given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return given
        }
        return fresh()
    }

    /// A counter from a random start, scrambled by SplitMix64's finaliser (a bijection, so no two are equal):
    /// one atomic add instead of a `getrandom` system call per request.
    static func fresh() -> String {
        var z = seed &+ counter.add(1, ordering: .relaxed).oldValue &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for i in 0..<16 { buffer[i] = digits.utf8Start[Int(z >> UInt64(60 - 4 * i) & 0xF)] }
            return 16
        }
    }

    private static let seed = UInt64.random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)
}

/// Hands a value to another queue when the code guarantees it is used only back on its owner's queue
/// (a connection's closures hop to the worker pool and return to the connection's own loop).
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// An NDJSON stream's state, touched only on its worker queue (one queue per stream keeps the chunks in order).
final class StreamBox: @unchecked Sendable {
    private(set) var value: NDJSONStream
    private var ended = false

    init(_ stream: NDJSONStream) { value = stream }

    /// The framed output of one body piece, and whether the stream ended early with it.
    func feed(_ bytes: [UInt8]) -> (bytes: [UInt8], endedEarly: Bool) {
        guard !ended else { return ([], false) }
        var output = value.feed(bytes)
        if value.isFinished {
            output += value.end()
            ended = true
            return (output, true)
        }
        return (output, false)
    }

    /// The rest of the stream once the body is complete (nothing if it already ended).
    func finish() -> [UInt8] {
        guard !ended else { return [] }
        ended = true
        return value.finish()
    }
}
