// SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One JSON line per request on standard output, buffered and flushed a few milliseconds after the first line
/// of a batch from its own queue, so no connection queue ever blocks on a `write`. Nothing is scheduled while
/// nothing is buffered: an idle server does not wake up for it (a repeating timer kept an idle server busy:
/// docs/performance.md, "Design decisions taken on measurements").
final class AccessLog: Sendable {
    private let buffer = Mutex<[UInt8]>([])
    private let queue = DispatchQueue(label: "transform.access-log")
    private let interval: DispatchTimeInterval

    init(interval: DispatchTimeInterval = .milliseconds(5)) {
        self.interval = interval
    }

    /// Runs `write` on the buffer, under its lock, to append one line; the first line after a flush schedules
    /// the next flush.
    func record(_ write: (inout [UInt8]) -> Void) {
        let first = buffer.withLock { lines in
            let wasEmpty = lines.isEmpty
            write(&lines)
            return wasEmpty
        }
        if first {
            queue.asyncAfter(deadline: .now() + interval) { [self] in AccessLog.write(takeBuffered()) }
        }
    }

    /// Writes what is buffered now (at exit).
    func flush() {
        queue.sync { AccessLog.write(takeBuffered()) }
    }

    private func takeBuffered() -> [UInt8] {
        buffer.withLock { lines in
            defer { lines.removeAll(keepingCapacity: true) }
            return lines
        }
    }

    private static func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }
}
