// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call, with errno captured where it failed.
struct SocketError: Error, Equatable, CustomStringConvertible {
    var operation: String
    var errno: Int32

    var description: String {
        "\(operation) failed: \(String(cString: strerror(errno))) (errno \(errno))."
    }
}
