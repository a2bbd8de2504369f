// SPDX-License-Identifier: Apache-2.0

import Dispatch
import MapperCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The running service: a listener, one event loop per core, a bounded worker pool, and the lifecycle
/// (`running` → `draining` → exit) of docs/operations.md, "Signals".
///
/// Accepting and the in-flight body budget are here; finishing responses for the wire is in `Server+Responses.swift`,
/// counting and logging answered requests in `Server+AccessLog.swift`, draining in `Server+Drain.swift`.
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
    let accessLog: AccessLog?
    private let active = Atomic<Int>(0)
    private let nextLoop = Atomic<Int>(0)
    let state = Mutex<State>(.running)
    var listener: Listener?

    init(context: ServerContext) {
        self.context = context
        handler = RequestHandler(context: context)
        let cores = CoreCount.usable()
        loops = (0..<cores).map { EventLoop(index: $0) }
        workers = WorkerPool(count: cores)
        storeWrites = context.shared == nil ? nil : DispatchQueue(label: "transform.registry-writes")
        let c = context.configuration
        var limits = ConnectionStateMachine.Limits()
        limits.parser = HTTPRequestParser.Limits(
            maxRequestTargetBytes: c.maxRequestTargetBytes,
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
            let (exchanged, original) = bodiesInFlight.compareExchange(
                expected: current, desired: current + bytes,
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
            var response = RequestError.unavailable("too many connections").response
            ErrorResponse.finalize(&response, requestId: RequestID.choose(nil))
            let (head, body) = HTTPResponseWriter.serialize(
                response, isHead: false, closing: true, http10KeepAlive: false)
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
}
