// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// The test command changes nothing outside the build folders: system packages come only from
/// scripts/provision.sh, Python packages only into the virtual environments of scripts/python-env.sh.
struct ProvisioningTests {
    static let scripts = ChildProcess.packageRoot.appendingPathComponent("scripts")

    /// Every shell script of scripts/ and .ci/run, with its text.
    static func shellScripts() throws -> [(name: String, text: String)] {
        var files = try FileManager.default.contentsOfDirectory(atPath: scripts.path).filter { $0.hasSuffix(".sh") }
            .map { ("scripts/" + $0, try String(contentsOf: scripts.appendingPathComponent($0), encoding: .utf8)) }
        let ci = ChildProcess.packageRoot.appendingPathComponent(".ci/run")
        files.append((".ci/run", try String(contentsOf: ci, encoding: .utf8)))
        return files
    }

    /// The lines of `text` that run `words` (comments left out).
    static func commandLines(_ text: String, running words: String) -> [String] {
        text.split(separator: "\n").map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && $0.contains(words) }
    }

    @Test func onlyTheProvisioningScriptInstallsSystemPackages() throws {
        for (name, text) in try Self.shellScripts() where name != "scripts/provision.sh" {
            #expect(Self.commandLines(text, running: "apt-get").isEmpty, "\(name) runs apt-get")
        }
    }

    @Test func pythonPackagesGoOnlyIntoTheBuildFoldersEnvironments() throws {
        for (name, text) in try Self.shellScripts() {
            let installs = Self.commandLines(text, running: "pip install")
            if name == "scripts/python-env.sh" {
                #expect(installs.count == 1)
                #expect(installs.allSatisfy { $0.contains("\"$dir/bin/python\" -m pip install") })
            } else {
                #expect(installs.isEmpty, "\(name) runs pip install: \(installs)")
            }
        }
    }

    @Test func theProvisioningScriptListsWhatItInstalls() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.scripts.appendingPathComponent("provision.sh").path, "--list"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for package in ["python3-venv", "prometheus", "valgrind", "wrk", "nginx-light"] {
            #expect(output.contains("apt: \(package) "), "\(package) is not listed:\n\(output)")
        }
    }

    /// Each requirements file pins every package to one version, so that runs compare like with like.
    @Test func everyPythonRequirementIsPinned() throws {
        let folder = Self.scripts.appendingPathComponent("requirements")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                #expect(line.split(separator: "=").count == 2 && line.contains("=="), "\(file): \(line)")
            }
        }
    }
}
