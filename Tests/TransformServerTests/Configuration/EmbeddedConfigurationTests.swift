// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import TransformServer

@Suite struct EmbeddedConfigurationTests {
    /// The copy compiled into the binary must match config/schemas (regenerate with scripts/embed-config.sh).
    @Test func embeddedSchemasMatchTheConfigFolder() throws {
        let folder = ChildProcess.packageRoot.appendingPathComponent("config/schemas")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(EmbeddedConfiguration.schemas.map(\.name) == names)
        for (name, contents) in EmbeddedConfiguration.schemas {
            let onDisk = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(contents + "\n" == onDisk, "\(name) differs; run scripts/embed-config.sh")
        }
    }
}
