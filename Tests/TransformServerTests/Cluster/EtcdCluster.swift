// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real three-member etcd cluster (Debian's `etcd-server`, installed by scripts/test.sh) on loopback ports chosen
/// at run time, each member a child process stopped by its PID. No mock: the cluster tests talk to the real thing.
final class EtcdCluster {
    /// The `etcd` binary, or nil when it is not installed.
    static let binary: String? = ["/usr/bin/etcd", "/usr/local/bin/etcd"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether openssl is there to make the TLS test's certificates.
    static let hasOpenSSL = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")

    /// Whether the cluster tests run: etcd is installed, or CI=true (where a missing etcd must fail, not skip).
    static var shouldRun: Bool {
        let available = binary != nil
        if !available, ProcessInfo.processInfo.environment["CI"] != "true" {
            print(
                "skipping the cluster tests: etcd is not installed (apt-get install etcd-server; scripts/test.sh does)")
        }
        return available || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    struct Member {
        var name: String
        var clientPort: Int
        var peerPort: Int
        var dataDirectory: URL
        var process: Process?
        var scheme = "http"
        var clientURL: String { "\(scheme)://127.0.0.1:\(clientPort)" }
    }

    private(set) var members: [Member]
    let directory: URL

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Flags given to every member (such as `--auth-token-ttl`).
    let extraArguments: [String]

    /// `tls`: the members serve `https` with these flags and the gateway is not probed over plain HTTP (the
    /// caller waits for a replica instead).
    init(size: Int = 3, extraArguments: [String] = [], tls: Bool = false) throws {
        self.extraArguments = extraArguments
        guard Self.binary != nil else { throw StartError(description: "etcd is not installed (CI=true requires it)") }
        let base = try ChildProcess.temporaryDirectory()
        directory = base
        let ports = try FreePorts.take(size * 2)
        members = (0..<size).map { index in
            Member(
                name: "m\(index)", clientPort: ports[index * 2], peerPort: ports[index * 2 + 1],
                dataDirectory: base.appendingPathComponent("m\(index)"))
        }
        if tls { for index in members.indices { members[index].scheme = "https" } }
        for index in members.indices { try start(index) }
        if !tls { try waitUntilHealthy() }
    }

    deinit {
        for index in members.indices { stop(index) }
        try? FileManager.default.removeItem(at: directory)
    }

    var endpoints: String { members.map(\.clientURL).joined(separator: ",") }

    /// Starts (or restarts, on its kept data directory) member `index`.
    func start(_ index: Int) throws {
        let initial = members.map { "\($0.name)=http://127.0.0.1:\($0.peerPort)" }.joined(separator: ",")
        let member = members[index]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary!)
        process.arguments =
            [
                "--name", member.name, "--data-dir", member.dataDirectory.path,
                "--listen-client-urls", member.clientURL, "--advertise-client-urls", member.clientURL,
                "--listen-peer-urls", "http://127.0.0.1:\(member.peerPort)",
                "--initial-advertise-peer-urls", "http://127.0.0.1:\(member.peerPort)",
                "--initial-cluster", initial, "--initial-cluster-state", "new", "--initial-cluster-token", "ts-test",
                "--logger", "zap", "--log-outputs", directory.appendingPathComponent("\(member.name).log").path,
            ] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        members[index].process = process
    }

    /// SIGKILL to member `index`, by its PID, and waits for it to be gone.
    func stop(_ index: Int) {
        guard let process = members[index].process else { return }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        members[index].process = nil
    }

    /// Waits (bounded) until every running member answers a read through the gateway.
    func waitUntilHealthy(seconds: Double = 30) throws {
        let deadline = Date().addingTimeInterval(seconds)
        for member in members where member.process != nil {
            while true {
                if (try? post(member, "/v3/kv/range", #"{"key":"AA=="}"#))?.status == 200 { break }
                guard Date() < deadline else {
                    throw StartError(description: "etcd member \(member.name) did not start")
                }
                usleep(100_000)
            }
        }
    }

    /// POSTs a gateway request to `member`.
    func post(_ member: Member, _ path: String, _ body: String) throws -> RawClient.Response {
        try RawClient(port: member.clientPort, timeoutSeconds: 5).request(
            "POST", path, body: body, headers: ["Content-Type": "application/json"])
    }

    /// Turns on etcd authentication with a `root` user (etcd's own role `root`) holding `password`.
    func enableAuthentication(password: String) throws {
        let member = members.first { $0.process != nil }!
        for (path, body) in [
            ("/v3/auth/role/add", #"{"name":"root"}"#),
            ("/v3/auth/user/add", #"{"name":"root","password":"\#(password)"}"#),
            ("/v3/auth/user/grant", #"{"user":"root","role":"root"}"#), ("/v3/auth/enable", "{}"),
        ] {
            let response = try post(member, path, body)
            guard response.status == 200 else { throw StartError(description: "\(path) failed: \(response.text)") }
        }
    }

    /// The index of the current leader (asked of each running member), or nil when none answers.
    func leaderIndex() -> Int? {
        for member in members where member.process != nil {
            guard let status = try? post(member, "/v3/maintenance/status", "{}"), status.status == 200,
                let json = try? JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any],
                let leader = json["leader"] as? String, let header = json["header"] as? [String: Any],
                let memberID = header["member_id"] as? String
            else { continue }
            if leader == memberID { return members.firstIndex { $0.name == member.name } }
        }
        return nil
    }

    /// The cluster's current revision, read from any running member.
    func revision() throws -> Int {
        for member in members where member.process != nil {
            if let response = try? post(member, "/v3/kv/range", #"{"key":"AA=="}"#), response.status == 200,
                let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                let header = json["header"] as? [String: Any], let text = header["revision"] as? String,
                let revision = Int(text)
            {
                return revision
            }
        }
        throw StartError(description: "no etcd member answered")
    }

    /// Compacts the history up to `revision` (physically), so older revisions can no longer be watched.
    func compact(_ revision: Int) throws -> Int {
        for member in members where member.process != nil {
            if let response = try? post(member, "/v3/kv/compaction", #"{"revision":"\#(revision)","physical":true}"#) {
                return response.status
            }
        }
        return 0
    }
}

/// Free loopback ports, found by binding port 0 (held open together so they differ, then released).
enum FreePorts {
    static func take(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                    guard bind(fd, pointer, length) == 0 else { return -1 }
                    return getsockname(fd, pointer, &length)
                }
            }
            guard bound == 0 else { throw RawClient.ClientError(description: "no free port: errno \(errno)") }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }
}
