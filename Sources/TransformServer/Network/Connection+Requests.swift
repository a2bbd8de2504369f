// SPDX-License-Identifier: Apache-2.0

import Dispatch
import MapperCore

extension Connection {
    func perform(_ actions: [ConnectionStateMachine.Action]) {
        for action in actions {
            guard !closed else { return }
            switch action {
            case .decide(let head):
                requestId = RequestID.choose(head.firstValue(of: HTTPHeader.Request.xRequestId))
                var (decision, request) = server.handler.decide(head)
                if case .read(let limit) = decision, let refusal = reserve(head, limit: limit) {
                    (decision, request) = (.rejectNow(refusal), nil)
                }
                if decision == .stream, let request {
                    stream = server.handler.makeStream(request).map { StreamBox($0, queue: server.workers.queue()) }
                    streamHeadSent = false
                }
                routed = request
                perform(machine.decided(decision, now: MonotonicClock.now()))
            case .bodyChunk(let bytes):
                streamChunk(bytes)
            case .bodyEnd(let head, let isLast):
                streamEnd(head, isLast: isLast)
            case .sendContinue:
                enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                flush()
            case .handle(let head, let body, let isLast):
                handle(head, body: body, isLast: isLast)
            case .fail(let error, let head, let close):
                if requestId.isEmpty || head == nil { requestId = RequestID.choose(nil) }
                send(error.response, head: head, route: head == nil ? nil : routed?.route, close: close)
            case .close:
                close()
            }
        }
    }

    /// Takes a large announced body's bytes from the server's in-flight budget; the refusal when they do not fit
    /// (docs/operations.md, `maxInFlightBodyBytes`). Bodies over the limit (a 413) and small ones take nothing.
    private func reserve(_ head: HTTPRequestHead, limit: BodyLimit) -> RequestError? {
        guard let length = head.contentLength, length > UInt64(server.inlineBodyLimit), length <= UInt64(limit.bytes)
        else { return nil }
        guard server.reserveBody(Int(length)) else { return Self.tooManyBodiesInFlight() }
        reservedBody = Int(length)
        return nil
    }

    /// A chunked body announces no length, so it takes from the in-flight budget as it arrives: once it holds more
    /// than 64 KiB, every byte it holds. False, taking nothing more, when the growth does not fit.
    func reserveGrowth(to bytes: Int) -> Bool {
        guard bytes > server.inlineBodyLimit, bytes > reservedBody else { return true }
        guard server.reserveBody(bytes - reservedBody) else { return false }
        reservedBody = bytes
        return true
    }

    static func tooManyBodiesInFlight() -> RequestError {
        .unavailable("too many large request bodies are in flight; retry later")
    }

    func releaseReservedBody() {
        guard reservedBody > 0 else { return }
        server.releaseBody(reservedBody)
        reservedBody = 0
    }

    func handle(_ head: HTTPRequestHead, body: ArraySlice<UInt8>, isLast: Bool) {
        // `.handle` follows only a successful decision. The routed request is handed over, not copied: from here
        // on its answer carries the route.
        guard let request = routed.take() else { return close() }
        let route = request.route
        // The last piece of a chunked body arrived with its end: it is counted here, before it is handed over.
        if head.chunked, !reserveGrowth(to: body.count) {
            return send(Self.tooManyBodiesInFlight().response, head: head, route: route, close: true)
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
            let connection = LoopBound(self, loop: loop)
            let routed = Handoff(request)
            let (fd, reclaimer) = (fd, server.reclaimer)
            let queue = (waitsOnStore ? server.storeWrites : nil) ?? server.workers.queue()
            queue.async { [loop] in
                defer { reclaimer.released(body.count) }
                guard !Syscall.peerHasLeft(fd) else {
                    return loop.run(connection) { $0.abandon(head: head, route: route) }
                }
                let response = handler.handle(routed.take(), body: body, requestId: id)
                loop.run(connection) { $0.answer(response, head: head, route: route, isLast: isLast) }
            }
        }
    }

    /// A request whose client left before it was converted: logged and counted as 499 (nginx's "client closed
    /// request"), nothing written, the connection closed.
    private func abandon(head: HTTPRequestHead, route: Route) {
        guard !closed else { return }
        server.requestCompleted(
            head: head, route: route, status: .clientClosedRequest, bytes: 0, requestId: requestId,
            started: requestStart)
        close()
    }

    /// The client has gone: a read or a write failed (a reset), or its input ended in the middle of a stream's body.
    /// A stream being answered ends there, converted no further, and its request is logged and counted as 499 like
    /// a large body whose client left (`abandon`); otherwise the connection just closes.
    func clientLeft() {
        guard let request = routed, stream != nil || streamJobs > 0 else { return close() }
        abandon(head: request.head, route: request.route)
    }

    /// Sends the answer to a handled request, closing after it when the request, the answer or a drain says so.
    func answer(_ response: consuming HTTPResponse, head: HTTPRequestHead, route: Route, isLast: Bool) {
        let close = isLast || !head.keepAlive || response.closesConnection || server.context.isDraining
        send(response, head: head, route: route, close: close)
    }

    func send(_ response: consuming HTTPResponse, head: HTTPRequestHead?, route: Route?, close: Bool) {
        let rendered = server.render(response, head: head, requestId: requestId, close: close)
        enqueue(rendered.head, rendered.body)
        completeAfterFlush(
            head: head, route: route, status: rendered.status,
            bytes: rendered.head.count + rendered.body.count, closing: rendered.closing)
        flush()
    }

    /// An answer waiting for its bytes to be written (plain values, not a closure: no allocation per request).
    struct Completion {
        let head: HTTPRequestHead?
        let route: Route?
        let status: HTTPStatus
        let bytes: Int
        let requestId: String
        let started: UInt64
        /// Close after it (lingering), or serve the next request.
        let closing: Bool
    }

    /// Arranges for `completed` to run once the pending output is written.
    func completeAfterFlush(head: HTTPRequestHead?, route: Route?, status: HTTPStatus, bytes: Int, closing: Bool) {
        afterFlush = Completion(
            head: head, route: route, status: status, bytes: bytes, requestId: requestId,
            started: requestStart, closing: closing)
    }

    /// Once the answer is written: logs and counts the request, forgets its id and route (a next answer given
    /// from its head alone, such as 411, must not inherit them), then follows up.
    func completed(_ answer: Completion) {
        server.requestCompleted(
            head: answer.head, route: answer.route, status: answer.status, bytes: answer.bytes,
            requestId: answer.requestId, started: answer.started)
        releaseReservedBody()
        requestId = ""
        routed = nil
        next(closing: answer.closing)
    }

    /// After an answer: close (lingering), or start timing and serving the next request.
    func next(closing: Bool) {
        if closing {
            closeLingering()
        } else {
            requestStart = MonotonicClock.now()
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
        perform(machine.responded(closed: false, now: MonotonicClock.now()))
        if !closed, !machine.isHandling { resumeReading() }
    }

    private func respondedLater() {
        loop.run(LoopBound(self, loop: loop)) { connection in
            if !connection.closed { connection.responded() }  // a fresh turn: nothing is nested any more
        }
    }
}
