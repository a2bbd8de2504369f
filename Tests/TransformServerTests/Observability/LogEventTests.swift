// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import TransformServer

/// `Log.Event` is the vocabulary of the server's log lines: each name is written once there, and operators find
/// each one in docs/operations.md or docs/cluster.md.
@Suite struct LogEventTests {
    @Test func everyEventIsDocumented() throws {
        let docs = ChildProcess.packageRoot.appendingPathComponent("docs")
        let text = try ["operations.md", "cluster.md"]
            .map { try String(contentsOf: docs.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        for event in Log.Event.allCases {
            #expect(
                text.contains("`\(event.rawValue)`") || text.contains("\"event\":\"\(event.rawValue)\""),
                "\(event.rawValue) is not documented in docs/operations.md or docs/cluster.md")
        }
    }

    @Test func eventNamesAreSnakeCase() {
        for event in Log.Event.allCases {
            #expect(
                !event.rawValue.isEmpty && event.rawValue.allSatisfy { $0.isLowercase || $0 == "_" },
                "\(event.rawValue)")
        }
    }
}
