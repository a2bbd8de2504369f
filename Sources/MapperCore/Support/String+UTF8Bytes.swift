// SPDX-License-Identifier: Apache-2.0

extension String {
    /// Calls `body` with the string's UTF-8 bytes, read in place: native strings (every string a request or a
    /// schema makes) are contiguous UTF-8, so nothing is copied. `withUTF8` would need a mutable copy of the
    /// string; a bridged string without contiguous storage is copied into an array first.
    @inlinable
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }
}
