// SPDX-License-Identifier: Apache-2.0

import CSocket
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// How many cores the server may use, which sizes its event loops and worker pool: the CPUs of its affinity mask
/// (`taskset`, a container's cpuset), capped by a cgroup v2 CPU quota rounded up; at least one. Counting the
/// machine's online CPUs instead would start more busy threads than the process may run at once, and they would
/// wait on each other.
///
/// The quota is read from `/sys/fs/cgroup/cpu.max`, which is the process's own cgroup where it has a cgroup
/// namespace (a container on cgroup v2: `docker run --cpus`, a Kubernetes CPU limit). A quota set on a parent
/// cgroup, or on a systemd slice of a process without its own namespace, is not seen.
enum CoreCount {
    static func usable() -> Int {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let affinity = Int(csocket_affinity_cpu_count())
        var cores = affinity > 0 ? min(affinity, online) : online
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8),
            let quota = quotaCores(cpuMax: text)
        {
            cores = min(cores, quota)
        }
        return max(1, cores)
    }

    /// The cores a cgroup v2 `cpu.max` allows, rounded up: `"150000 100000"` (quota and period, in microseconds)
    /// gives 2; `"max 100000"` (no quota) or anything unreadable gives nil.
    static func quotaCores(cpuMax text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0
        else { return nil }
        return (quota + period - 1) / period
    }
}
