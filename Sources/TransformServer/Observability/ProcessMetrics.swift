// SPDX-License-Identifier: Apache-2.0

import Glibc

/// The standard `process_*` metrics, read from Linux's `/proc` at scrape time without Foundation.
///
/// - `/proc/self/stat` (proc(5)): after the command name in parentheses — which may itself hold spaces and `)`, so
///   parsing starts after the *last* `)` — come space-separated fields from field 3 (`state`) on; the ones used are
///   14 `utime` and 15 `stime` (clock ticks), 22 `starttime` (ticks after boot) and 24 `rss` (pages).
/// - `/proc/stat`: the line `btime 1718000000` is the boot time in seconds since the epoch; read once.
/// - `/proc/self/fd`: one entry per open descriptor (the one used to list it is not counted).
/// - `getrlimit(RLIMIT_NOFILE)`: the soft limit is `process_max_fds`.
struct ProcessMetrics: Equatable, Sendable {
    /// Resident set size in bytes (`rss` × page size).
    var residentMemoryBytes: Int
    /// User and system CPU time in seconds (`utime + stime` / ticks per second).
    var cpuSeconds: Double
    /// Open file descriptors.
    var openFileDescriptors: Int
    /// The soft limit on open file descriptors (`Int.max` when unlimited).
    var maxFileDescriptors: Int
    /// Start time in seconds since the Unix epoch (`btime + starttime` / ticks per second).
    var startTimeSeconds: Double

    /// The fields of `/proc/self/stat` this type uses.
    struct Stat: Equatable {
        var userTicks: Int
        var systemTicks: Int
        var startTicks: Int
        var residentPages: Int
    }

    /// Reads the current figures; `nil` when `/proc` cannot be read (not Linux, or no procfs mounted).
    static func sample() -> ProcessMetrics? {
        guard let bytes = readFile("/proc/self/stat", limit: 4096), let stat = parseStat(bytes),
            let bootTime = bootTime, let openFileDescriptors = countOpenFileDescriptors()
        else { return nil }
        let ticks = Double(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        let pageSize = max(sysconf(Int32(_SC_PAGESIZE)), 1)
        return ProcessMetrics(
            residentMemoryBytes: stat.residentPages * pageSize,
            cpuSeconds: Double(stat.userTicks + stat.systemTicks) / ticks,
            openFileDescriptors: openFileDescriptors,
            maxFileDescriptors: softOpenFilesLimit(),
            startTimeSeconds: Double(bootTime) + Double(stat.startTicks) / ticks)
    }

    /// Appends the five `process_*` families.
    func emit(into out: inout [UInt8]) {
        out += Rendered.residentMemoryHeader
        PrometheusExposition.appendSample(Rendered.residentMemory, residentMemoryBytes, into: &out)
        out += Rendered.cpuHeader
        PrometheusExposition.appendSample(Rendered.cpu, cpuSeconds, into: &out)
        out += Rendered.openFileDescriptorsHeader
        PrometheusExposition.appendSample(Rendered.openFileDescriptors, openFileDescriptors, into: &out)
        out += Rendered.maxFileDescriptorsHeader
        PrometheusExposition.appendSample(Rendered.maxFileDescriptors, maxFileDescriptors, into: &out)
        out += Rendered.startTimeHeader
        PrometheusExposition.appendSample(Rendered.startTime, startTimeSeconds, into: &out)
    }
}

// MARK: - Reading /proc

extension ProcessMetrics {
    /// The boot time in seconds since the epoch, from `/proc/stat` (constant, so read once).
    static let bootTime: Int? = readFile("/proc/stat", limit: 1 << 20).flatMap(parseBootTime)

    /// The fields of a `/proc/<pid>/stat` line, or `nil` if it is not one.
    static func parseStat(_ bytes: [UInt8]) -> Stat? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // fields[0] is field 3 (`state`), so field n is fields[n - 3].
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard fields.count > 21, let user = parseInteger(fields[11]), let system = parseInteger(fields[12]),
            let start = parseInteger(fields[19]), let resident = parseInteger(fields[21])
        else { return nil }
        return Stat(userTicks: user, systemTicks: system, startTicks: start, residentPages: resident)
    }

    /// The value of the `btime` line of `/proc/stat`, or `nil` if there is none.
    static func parseBootTime(_ bytes: [UInt8]) -> Int? {
        let key = Array("btime ".utf8)
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: key) {
            return parseInteger(line.dropFirst(key.count))
        }
        return nil
    }

    /// A non-negative decimal integer (a trailing line feed allowed), or `nil`.
    static func parseInteger(_ digits: ArraySlice<UInt8>) -> Int? {
        var digits = digits
        if digits.last == UInt8(ascii: "\n") { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// The whole file (at most `limit` bytes), or `nil` if it cannot be opened or read.
    static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// The soft `RLIMIT_NOFILE`; `Int.max` when unlimited (`RLIM_INFINITY`, all ones, which Swift does not import
    /// as a constant) or unreadable.
    static func softOpenFilesLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int.max }
        return Int(exactly: limit.rlim_cur) ?? Int.max
    }

    /// The numbered entries of `/proc/self/fd` (or of `path`), less the descriptor that lists them.
    static func countOpenFileDescriptors(in path: String = "/proc/self/fd") -> Int? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            guard let descriptor = parseInteger(name[...]), descriptor != own else { continue }  // skips . and ..
            count += 1
        }
        return count
    }
}

// MARK: - Rendered once

extension ProcessMetrics {
    enum Rendered {
        static let residentMemoryHeader = MetricName.processResidentMemory.header(
            help: "Resident memory size in bytes.", type: .gauge)
        static let residentMemory = MetricName.processResidentMemory.prefix()
        static let cpuHeader = MetricName.processCPU.header(
            help: "Total user and system CPU time spent in seconds.", type: .counter)
        static let cpu = MetricName.processCPU.prefix()
        static let openFileDescriptorsHeader = MetricName.processOpenFileDescriptors.header(
            help: "Number of open file descriptors.", type: .gauge)
        static let openFileDescriptors = MetricName.processOpenFileDescriptors.prefix()
        static let maxFileDescriptorsHeader = MetricName.processMaxFileDescriptors.header(
            help: "Maximum number of open file descriptors.", type: .gauge)
        static let maxFileDescriptors = MetricName.processMaxFileDescriptors.prefix()
        static let startTimeHeader = MetricName.processStartTime.header(
            help: "Start time of the process since unix epoch in seconds.", type: .gauge)
        static let startTime = MetricName.processStartTime.prefix()
    }
}
