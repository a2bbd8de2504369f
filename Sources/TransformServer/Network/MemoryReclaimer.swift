// SPDX-License-Identifier: Apache-2.0

import CSocket
import Dispatch
import Synchronization

/// Gives memory back to the system after large requests. glibc's allocator keeps freed memory for reuse: after a
/// burst of large uploads (aborted ones included) a server stayed at hundreds of megabytes with nothing in flight,
/// and `malloc_trim` gave most of it back. A connection reports each large buffer it let go of; one trim runs a
/// second after the first report, however many arrive meanwhile, so a burst costs one trim a second at most and
/// the last one always follows its end. A trim runs on a utility queue, never on an event loop.
final class MemoryReclaimer: Sendable {
    /// A body or input buffer at least this large counts as large.
    static let largeBytes = 1 << 20
    private let scheduled = Atomic<Bool>(false)
    private let queue = DispatchQueue(label: "transform.reclaim", qos: .utility)
    private let delay: DispatchTimeInterval

    init(delay: DispatchTimeInterval = .seconds(1)) {
        self.delay = delay
    }

    /// Notes that `bytes` of a request were let go of; schedules a trim when they count as large.
    func released(_ bytes: Int) {
        guard bytes >= Self.largeBytes else { return }
        guard scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            scheduled.store(false, ordering: .releasing)
            _ = csocket_malloc_trim()
        }
    }
}
