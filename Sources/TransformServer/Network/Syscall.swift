// SPDX-License-Identifier: Apache-2.0

import CSocket

#if canImport(Glibc)
    import Glibc
#endif

/// Every socket system call goes through here: `EINTR` is retried, `EAGAIN`/`EWOULDBLOCK` become `nil`
/// ("would block"), and other failures throw `SocketError` with errno captured at the call.
enum Syscall {
    static func retrying<T>(_ operation: String, _ body: () -> T, failed: (T) -> Bool) throws(SocketError) -> T? {
        while true {
            let result = body()
            guard failed(result) else { return result }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return nil }
            throw SocketError(operation: operation, errno: error)
        }
    }

    /// Reads into `buffer`; 0 means end of stream, nil means would block.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> Int? {
        try retrying("read", { Glibc.read(fd, buffer.baseAddress, buffer.count) }, failed: { $0 < 0 })
    }

    /// Sends without raising SIGPIPE; nil means would block.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SocketError) -> Int? {
        try retrying(
            "send", { Glibc.send(fd, bytes.baseAddress, bytes.count, csocket_msg_nosignal()) },
            failed: { $0 < 0 })
    }

    /// Sends several buffers in one call (`sendmsg`, like `writev`) without raising SIGPIPE; nil means would block.
    static func send(_ fd: Int32, _ vectors: UnsafeMutableBufferPointer<iovec>) throws(SocketError) -> Int? {
        var message = msghdr()
        message.msg_iov = vectors.baseAddress
        message.msg_iovlen = vectors.count
        return try retrying("sendmsg", { sendmsg(fd, &message, csocket_msg_nosignal()) }, failed: { $0 < 0 })
    }

    /// Accepts a non-blocking, close-on-exec connection; nil means none is waiting.
    static func accept(_ listener: Int32) throws(SocketError) -> Int32? {
        try retrying("accept4", { csocket_accept_nonblocking(listener) }, failed: { $0 < 0 })
    }

    /// True when the peer of `fd` has closed or reset the connection (nothing is consumed).
    static func peerHasLeft(_ fd: Int32) -> Bool { csocket_peer_has_left(fd) != 0 }

    /// True when the connection of `fd` has been reset or has failed (`POLLERR`, `POLLHUP`), however much input is
    /// still buffered; a peer that has only closed its sending side is not reported. Nothing is consumed.
    static func peerHasReset(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLERR | POLLHUP) != 0
    }

    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)  // Linux: never retry close on EINTR, the descriptor is gone either way
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32 = 1) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}
