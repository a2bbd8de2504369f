// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The real `TransformServer serve` as a child process on 127.0.0.1 and a port chosen at run time.
final class ServerProcess {
    let process = Process()
    let port: Int
    let directory: URL
    private let output: FileHandle
    private(set) var stdoutLines: [String] = []

    /// Starts the server with a temporary config directory holding `schemas` (file name → contents) and `settings`
    /// (server.json members); waits for its `listening on` line. `shell`, when given, is a `/bin/sh` command that
    /// ends with `exec "$@"` (to set limits first); `errorLog` receives standard error.
    init(
        schemas: [String: String]? = nil, settings: [String: String] = [:], environment: [String: String] = [:],
        directory existing: URL? = nil, shell: String? = nil, errorLog: URL? = nil
    ) throws {
        directory = try existing ?? ChildProcess.temporaryDirectory()
        let schemaDirectory = directory.appendingPathComponent("schemas")
        try FileManager.default.createDirectory(at: schemaDirectory, withIntermediateDirectories: true)
        if let schemas {
            for (name, text) in schemas { try Data(text.utf8).write(to: schemaDirectory.appendingPathComponent(name)) }
        } else if existing == nil {
            let examples = ChildProcess.packageRoot.appendingPathComponent("config/schemas")
            for name in try FileManager.default.contentsOfDirectory(atPath: examples.path) where name.hasSuffix(".json")
            {
                try FileManager.default.copyItem(
                    at: examples.appendingPathComponent(name),
                    to: schemaDirectory.appendingPathComponent(name))
            }
        }
        var json = settings.map { "\"\($0.key)\": \($0.value)" }
        json.append("\"accessLog\": false")
        if settings["accessLog"] != nil { json.removeLast() }
        try Data("{\(json.joined(separator: ","))}".utf8).write(to: directory.appendingPathComponent("server.json"))
        let arguments = ["serve", "--config", directory.path, "--host", "127.0.0.1", "--port", "0"]
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shell, "sh", ChildProcess.executable.path] + arguments
        } else {
            process.executableURL = ChildProcess.executable
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TRANSFORM_") }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorLog)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        output = pipe.fileHandleForReading
        try process.run()
        var buffer = Data()
        var found: Int?
        let deadline = Date().addingTimeInterval(20)
        while found == nil, Date() < deadline, process.isRunning {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            let text = String(decoding: buffer, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://") }),
                let colon = line.lastIndex(of: ":")
            {
                found = Int(line[line.index(after: colon)...])
            }
        }
        guard let found else {
            process.terminate()
            throw ServerStartError(output: String(decoding: buffer, as: UTF8.self))
        }
        port = found
    }

    struct ServerStartError: Error, CustomStringConvertible {
        var output: String
        var description: String { "the server did not print its listening line; output: \(output)" }
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits (bounded) for the process to exit; returns its status, or nil if it is still running.
    func waitForExit(seconds: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func stop() {
        if process.isRunning {
            signal(SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    func client() throws -> RawClient { try RawClient(port: port) }
}
