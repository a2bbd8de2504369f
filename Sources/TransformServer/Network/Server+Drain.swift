// SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization

extension Server {
    /// Stops accepting, lets in-flight requests finish, closes idle connections, and calls `done` with the number
    /// of connections still open when the grace period ran out.
    func drain(grace: DispatchTimeInterval, done: @escaping @Sendable (Int) -> Void) {
        guard
            state.withLock({ state in
                guard state == .running else { return false }
                state = .draining
                return true
            })
        else { return }
        Log.event(.state, ["state": State.draining.description])
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
        if forced > 0 { Log.event(.drainForcedClose, ["connections": String(forced)]) }
        accessLog?.flush()
        state.withLock { $0 = .stopped }
        done(forced)
    }
}
