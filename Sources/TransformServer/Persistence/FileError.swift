// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// A failed step of a durable file write (the registry overlay's temporary file, rename and directory sync), with
/// the path it was applied to and errno captured where it failed.
struct FileError: Error, Equatable {
    /// The system call that failed.
    enum Operation: String {
        case open, write, fsync, close, rename
    }

    var operation: Operation
    var path: String
    var errno: Int32
}

extension FileError: CustomStringConvertible {
    /// For example `open /srv/schemas/.registry.json.tmp failed: Permission denied (errno 13).`
    var description: String {
        "\(operation.rawValue) \(path) failed: \(String(cString: strerror(errno))) (errno \(errno))."
    }
}
