// SPDX-License-Identifier: Apache-2.0

/// One connection's HTTP/1.1 logic as a pure state machine: bytes, decisions, responses and clock ticks go in;
/// actions come out, and `Connection` merely carries them out. Tests drive it without sockets.
///
///     idle ──bytes──▶ readingHead ──head──▶ awaitingDecision ──decided──▶ readingBody ──body──▶ handling
///       ▲                                                                                        │
///       └──────────────────────────── responded (keep-alive) ◀───────────────────────────────────┘
///
/// Requests are answered in order: while one is being handled, further bytes stay buffered (pipelining), and the
/// next head is parsed once the response is written. Times are monotonic nanoseconds.
struct ConnectionStateMachine {
    struct Limits: Equatable {
        var parser = HTTPRequestParser.Limits()
        var headerTimeout: UInt64 = 10_000_000_000
        var bodyTimeout: UInt64 = 10_000_000_000
        var keepAliveTimeout: UInt64 = 75_000_000_000
        var maxRequestsPerConnection = 10_000
        /// `maxConnectionAgeMs` in nanoseconds; 0 never ends a connection for its age.
        var maxConnectionAge: UInt64 = 0
        /// The body limit (`maxBodyBytes`): a refused request's body past it is not read to its end.
        var maxBodyBytes = 8 << 20

        /// `maxBodyBytes` as the limit of a refused request's body.
        var bodyLimit: BodyLimit { BodyLimit(bytes: maxBodyBytes) }
    }

    enum Action: Equatable {
        /// Ask the server for a `RequestDecision` about this head (answer with `decided`).
        case decide(HTTPRequestHead)
        /// A whole request to handle (answer with `responded` once its response is written).
        case handle(HTTPRequestHead, body: ArraySlice<UInt8>, isLast: Bool)
        /// Write `100 Continue`.
        case sendContinue
        /// Answer with this error; then close when `close`.
        case fail(RequestError, head: HTTPRequestHead?, close: Bool)
        /// Close without writing anything.
        case close
        /// The next piece of a streamed body.
        case bodyChunk([UInt8])
        /// The streamed body is complete; answer with `responded` once the stream's end is written.
        case bodyEnd(HTTPRequestHead, isLast: Bool)
    }

    enum State: Equatable {
        case idle(since: UInt64)
        case readingHead(since: UInt64)
        case awaitingDecision(HTTPRequestHead)
        case readingBody(HTTPRequestHead, limit: BodyLimit, discard: RequestError?, lastActivity: UInt64)
        case streamingBody(HTTPRequestHead, lastActivity: UInt64)
        case handling(HTTPRequestHead)
        case closed
    }

    private(set) var state: State
    private var buffer = PendingInput()
    /// A chunked body, decoded (a Content-Length body is gathered in `buffer` and handed over from there).
    private var body: [UInt8] = []
    private var chunked: HTTPRequestParser.ChunkedDecoder
    private(set) var requestsStarted = 0
    private(set) var draining = false
    /// When the connection was accepted (the machine's creation).
    private let openedAt: UInt64
    /// The request being read started at or after `openedAt + maxConnectionAge`: its response is the last.
    private var agedOut = false
    let limits: Limits
    private var parser: HTTPRequestParser

    init(limits: Limits, now: UInt64) {
        self.limits = limits
        parser = HTTPRequestParser(limits: limits.parser)
        chunked = HTTPRequestParser.ChunkedDecoder(limits: limits.parser)
        state = .idle(since: now)
        openedAt = now
    }

    var isClosed: Bool { state == .closed }
    /// The request being read is the connection's last: the per-connection limit or age is reached, or the server
    /// drains.
    private var isLastRequest: Bool { requestsStarted >= limits.maxRequestsPerConnection || agedOut || draining }
    /// Bytes allocated for input not yet handed over (a chunked body's decoded bytes included).
    var inputCapacity: Int { buffer.capacity + body.capacity }
    /// True while a request is handled: the connection stops reading until it is answered.
    var isHandling: Bool { if case .handling = state { return true } else { return false } }

    // MARK: - Events

    mutating func received(_ bytes: UnsafeRawBufferPointer, now: UInt64) -> [Action] {
        guard state != .closed else { return [] }
        switch state {
        case .readingBody(let head, let limit, let discard, _):
            buffer.append(bytes, keepingPrefix: Self.gathersInPlace(head, discard: discard))
            state = .readingBody(head, limit: limit, discard: discard, lastActivity: now)
        case .streamingBody(let head, _):
            buffer.append(bytes)
            state = .streamingBody(head, lastActivity: now)
        default:
            buffer.append(bytes)
        }
        return process(now: now)
    }

    mutating func decided(_ decision: RequestDecision, now: UInt64) -> [Action] {
        guard case .awaitingDecision(let head) = state else { return [] }
        let hasBody = head.chunked || (head.contentLength ?? 0) > 0
        switch decision {
        case .rejectNow(let error):
            state = .closed
            return [.fail(error, head: head, close: true)]
        case .reject(let error):
            // docs/api.md, "Status codes and the order of checks": the body limit is a framing check, before every
            // check of the head: a body announced over it is a 413 at once (a 9 MiB body to a 415 route, a
            // Content-Length of 2^63 to a 404), never read.
            if let tooLarge = limits.bodyLimit.check(contentLength: head.contentLength) {
                state = .closed
                return [.fail(tooLarge, head: head, close: true)]
            }
            // A body that is refused anyway is not waited for when the client waits for `100 Continue`.
            if head.expectContinue && hasBody {
                state = .closed
                return [.fail(error, head: head, close: true)]
            }
            startBody(head, limit: limits.bodyLimit, discard: error, now: now)
            return process(now: now)
        case .stream:
            body.removeAll(keepingCapacity: true)
            chunked = HTTPRequestParser.ChunkedDecoder(limits: limits.parser)
            streamed = 0
            state = .streamingBody(head, lastActivity: now)
            return continuing(head.expectContinue && hasBody, process(now: now))
        case .read(let limit):
            // docs/api.md, "Status codes and the order of checks": a body over the limit is a 413 answered without
            // waiting for it.
            if let tooLarge = limit.check(contentLength: head.contentLength) {
                state = .closed
                return [.fail(tooLarge, head: head, close: true)]
            }
            startBody(head, limit: limit, discard: nil, now: now)
            return continuing(head.expectContinue && hasBody, process(now: now))
        }
    }

    /// `actions`, after `.sendContinue` when the client waits for one (RFC 9110 §10.1.1): without it, the array as
    /// it is (no second array per request).
    private func continuing(_ sendsContinue: Bool, _ actions: [Action]) -> [Action] {
        sendsContinue ? [.sendContinue] + actions : actions
    }

    /// The response of the request being handled was written; `closed` when it said to close.
    mutating func responded(closed: Bool, now: UInt64) -> [Action] {
        guard !closed, state != .closed else {
            state = .closed
            return []
        }
        state = .idle(since: now)
        return process(now: now)
    }

    mutating func peerClosed() -> [Action] {
        state = .closed
        return [.close]
    }

    /// Stop taking new requests: idle connections close; a request whose head has arrived is still answered.
    mutating func drain(now: UInt64) -> [Action] {
        stopTakingRequests()
        if case .idle = state, buffer.isEmpty {
            state = .closed
            return [.close]
        }
        return []
    }

    /// Marks the drain without closing: the next request head is answered `503` (see `drain`).
    mutating func stopTakingRequests() {
        draining = true
    }

    /// When the current state times out (the timeouts of docs/api.md, "Limits"): from then on `tick` acts. `UInt64.max`
    /// while none runs (a request being decided or handled) or when it would fall past the end of the clock: it never
    /// falls then. (A `tick` with `now` before the state began does nothing; the subtraction this replaced wrapped
    /// around and fired at once.)
    var deadline: UInt64 {
        switch state {
        case .idle(let since): return MonotonicClock.deadline(since, after: limits.keepAliveTimeout)
        case .readingHead(let since): return MonotonicClock.deadline(since, after: limits.headerTimeout)
        case .readingBody(_, _, _, let last), .streamingBody(_, let last):
            return MonotonicClock.deadline(last, after: limits.bodyTimeout)
        case .awaitingDecision, .handling, .closed: return .max
        }
    }

    /// Checks the timeouts of docs/api.md, "Limits".
    mutating func tick(now: UInt64) -> [Action] {
        let deadline = deadline
        guard deadline != .max, now >= deadline else { return [] }
        switch state {
        case .idle:
            state = .closed
            return [.close]  // an idle connection with no partial request closes silently
        case .readingHead:
            state = .closed
            return [.fail(.requestTimeout, head: nil, close: true)]
        case .readingBody(let head, _, _, _):
            state = .closed
            return [.fail(.requestTimeout, head: head, close: true)]
        case .streamingBody:
            state = .closed
            return [.close]  // the stream's head is already written: all that is left is to close
        case .awaitingDecision, .handling, .closed:
            return []
        }
    }

    // MARK: - Parsing

    /// A Content-Length body that will be handed over is gathered in `buffer` until it is whole (no copy of its
    /// own; nothing is reserved for it ahead, so an announced body costs memory only as it arrives); a chunked
    /// body is decoded into `body`, and a discarded one is dropped as it arrives.
    private static func gathersInPlace(_ head: HTTPRequestHead, discard: RequestError?) -> Bool {
        !head.chunked && discard == nil
    }

    private mutating func startBody(_ head: HTTPRequestHead, limit: BodyLimit, discard: RequestError?, now: UInt64) {
        body.removeAll(keepingCapacity: true)
        discardedLength = 0
        chunked = HTTPRequestParser.ChunkedDecoder(limits: limits.parser)
        state = .readingBody(head, limit: limit, discard: discard, lastActivity: now)
    }

    private mutating func process(now: UInt64) -> [Action] {
        switch state {
        case .idle, .readingHead:
            guard !buffer.isEmpty else { return [] }
            // RFC 9112 §2.2: a stray CRLF after a request (some clients add one after a body) is not the start of
            // a new one, so it neither starts the header timer nor earns a 408; the parser skips it later.
            if case .idle = state, buffer.isLineEnding { return [] }
            if draining, case .idle = state {
                state = .closed
                return [.fail(.unavailable("the server is shutting down"), head: nil, close: true)]
            }
            let parsed = buffer.withUnsafeBytes { parser.parseHead($0) }
            switch parsed {
            case .failure(let error):
                state = .closed
                return [.fail(.malformed(error), head: nil, close: true)]
            case .success(nil):
                if case .idle = state { state = .readingHead(since: now) }
                return []
            case .success(let head?):
                // A request starts with its first byte: when it was idle until now, that is now.
                let started: UInt64 = if case .readingHead(let since) = state { since } else { now }
                buffer.consume(head.headLength)
                requestsStarted += 1
                // docs/operations.md: a request that starts at or after the connection's maximum age is answered
                // with `Connection: close`, so the client reconnects (and a load balancer can place it elsewhere).
                if limits.maxConnectionAge > 0,
                    started >= MonotonicClock.deadline(openedAt, after: limits.maxConnectionAge)
                {
                    agedOut = true
                }
                if head.contentLength == nil, !head.chunked, head.method == .post || head.method == .put {
                    // RFC 9112 §6.3: a request body needs Content-Length or chunked framing.
                    state = .closed
                    return [.fail(.lengthRequired, head: head, close: true)]
                }
                state = .awaitingDecision(head)
                return [.decide(head)]
            }
        case .readingBody(let head, let limit, let discard, let last):
            if head.chunked {
                let decoded = buffer.withUnsafeBytes { chunked.decode($0, into: &body) }
                switch decoded {
                case .failure(let error):
                    state = .closed
                    return [.fail(.malformed(error), head: head, close: true)]
                case .success(let progress):
                    buffer.consume(progress.consumed)
                    // docs/api.md, "Status codes and the order of checks": 413 without waiting — a chunk size past the
                    // limit already decides it, also for a refused request's body, which is not read further.
                    let taken = discardedLength + UInt64(body.count)
                    if let tooLarge = limit.check(taken: taken, announced: chunked.announcedBytes) {
                        state = .closed
                        return [.fail(tooLarge, head: head, close: true)]
                    }
                    if discard != nil, body.count > 1 << 16 {
                        discardedLength += UInt64(body.count)  // dropped: only its count is kept
                        body.removeAll(keepingCapacity: true)
                    }
                    guard progress.done else {
                        state = .readingBody(head, limit: limit, discard: discard, lastActivity: last)
                        return []
                    }
                }
            } else if discard != nil {
                let taken = Self.take(from: buffer.count, upTo: head.contentLength ?? 0, after: discardedLength)
                buffer.consume(taken)
                discardedLength += UInt64(taken)
                guard discardedLength == head.contentLength ?? 0 else { return [] }
            } else {
                // `decided` answered 413 to a length over the limit, so this one fits an `Int`.
                guard let length = Int(exactly: head.contentLength ?? 0), buffer.count >= length else { return [] }
                state = .handling(head)
                return [.handle(head, body: buffer.take(length), isLast: isLastRequest)]
            }
            if let discard {
                state = .handling(head)
                return [.fail(discard, head: head, close: !head.keepAlive || isLastRequest)]
            }
            state = .handling(head)
            let request = body[...]
            body = []
            return [.handle(head, body: request, isLast: isLastRequest)]
        case .streamingBody(let head, let last):
            var piece: [UInt8] = []
            var finished = false
            if head.chunked {
                let decoded = buffer.withUnsafeBytes { chunked.decode($0, into: &piece) }
                switch decoded {
                case .failure:
                    // Broken framing mid-stream: the response head is already out, so the stream just ends.
                    state = .closed
                    return [.close]
                case .success(let progress):
                    buffer.consume(progress.consumed)
                    finished = progress.done
                }
            } else {
                let taken = Self.take(from: buffer.count, upTo: head.contentLength ?? 0, after: streamed)
                piece = buffer.copy(taken)
                streamed += UInt64(taken)
                finished = streamed == head.contentLength ?? 0
            }
            var actions: [Action] = piece.isEmpty ? [] : [.bodyChunk(piece)]
            if finished {
                state = .handling(head)
                actions.append(.bodyEnd(head, isLast: isLastRequest))
            } else {
                state = .streamingBody(head, lastActivity: last)
            }
            return actions
        case .awaitingDecision, .handling, .closed:
            return []
        }
    }

    /// The decoded bytes a chunked body being read to be handed over holds so far (0 in every other state): a
    /// chunked body announces no length, so it is counted against the in-flight budget as it grows.
    var chunkedBodyBytes: Int {
        // Only a chunked body is decoded into `body`: on every other path it is empty, and this costs one test.
        guard !body.isEmpty, case .readingBody(_, _, .none, _) = state else { return 0 }
        return body.count
    }

    /// Refuses the body being read with `error` at once (the in-flight budget ran out); the connection closes.
    mutating func refuseBody(_ error: RequestError) -> [Action] {
        guard case .readingBody(let head, _, _, _) = state else { return [] }
        state = .closed
        return [.fail(error, head: head, close: true)]
    }

    /// Stops a streamed body early (strict NDJSON ended the stream): nothing more is parsed; the connection
    /// lingers and closes.
    mutating func abandonBody() {
        state = .closed
        buffer = PendingInput()
    }

    /// How many of `available` buffered bytes belong to a body of `length` bytes of which `done` are already
    /// taken. Lengths are counted in `UInt64`, as `Content-Length` is: a length past `Int.max` (up to 2^64 − 1)
    /// is a body that never ends in practice, never a trap.
    private static func take(from available: Int, upTo length: UInt64, after done: UInt64) -> Int {
        Int(min(length - done, UInt64(available)))
    }

    /// Bytes of a discarded body already dropped.
    private var discardedLength: UInt64 = 0
    /// Bytes of a Content-Length body already streamed.
    private var streamed: UInt64 = 0
}
