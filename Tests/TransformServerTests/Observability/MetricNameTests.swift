// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import TransformServer

/// `MetricName` is the one place a family's name is written: every family rendered comes from it, and every name in
/// it is rendered by some family and listed in docs/metrics.md.
@Suite struct MetricNameTests {
    /// The family names of an exposition, read from its `# TYPE` lines.
    static func families(_ exposition: [UInt8]) -> [String] {
        String(decoding: exposition, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("# TYPE ") }
            .map { String($0.split(separator: " ")[2]) }
    }

    @Test func everyRenderedFamilyIsANameOfTheVocabularyAndEveryNameIsRendered() {
        var exposition = PrometheusExpositionTests.makeRegistry().render()
        ClusterMetrics().emit(synced: true, revision: 7, into: &exposition)
        let rendered = Self.families(exposition)
        #expect(rendered.count == Set(rendered).count, "a family rendered twice: \(rendered)")
        #expect(Set(rendered) == Set(MetricName.allCases.map(\.rawValue)))
    }

    @Test func everyNameIsListedInTheMetricsDocument() throws {
        let document = try String(
            contentsOf: ChildProcess.packageRoot.appendingPathComponent("docs/metrics.md"), encoding: .utf8)
        for name in MetricName.allCases {
            #expect(document.contains("`\(name.rawValue)`"), "\(name.rawValue) is missing from docs/metrics.md")
        }
    }

    @Test func namesFollowPrometheusConventions() {
        for name in MetricName.allCases.map(\.rawValue) {
            #expect(name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(name) is not snake_case")
            #expect(name.hasPrefix("transform_") || name.hasPrefix("process_"), "\(name) has no namespace")
        }
    }
}
