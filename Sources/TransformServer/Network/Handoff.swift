// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// A value handed whole from one queue to another and taken there exactly once: a routed request that its
/// connection's loop gives up (`routed.take()`) for a worker to answer. The giver keeps no way back to it, and a
/// second `take` stops the process, so the value is never used on two queues; that is what makes the
/// `@unchecked Sendable` sound, and it is checked rather than only promised.
final class Handoff<Value>: @unchecked Sendable {
    private var value: Value?
    private let taken = Atomic<Bool>(false)

    init(_ value: Value) { self.value = value }

    /// The value, once; its holder from then on is the caller.
    func take() -> Value {
        precondition(!taken.exchange(true, ordering: .acquiringAndReleasing), "a handed-off value was taken twice")
        defer { value = nil }
        return value!
    }
}
