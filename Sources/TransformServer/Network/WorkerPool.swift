// SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization

/// Where large bodies are converted, off the event loops: one serial queue per core, assigned round-robin, so at
/// most that many conversions run at once. Each connection has at most one job queued (it stops reading while its
/// request is handled), so the backlog is bounded by the connection limit.
final class WorkerPool: Sendable {
    private let queues: [DispatchQueue]
    private let next = Atomic<Int>(0)

    init(count: Int) {
        queues = (0..<max(1, count)).map { DispatchQueue(label: "transform.worker.\($0)") }
    }

    func async(_ work: @escaping @Sendable () -> Void) {
        queue().async(execute: work)
    }

    /// One of the queues, for work that must stay in order (the chunks of one NDJSON stream).
    func queue() -> DispatchQueue {
        queues[next.add(1, ordering: .relaxed).oldValue % queues.count]
    }
}
