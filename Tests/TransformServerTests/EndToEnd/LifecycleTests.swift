// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LifecycleTests {
    @Test func sigtermFinishesTheRequestInFlightThenExitsZero() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let idle = try server.client()
        #expect(try idle.request("GET", "/health").status == 200)
        // A request whose head has arrived but whose body has not: it must still be read and answered.
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n")
        usleep(200_000)
        server.signal(SIGTERM)
        usleep(200_000)
        try client.send(#"{"uid":1}"#)
        let response = try client.read()
        #expect(response.text == #"{"uid":1}"#)
        #expect(response.header("Connection") == "close")
        #expect(idle.isClosedByPeer())
        #expect(server.waitForExit() == 0)
    }

    /// docs/operations.md, "Signals": while draining the listener stops accepting, `/ready` answers 503 on open
    /// connections and a request whose head has arrived is answered. The listener is checked through /proc (the server
    /// holds no listening socket on its port) rather than by connecting: under a parallel suite another test's server
    /// may already have bound the freed port. The grace period is long so that a starved machine cannot end it first.
    @Test func readyAnswers503WhileDraining() throws {
        let server = try ServerProcess(settings: ["drainGraceMs": "10000"])
        let client = try server.client()
        #expect(try client.request("GET", "/ready").status == 200)
        #expect(Self.listens(pid: server.process.processIdentifier, port: server.port))
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n")
        let probe = try server.client()
        try probe.send("GET /ready HTTP/1.1\r\nHost: a\r\n")  // the head completes only once draining
        usleep(100_000)
        server.signal(SIGINT)
        let deadline = Date().addingTimeInterval(5)
        while Self.listens(pid: server.process.processIdentifier, port: server.port), Date() < deadline {
            usleep(20_000)
        }
        #expect(!Self.listens(pid: server.process.processIdentifier, port: server.port), "the listener stops accepting")
        try probe.send("\r\n")
        let ready = try probe.read()
        #expect(ready.status == 503)
        #expect(ready.header("Connection") == "close")
        try client.send(#"{"uid":1}"#)
        let answer = try client.read()
        #expect(answer.status == 200)
        #expect(answer.header("Connection") == "close")
        #expect(server.waitForExit() == 0)
    }

    /// Whether process `pid` holds a TCP socket listening on `port` (/proc/net/tcp and /proc/PID/fd).
    static func listens(pid: Int32, port: Int) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return false }
        let hexPort = String(format: ":%04X", port)
        // Columns: sl, local address, remote address, state (0A = LISTEN), …, inode (the tenth).
        let inodes = Set(
            table.split(separator: "\n").dropFirst().compactMap { line -> String? in
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1].hasSuffix(hexPort), fields[3] == "0A" else { return nil }
                return String(fields[9])
            })
        guard !inodes.isEmpty, let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else {
            return false
        }
        return fds.contains { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
            else {
                return false
            }
            return target.hasPrefix("socket:[") && inodes.contains(String(target.dropFirst(8).dropLast()))
        }
    }

    @Test func drainGraceClosesStragglersAndExitsZero() throws {
        let server = try ServerProcess(settings: ["drainGraceMs": "300", "bodyTimeoutMs": "60000"])
        let client = try server.client()
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{")
        usleep(100_000)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        #expect(client.isClosedByPeer())
    }

    @Test func sighupReloadsValidSchemasAndKeepsTheOldOnesOtherwise() throws {
        let server = try ServerProcess(schemas: ["p.json": #"{"name":"P","properties":{"x":"int8"}}"#])
        let client = try server.client()
        #expect(try client.request("POST", "/convert/P", body: #"{"x":"1"}"#).text == #"{"x":1}"#)
        let file = server.directory.appendingPathComponent("schemas/p.json")
        try Data(#"{"name":"P","properties":{"x":"string"}}"#.utf8).write(to: file)
        server.signal(SIGHUP)
        usleep(300_000)
        #expect(try client.request("POST", "/convert/P", body: #"{"x":1}"#).text == #"{"x":"1"}"#)
        try Data(#"{"name":"P","properties":{"x":"int99"}}"#.utf8).write(to: file)
        server.signal(SIGHUP)
        usleep(300_000)
        #expect(
            try client.request("POST", "/convert/P", body: #"{"x":1}"#).text == #"{"x":"1"}"#,
            "a broken set changes nothing")
    }

    @Test func healthReportsModelsAndPersistence() throws {
        let server = try ServerProcess()
        let health = try server.client().request("GET", "/health")
        #expect(health.status == 200)
        #expect(health.text.hasPrefix(#"{"status":"ok","models":"#))
        #expect(health.text.contains(#","schemaPersistence":"disk","schemaSet":""#))
        #expect(health.text.wholeMatch(of: /.*,"schemaSet":"[0-9a-f]{32}","schemasLoadedAt":"[-0-9T:.]{23}Z"}/) != nil)
    }

    @Test func metricsExposeRequestCounters() throws {
        let server = try ServerProcess()
        let client = try server.client()
        _ = try client.request("POST", "/convert/User", body: #"{"uid":"1"}"#)
        _ = try client.request("POST", "/convert/NoSuchModel", body: "{}")
        let metrics = try client.request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(
            metrics.text.contains(
                #"transform_http_requests_total{method="POST",route="/convert/{model}",status="200"} 1"#))
        #expect(metrics.text.contains(#"transform_conversions_total{model="User",outcome="ok"} 1"#))
        #expect(!metrics.text.contains("NoSuchModel"))
        #expect(metrics.text.contains("transform_warnings_total{code=\"coerced\"} 1"))
        #expect(metrics.text.contains("process_resident_memory_bytes"))
    }
}
