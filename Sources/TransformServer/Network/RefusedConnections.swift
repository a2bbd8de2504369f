// SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Connections beyond `maxConnections`. Each gets its `503`, then the lingering close every closing connection
/// gets: its sending side is shut, and what the client still sends (the request it is writing) is read and dropped
/// until the client closes too or `lingeringCloseMs` pass. Closing at once with that request unread makes the kernel
/// reset the connection, and the reset can destroy the `503` before the client reads it. They cost a descriptor
/// each and nothing more (one queue and one buffer serve them all), and at most `maxLingeringRefusals` linger at
/// once: past that, a refused connection is closed right after its `503` (docs/operations.md).
final class RefusedConnections: @unchecked Sendable {
    private let queue = DispatchQueue(label: "transform.refused")
    /// Input read only to be dropped; used on `queue` alone.
    private let discarded = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 16)
    private let lingering = Atomic<Int>(0)
    private let limit: Int
    private let linger: DispatchTimeInterval

    init(limit: Int, lingeringCloseMs: Int) {
        self.limit = lingeringCloseMs > 0 ? limit : 0
        linger = .milliseconds(lingeringCloseMs)
    }

    deinit { discarded.deallocate() }

    /// Writes `answer` to `fd` (a fresh connection: it fits in the socket's buffer), then closes it lingering, or
    /// at once when `limit` connections already linger; `closed` runs once the descriptor is closed.
    func refuse(_ fd: Int32, answer: [UInt8], closed: @escaping @Sendable () -> Void) {
        answer.withUnsafeBytes { _ = try? Syscall.send(fd, $0) }
        guard lingering.add(1, ordering: .relaxed).newValue <= limit, shutdown(fd, Int32(SHUT_WR)) == 0 else {
            lingering.subtract(1, ordering: .relaxed)
            Syscall.close(fd)
            return closed()
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in
            if clientClosed(fd) { source.cancel() }
        }
        source.setCancelHandler { [self] in
            Syscall.close(fd)
            lingering.subtract(1, ordering: .relaxed)
            closed()
        }
        source.resume()
        let timed = Handoff(source)
        queue.asyncAfter(deadline: .now() + linger) { timed.take().cancel() }  // a second cancel does nothing
    }

    /// Reads and drops what has arrived, in bounded rounds (the source reports any more); true once the client
    /// has closed (or the read failed).
    private func clientClosed(_ fd: Int32) -> Bool {
        for _ in 0..<16 {
            do throws(SocketError) {
                guard let count = try Syscall.read(fd, into: discarded) else { return false }
                if count == 0 { return true }
            } catch {
                return true
            }
        }
        return false
    }
}
