// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a server does when nothing happens, and when it runs out of descriptors: the real binary, real limits.
@Suite struct IdleAndExhaustionTests {
    /// Context switches of every thread of `pid` so far (each wake-up of a sleeping thread is at least one).
    static func contextSwitches(of pid: Int32) throws -> Int {
        var total = 0
        for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                continue  // the thread has just ended
            }
            for line in status.split(separator: "\n")
            where line.hasSuffix("ctxt_switches") == false
                && line.contains("ctxt_switches:")
            {
                total += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
            }
        }
        return total
    }

    /// An idle server (no connections, access log on) does not poll: a repeating 5 ms access-log timer and a 100 ms
    /// timer per event loop kept it at about 2 % of a core, some 220 wake-ups a second. Counted, not timed: over two
    /// idle seconds its threads wake up a handful of times at most.
    @Test func anIdleServerDoesNotWakeUp() throws {
        let server = try ServerProcess(settings: ["accessLog": "true"])
        #expect(try server.freshHealthStatus() == 200)  // a request, so the access log has had a line to flush
        usleep(500_000)
        let before = try Self.contextSwitches(of: server.process.processIdentifier)
        usleep(2_000_000)
        let woken = try Self.contextSwitches(of: server.process.processIdentifier) - before
        #expect(woken < 20, "\(woken) context switches in 2 idle seconds")
    }

    /// Waits (bounded: `seconds`) until `condition` holds; true if it did.
    static func eventually(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// Started with fewer descriptors than it needs before its first connection, the server says so and exits 1;
    /// it used to trap (SIGILL) while making its event loops.
    @Test func tooFewDescriptorsAtStartIsAClearError() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"ulimit -n 12 && exec "$0" serve --config "$1" --host 127.0.0.1 --port 0"#,
            ChildProcess.executable.path, ChildProcess.packageRoot.appendingPathComponent("config").path,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(
            process.terminationReason == .exit && process.terminationStatus == 1,
            "\(process.terminationReason) \(process.terminationStatus): \(text)")
        #expect(text.contains("the open-files limit is 12; serving needs at least 16"), "\(text)")
    }

    /// Out of descriptors, accepting pauses and retries every 100 ms; the warning is one line when the episode
    /// begins and one, with the count of refused accepts, when it ends — not a line per retry.
    ///
    /// Five rounds, each a fresh server flooded the moment it prints its listening line: the server used to die of
    /// SIGILL in some runs on a loaded machine (libdispatch made the main queue's eventfd only in `dispatchMain()`,
    /// after accepting had begun, and traps when that fails). Every wait is a bounded poll, never a timing.
    @Test func runningOutOfDescriptorsIsLoggedOncePerEpisodeWithACount() throws {
        for round in 1...5 {
            try Self.exhaustDescriptors(round: round)
        }
    }

    static func exhaustDescriptors(round: Int) throws {
        let log = try ChildProcess.temporaryDirectory().appendingPathComponent("stderr")
        defer { try? FileManager.default.removeItem(at: log.deletingLastPathComponent()) }
        let server = try ServerProcess(shell: #"ulimit -n 64 && exec "$@""#, errorLog: log)
        func lines() -> [Substring] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
        }
        var clients: [RawClient] = []
        for _ in 0..<90 { clients.append(try server.client()) }
        let paused = eventually { lines().contains { $0.contains(#""event":"accept_paused""#) } }
        #expect(
            paused,
            "round \(round): accepting paused for want of descriptors; running: \(server.process.isRunning); \(lines())"
        )
        usleep(600_000)  // descriptors stay taken over several retries (their count is checked below)
        clients.removeAll()
        var status = 0
        _ = eventually {
            status = (try? server.freshHealthStatus()) ?? 0
            return status == 200 || !server.process.isRunning
        }
        // The episode ends once the waiting connections are all taken, a moment after the answer above.
        _ = eventually { lines().contains { $0.contains(#""event":"accept_resumed""#) } }
        let all = lines()
        #expect(
            server.process.isRunning,
            "round \(round): the server died (\(server.process.isRunning ? "" : "\(server.process.terminationReason) \(server.process.terminationStatus)")); \(all.suffix(5))"
        )
        #expect(status == 200, "round \(round): accepting works again once descriptors are free; \(all.suffix(5))")
        let pausedLines = all.filter { $0.contains(#""event":"accept_paused""#) }
        let resumed = all.filter { $0.contains(#""event":"accept_resumed""#) }
        #expect(pausedLines.count == 1, "round \(round): \(all)")
        #expect(resumed.count == 1, "round \(round): \(all)")
        let count = resumed.first.flatMap { line in
            line.split(separator: "\"").drop { $0 != "pausedAccepts" }.dropFirst(2).first.flatMap { Int($0) }
        }
        #expect((count ?? 0) >= 2, "round \(round): several refused accepts counted: \(resumed)")
    }
}
