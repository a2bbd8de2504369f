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
            for line in status.split(separator: "\n") where line.hasSuffix("ctxt_switches") == false
                && line.contains("ctxt_switches:") {
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

    /// Out of descriptors, accepting pauses and retries every 100 ms; the warning is one line when the episode
    /// begins and one, with the count of refused accepts, when it ends — not a line per retry.
    @Test(.disabled("""
        Open: under a loaded machine the server sometimes dies with SIGILL (a trap) during the EMFILE episode \
        (seen 2 of 6 runs alongside other suites; alone it passes) — to be found before this runs in CI.
        """))
    func runningOutOfDescriptorsIsLoggedOncePerEpisodeWithACount() throws {
        let log = try ChildProcess.temporaryDirectory().appendingPathComponent("stderr")
        defer { try? FileManager.default.removeItem(at: log.deletingLastPathComponent()) }
        let server = try ServerProcess(shell: #"ulimit -n 64 && exec "$@""#, errorLog: log)
        var clients: [RawClient] = []
        for _ in 0..<90 { clients.append(try server.client()) }
        usleep(600_000)  // several 100 ms retries while the descriptors stay taken
        clients.removeAll()
        var status = 0
        for _ in 0..<10 where status != 200 {
            status = (try? server.freshHealthStatus()) ?? 0
            if status != 200 { usleep(100_000) }
        }
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(status == 200, "accepting works again once descriptors are free; running: \(server.process.isRunning); \(lines.suffix(5))")
        let paused = lines.filter { $0.contains(#""event":"accept_paused""#) }
        let resumed = lines.filter { $0.contains(#""event":"accept_resumed""#) }
        #expect(paused.count == 1, "\(lines)")
        #expect(resumed.count == 1, "\(lines)")
        let count = resumed.first.flatMap { line in
            line.split(separator: "\"").drop { $0 != "pausedAccepts" }.dropFirst(2).first.flatMap { Int($0) }
        }
        #expect((count ?? 0) >= 2, "several refused accepts counted: \(resumed)")
    }
}
