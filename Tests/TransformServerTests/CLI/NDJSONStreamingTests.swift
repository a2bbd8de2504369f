// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct NDJSONStreamingTests {
    /// 40 MB of NDJSON through the real binary: every line comes out, and the process never holds the stream.
    @Test func streamsALargeInputInBoundedMemory() throws {
        let line = #"{"uid":"12345","name":"Harry Potter and the Philosopher's Stone"}"# + "\n"
        let count = 40_000_000 / line.utf8.count
        let directory = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.ndjson")
        try Data(String(repeating: line, count: count).utf8).write(to: input)
        let output = directory.appendingPathComponent("out.ndjson")
        #expect(FileManager.default.createFile(atPath: output.path, contents: nil))

        let process = Process()
        process.executableURL = ChildProcess.executable
        process.arguments = ["convert", "User", "--ndjson"]
        process.currentDirectoryURL = ChildProcess.packageRoot
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        var peakKiB = 0
        while process.isRunning {
            peakKiB = max(peakKiB, Self.highWaterMarkKiB(of: process.processIdentifier) ?? 0)
            usleep(20_000)
        }
        #expect(process.terminationStatus == 0)
        #expect(peakKiB > 0, "the child's memory was sampled")
        #expect(peakKiB < 40 * 1024, "peak resident \(peakKiB) KiB for a 40 MB stream")

        let converted = try Data(contentsOf: output)
        let expected = #"{"uid":12345,"name":"Harry Potter and the Philosopher's Stone"}"# + "\n"
        #expect(converted.count == count * expected.utf8.count)
        #expect(converted.suffix(expected.utf8.count) == Data(expected.utf8))
    }

    /// `VmHWM` (peak resident set) of a running process, from /proc.
    static func highWaterMarkKiB(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
