// SPDX-License-Identifier: Apache-2.0

import Glibc

/// Starts a POSIX thread running `body`, with `stackSize` bytes of stack when given (the system's default
/// otherwise), and returns it for `pthread_join`, which orders everything the thread wrote before what the joiner
/// reads next.
func startThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> pthread_t {
    let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
    pthread_attr_init(attributes)
    defer {
        pthread_attr_destroy(attributes)
        attributes.deallocate()
    }
    if let stackSize { pthread_attr_setstacksize(attributes, stackSize) }
    let context = Unmanaged.passRetained(ThreadContext(body)).toOpaque()
    var thread: pthread_t = 0
    let status = pthread_create(
        &thread, attributes,
        { raw in
            Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
    precondition(status == 0, "pthread_create failed: \(status)")
    return thread
}

/// The closure a thread runs, passed through `pthread_create`'s context pointer.
private final class ThreadContext: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
