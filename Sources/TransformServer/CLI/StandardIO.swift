// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// Standard input and output as bytes.
enum StandardIO {
    static func readAll() -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n > 0 { result.append(contentsOf: chunk[0..<n]) } else if n == 0 || errno != EINTR { break }
        }
        return result
    }

    /// Calls `body` with each chunk of standard input until the end, or until `body` returns false.
    static func readChunks(_ body: (UnsafeRawBufferPointer) -> Bool) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            if !chunk.withUnsafeBytes({ body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) { return }
        }
    }

    static func write(_ bytes: [UInt8], to fd: Int32 = 1) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }

    static func error(_ line: String) { write(Array((line.hasSuffix("\n") ? line : line + "\n").utf8), to: 2) }
}
