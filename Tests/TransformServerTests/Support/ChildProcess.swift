// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Runs the real `TransformServer` binary built beside the test bundle.
struct ChildProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The built executable: the test bundle and the product share one build directory.
    static var executable: URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("TransformServer")
    }

    /// The package root (for `config/`), found from this source file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static func run(
        _ arguments: [String], stdin: String = "", cwd: URL = packageRoot,
        environment: [String: String] = [:]
    ) throws -> Output {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = ["in", "out", "err"].map { directory.appendingPathComponent($0) }
        try Data(stdin.utf8).write(to: paths[0])
        for path in paths.dropFirst() { _ = FileManager.default.createFile(atPath: path.path, contents: nil) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = cwd
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TRANSFORM_") }
        for (key, value) in environment { inherited[key] = value }
        process.environment = inherited
        process.standardInput = try FileHandle(forReadingFrom: paths[0])
        process.standardOutput = try FileHandle(forWritingTo: paths[1])
        process.standardError = try FileHandle(forWritingTo: paths[2])
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: paths[1]), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: paths[2]), as: UTF8.self))
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ts-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
