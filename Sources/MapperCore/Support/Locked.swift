// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value behind a pthread mutex.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer does not model the futex calls `Mutex` makes on
/// Linux and reports races between accesses that the lock does order; pthread mutexes it understands, so the
/// concurrency tests run clean under `--sanitize=thread` and a real race would still be reported.
final class Locked<Value>: @unchecked Sendable {
    /// Only touched with the mutex held, so the runtime's exclusivity check (two calls per access) is redundant.
    @exclusivity(unchecked) private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
