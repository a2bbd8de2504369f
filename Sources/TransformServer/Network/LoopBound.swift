// SPDX-License-Identifier: Apache-2.0

/// A value confined to one event loop that travels through other queues and is opened only back on its loop: the
/// connection that the work it sends to a worker captures, to be handed the answer when that work hops back.
///
/// The compiler cannot see that confinement, hence `@unchecked Sendable`; so it is checked where it matters
/// instead: making the box and opening it both require the caller to run on the loop's queue
/// (`EventLoop.preconditionOnQueue`), so a slip stops the process at the mistake instead of racing (the shape of
/// NIO's `NIOLoopBound`).
struct LoopBound<Value>: @unchecked Sendable {
    let loop: EventLoop
    private let boxed: Value

    /// Must run on `loop`'s queue.
    init(_ value: Value, loop: EventLoop) {
        loop.preconditionOnQueue()
        self.loop = loop
        boxed = value
    }

    /// The value; must be read on `loop`'s queue.
    var value: Value {
        loop.preconditionOnQueue()
        return boxed
    }
}
