// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// The `Date` header value (RFC 9110 §5.6.7 IMF-fixdate), rendered at most once per second per thread.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for `seconds` since the epoch.
    static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    static func now() -> String {
        let seconds = Int(time(nil))
        if let cached = cache, cached.seconds == seconds { return cached.text }
        let text = format(seconds)
        cache = (seconds, text)
        return text
    }

    /// One cached value per thread (the event loops and workers each keep their own).
    private static var cache: (seconds: Int, text: String)? {
        get { ThreadCache.current.date }
        set { ThreadCache.current.date = newValue }
    }
}

/// Per-thread scratch state, kept in thread-specific storage so event loops share nothing.
final class ThreadCache {
    var date: (seconds: Int, text: String)?

    nonisolated(unsafe) private static var key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<ThreadCache>.fromOpaque(pointer).release() }
        }
        return key
    }()

    static var current: ThreadCache {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<ThreadCache>.fromOpaque(existing).takeUnretainedValue()
        }
        let cache = ThreadCache()
        pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }
}
