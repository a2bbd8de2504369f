// SPDX-License-Identifier: Apache-2.0

import CSocket
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The listening socket: accepts on its own queue and hands each connection to an event loop round-robin.
/// Beyond `maxConnections` a connection gets `503` and is closed; on `EMFILE` accepting pauses briefly instead of
/// spinning.
final class Listener: @unchecked Sendable {
    let fd: Int32
    let port: Int
    private let source: any DispatchSourceRead
    private let queue = DispatchQueue(label: "transform.accept")
    private var paused = false
    /// `paused`, readable off the queue: a closing connection frees a descriptor, and resumes accepting at once
    /// (`descriptorFreed`) rather than only at the next retry — which needs a timer, and a timer may itself need a
    /// descriptor.
    private let pausedFlag = Atomic<Bool>(false)
    private var stopped = false
    /// Accepts refused for want of descriptors since the episode began (0: none running); logged once when it
    /// begins and once, with this count, when accepting works again.
    private var refusedInEpisode = 0
    /// Hands an accepted descriptor on; set by `start`.
    private var accepted: (Int32) -> Void = { _ in }

    /// Binds and listens on `host:port` (port 0 picks a free one).
    init(host: String, port: Int) throws(SocketError) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let isV6 = host.contains(":")
        let address = host == "localhost" ? "127.0.0.1" : host
        if isV6 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 else {
                throw SocketError(operation: "parse host \(host)", errno: EINVAL)
            }
        } else {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, address, &v4.sin_addr) == 1 else {
                throw SocketError(operation: "parse host \(host)", errno: EINVAL)
            }
        }
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(csocket_stream_type()), 0)
        guard fd >= 0 else { throw SocketError(operation: "socket", errno: errno) }
        Syscall.setOption(fd, SOL_SOCKET, SO_REUSEADDR)
        let bound =
            isV6
            ? withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
            : withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        guard bound == 0 else {
            let error = errno
            Syscall.close(fd)
            throw SocketError(operation: "bind \(host):\(port)", errno: error)
        }
        guard listen(fd, 4096) == 0 else {
            let error = errno
            Syscall.close(fd)
            throw SocketError(operation: "listen", errno: error)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let boundPort = withUnsafePointer(to: &storage) { pointer -> UInt16 in
            isV6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: boundPort))
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
    }

    func start(_ accepted: @escaping (Int32) -> Void) {
        self.accepted = accepted
        source.setEventHandler { [unowned self] in acceptAll() }
        source.setCancelHandler { [fd] in Syscall.close(fd) }
        source.resume()
    }

    /// Must run on `queue`.
    private func acceptAll() {
        while !stopped {
            do throws(SocketError) {
                guard let client = try Syscall.accept(fd) else {
                    // The episode ends when every waiting connection has been taken, not at the first accept that
                    // works: each descriptor a closing connection frees lets one more in, and the next accept fails
                    // again — ending the episode there logged a paused/resumed pair per freed descriptor.
                    if refusedInEpisode > 0 {
                        Log.event(.acceptResumed, ["pausedAccepts": String(refusedInEpisode)])
                        refusedInEpisode = 0
                    }
                    return
                }
                accepted(client)
            } catch {
                if error.errno == EMFILE || error.errno == ENFILE {
                    // Out of descriptors: pause accepting for a moment rather than spin on a ready socket. One
                    // line when the episode begins, not one per retry (every 100 ms).
                    if refusedInEpisode == 0 { Log.event(.acceptPaused, ["reason": error.description]) }
                    refusedInEpisode += 1
                    paused = true
                    pausedFlag.store(true, ordering: .relaxed)
                    source.suspend()
                    queue.asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in
                        resumeIfPaused()
                    }
                }
                return
            }
        }
    }

    /// A descriptor was closed: if accepting is paused for want of one, resume it now.
    func descriptorFreed() {
        guard pausedFlag.load(ordering: .relaxed) else { return }
        queue.async { [self] in resumeIfPaused() }
    }

    /// Must run on `queue`.
    private func resumeIfPaused() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard paused, !stopped else { return }
        paused = false
        pausedFlag.store(false, ordering: .relaxed)
        source.resume()
        // Take the waiting connections now: the event that reported them was spent on the accept that failed, and
        // a resumed source need not report them again — the episode then lasted until the next client arrived.
        acceptAll()
    }

    /// Stops accepting and closes the listening socket.
    func stop() {
        queue.sync {
            stopped = true
            if paused { paused = false; pausedFlag.store(false, ordering: .relaxed); source.resume() }
            source.cancel()
        }
    }
}
