// SPDX-License-Identifier: Apache-2.0

import CSocket
import FoundationEssentials
import Testing

@testable import TransformServer

struct CoreCountTests {
    @Test(
        arguments: [
            ("max 100000", nil), ("100000 100000", 1), ("150000 100000", 2), ("50000 100000", 1),
            ("400000 100000\n", 4),
            ("1 100000", 1), ("0 100000", nil), ("-1 100000", nil), ("", nil), ("max", nil), ("100000", nil),
            ("a b", nil), ("100000 0", nil),
        ] as [(String, Int?)])
    func readsACgroupQuota(cpuMax: String, cores: Int?) {
        #expect(CoreCount.quotaCores(cpuMax: cpuMax) == cores)
    }

    /// The affinity count agrees with the kernel's own account of it, `Cpus_allowed_list` in /proc/self/status
    /// (ranges such as `0-3,8`).
    @Test func countsTheAffinityMaskAsTheKernelReportsIt() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let list = line.dropFirst("Cpus_allowed_list:".count).filter { !$0.isWhitespace }
        var count = 0
        for range in list.split(separator: ",") {
            let bounds = range.split(separator: "-").compactMap { Int($0) }
            count += bounds.count == 2 ? bounds[1] - bounds[0] + 1 : 1
        }
        #expect(Int(csocket_affinity_cpu_count()) == count)
        #expect(CoreCount.usable() >= 1 && CoreCount.usable() <= count)
    }
}
