// SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One JSON line per request on standard output, buffered and flushed every few milliseconds from its own queue,
/// so no connection queue ever blocks on a `write`.
final class AccessLog: @unchecked Sendable {  // `timer` is set once in init and never touched again
    private let buffer = Mutex<[UInt8]>([])
    private let timer: any DispatchSourceTimer
    private let queue = DispatchQueue(label: "transform.access-log")

    init(interval: DispatchTimeInterval = .milliseconds(5)) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        self.timer = timer
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(2))
        timer.setEventHandler { [unowned self] in AccessLog.write(takeBuffered()) }
        timer.resume()
    }

    /// Runs `write` on the buffer, under its lock, to append one line.
    func record(_ write: (inout [UInt8]) -> Void) {
        buffer.withLock { write(&$0) }
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
