// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

/// The access log's line (docs/operations.md, "Access log").
struct AccessLogLineTests {
    @Test(arguments: [
        (0, "0.0"), (1, "0.001"), (10, "0.01"), (44, "0.044"), (100, "0.1"), (101, "0.101"),
        (999, "0.999"), (1_000, "1.0"), (1_005, "1.005"), (1_044, "1.044"), (1_040, "1.04"),
        (1_500, "1.5"), (12_345_678, "12345.678"),
    ])
    func writesTheDurationInMillisecondsWithoutTrailingZeros(_ microseconds: Int, _ shown: String) {
        var line = Array("earlier line\n".utf8)
        Server.writeAccessLogLine(
            requestId: "r", method: "POST", target: "/convert/User?x=\"1\"",
            route: "/convert/{model}", status: 200, bytes: 12, microseconds: microseconds,
            into: &line)
        #expect(
            String(decoding: line, as: UTF8.self) == "earlier line\n"
                + #"{"requestId":"r","method":"POST","target":"/convert/User?x=\"1\"","#
                + #""route":"/convert/{model}","status":200,"bytes":12,"durationMs":\#(shown)}"# + "\n")
    }

    /// Every fraction of a millisecond: the text reads back as the same number of microseconds, with no trailing
    /// zero after the point.
    @Test func writesEveryFractionExactly() {
        for microseconds in 1_001...1_999 {
            var line: [UInt8] = []
            Server.writeAccessLogLine(
                requestId: "r", method: "GET", target: "/", route: "/", status: 200, bytes: 0,
                microseconds: microseconds, into: &line)
            let text = String(decoding: line, as: UTF8.self)
            let duration = String(text.split(separator: ":").last!.dropLast(2))  // `1.005` of `…:1.005}\n`
            #expect(Int((Double(duration)! * 1000).rounded()) == microseconds, "\(duration)")
            #expect(!duration.hasSuffix("0"), "\(duration)")
        }
    }

}
