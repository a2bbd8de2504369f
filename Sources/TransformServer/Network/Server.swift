// SPDX-License-Identifier: Apache-2.0

import Dispatch
import MapperCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The running service: a listener, one event loop per core, a bounded worker pool, and the lifecycle
/// (`running` → `draining` → exit) of API.md.
final class Server: @unchecked Sendable {
    enum State: String, CustomStringConvertible {
        case running, draining, stopped
        var description: String { rawValue }
    }

    let context: ServerContext
    let handler: RequestHandler
    let loops: [EventLoop]
    /// Large bodies are converted here so the loops keep serving.
    let workers: WorkerPool
    let inlineBodyLimit = 64 << 10
    /// Registry writes through etcd, one at a time, off the loops and the conversion workers; nil with `local`.
    let storeWrites: DispatchQueue?
    let connectionLimits: ConnectionStateMachine.Limits
    let writeTimeout: UInt64
    /// How long a closing connection discards input after its last response (`lingeringCloseMs`); 0: none.
    let lingeringClose: UInt64
    /// Gives memory back after large requests.
    let reclaimer = MemoryReclaimer()
    /// Connections beyond `maxConnections`, answered `503` and closed lingering, within a bound.
    let refused: RefusedConnections
    /// Bytes of announced bodies held now (`reserveBody`), against `maxInFlightBodyBytes`.
    private let bodiesInFlight = Atomic<Int>(0)
    private let accessLog: AccessLog?
    private let active = Atomic<Int>(0)
    private let nextLoop = Atomic<Int>(0)
    private let state = Mutex<State>(.running)
    private var listener: Listener?

    init(context: ServerContext) {
        self.context = context
        handler = RequestHandler(context: context)
        let cores = CoreCount.usable()
        loops = (0..<cores).map { EventLoop(index: $0) }
        workers = WorkerPool(count: cores)
        storeWrites = context.shared == nil ? nil : DispatchQueue(label: "transform.registry-writes")
        let c = context.configuration
        var limits = ConnectionStateMachine.Limits()
        limits.parser = HTTPRequestParser.Limits(maxRequestTargetBytes: c.maxRequestTargetBytes,
                                                 maxHeaderBytes: c.maxHeaderBytes, maxHeaderFields: c.maxHeaderFields)
        limits.headerTimeout = UInt64(c.headerTimeoutMs) * 1_000_000
        limits.bodyTimeout = UInt64(c.bodyTimeoutMs) * 1_000_000
        limits.keepAliveTimeout = UInt64(c.keepAliveTimeoutMs) * 1_000_000
        limits.maxRequestsPerConnection = c.maxRequestsPerConnection
        limits.maxConnectionAge = UInt64(c.maxConnectionAgeMs) * 1_000_000
        limits.maxBodyBytes = c.maxBodyBytes
        connectionLimits = limits
        writeTimeout = UInt64(c.writeTimeoutMs) * 1_000_000
        lingeringClose = UInt64(c.lingeringCloseMs) * 1_000_000
        refused = RefusedConnections(limit: c.maxLingeringRefusals, lingeringCloseMs: c.lingeringCloseMs)
        accessLog = c.accessLog ? AccessLog() : nil
    }

    var activeConnections: Int { active.load(ordering: .relaxed) }

    /// Takes `bytes` from the in-flight body budget (`maxInFlightBodyBytes`); false, taking nothing, when they do
    /// not fit. Give them back with `releaseBody` once the request is answered.
    func reserveBody(_ bytes: Int) -> Bool {
        let limit = context.configuration.maxInFlightBodyBytes
        var current = bodiesInFlight.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else { return false }
            let (exchanged, original) = bodiesInFlight.compareExchange(expected: current, desired: current + bytes,
                                                                       ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func releaseBody(_ bytes: Int) {
        bodiesInFlight.subtract(bytes, ordering: .relaxed)
    }

    /// Binds, starts accepting, and returns the bound port.
    func start() throws(SocketError) -> Int {
        let listener = try Listener(host: context.configuration.listenHost, port: context.configuration.listenPort)
        self.listener = listener
        listener.start { [self] fd in accepted(fd) }
        return listener.port
    }

    private func accepted(_ fd: Int32) {
        guard active.add(1, ordering: .relaxed).newValue <= context.configuration.maxConnections else {
            // Over the limit: answer 503 and close, lingering within a bound (never a busy loop, never a queue of
            // waiting sockets).
            active.subtract(1, ordering: .relaxed)
            var response = ErrorResponse.unavailable("too many connections")
            ErrorResponse.finalize(&response, requestId: RequestID.choose(nil))
            let (head, body) = HTTPResponseWriter.serialize(response, isHead: false, closing: true, http10KeepAlive: false)
            refused.refuse(fd, answer: head + body) { [listener] in listener?.descriptorFreed() }
            return
        }
        Syscall.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY)
        context.metrics.connectionOpened()
        let loop = loops[nextLoop.add(1, ordering: .relaxed).oldValue % loops.count]
        loop.adopt(fd, server: self)
    }

    func connectionClosed() {
        active.subtract(1, ordering: .relaxed)
        context.metrics.connectionClosed()
        listener?.descriptorFreed()
    }

    // MARK: - Responses

    /// Finishes a response for the wire: error body with the request id, `X-Request-Id`, `Vary`, gzip, trailers.
    func render(_ response: consuming HTTPResponse, head: HTTPRequestHead?, requestId: String, close: Bool)
        -> (head: [UInt8], body: [UInt8], status: Int, closing: Bool)
    {
        ErrorResponse.finalize(&response, requestId: requestId)
        response.headers.append(("X-Request-Id", requestId))
        let isJSONBody = response.header("content-type") != nil
        if isJSONBody || response.status == 304 { response.headers.append(("Vary", "Accept-Encoding")) }
        let gzip = isJSONBody && response.body.count >= context.configuration.gzipMinBytes
            && (head?.acceptsGzip ?? false)
        if gzip {
            response.body = response.body.withUnsafeBytes { Gzip.deflate($0) }
            response.headers.append(("Content-Encoding", "gzip"))
        }
        let isHead = head?.method == "HEAD"
        let closing = close || response.closesConnection || head == nil
        let http10KeepAlive = head?.versionMinor == 0 && !closing
        let (head, body) = HTTPResponseWriter.serialize(response, isHead: isHead, closing: closing,
                                                        http10KeepAlive: http10KeepAlive)
        return (head, body, response.status, closing)
    }

    func requestCompleted(head: HTTPRequestHead?, route: Route?, status: Int, bytes: Int, requestId: String,
                          started: UInt64) {
        let seconds = Double(Clock.now() &- started) / 1e9
        let method = head?.method ?? "-"
        // Requests answered before their handler ran (a failed check, a stream) still count under their route.
        let route = route ?? head.flatMap { head in
            Router.percentDecode(Router.split(target: head.target).path).flatMap(Router.match)
        }
        context.metrics.recordRequest(route: route?.template ?? MetricsRegistry.unmatchedRoute, method: method,
                                      status: status, seconds: seconds)
        guard let accessLog else { return }
        accessLog.record { buffer in
            Self.writeAccessLogLine(requestId: requestId, method: method, target: head?.target ?? "",
                                    route: route?.template ?? "", status: status, bytes: bytes,
                                    microseconds: Int((seconds * 1e6).rounded()), into: &buffer)
        }
    }

    /// Appends `{"requestId":…,"method":…,"target":…,"route":…,"status":…,"bytes":…,"durationMs":…}` and a newline
    /// to `line` (the access log's buffer: no line of its own is allocated); the duration in milliseconds with up to
    /// three decimals (microsecond resolution, no trailing zeros).
    static func writeAccessLogLine(requestId: String, method: String, target: String, route: String, status: Int,
                                   bytes: Int, microseconds: Int, into line: inout [UInt8]) {
        func field(_ name: StaticString, _ value: String) {
            line.append(name)
            ErrorBody.appendQuoted(value, to: &line)
        }
        field("{\"requestId\":", requestId)
        field(",\"method\":", method)
        field(",\"target\":", target)
        field(",\"route\":", route)
        line.append(",\"status\":")
        line.append(decimal: status)
        line.append(",\"bytes\":")
        line.append(decimal: bytes)
        line.append(",\"durationMs\":")
        line.append(decimal: microseconds / 1000)
        let fraction = microseconds % 1000
        if fraction == 0 {
            line.append(".0")  // as Double's description wrote whole milliseconds
        } else {
            // Up to three digits, leading zeros kept and trailing zeros dropped.
            line.append(UInt8(ascii: "."))
            var (rest, place) = (fraction, 100)
            repeat {
                line.append(UInt8(ascii: "0") &+ UInt8(rest / place))
                (rest, place) = (rest % place, place / 10)
            } while rest > 0
        }
        line.append("}\n")
    }

    // MARK: - Lifecycle

    /// Stops accepting, lets in-flight requests finish, closes idle connections, and calls `done` with the number
    /// of connections still open when the grace period ran out.
    func drain(grace: DispatchTimeInterval, done: @escaping @Sendable (Int) -> Void) {
        guard state.withLock({ state in
            guard state == .running else { return false }
            state = .draining
            return true
        }) else { return }
        Log.event("state", ["state": State.draining.description])
        context.startDraining()
        listener?.stop()
        for loop in loops { loop.beginDrain() }
        awaitDrained(deadline: DispatchTime.now() + grace, done: done)
    }

    /// Polls until every connection is gone or the grace period is over, then closes the rest.
    private func awaitDrained(deadline: DispatchTime, done: @escaping @Sendable (Int) -> Void) {
        guard activeConnections == 0 || DispatchTime.now() >= deadline else {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { [self] in
                awaitDrained(deadline: deadline, done: done)
            }
            return
        }
        var forced = 0
        for loop in loops { forced += loop.closeAll() }
        if forced > 0 { Log.event("drain_forced_close", ["connections": String(forced)]) }
        accessLog?.flush()
        state.withLock { $0 = .stopped }
        done(forced)
    }
}
