// SPDX-License-Identifier: Apache-2.0

import CHTTPParser
import Testing

/// The head limits of docs/api.md, "Limits": 414 for the target, 431 for the field lines, each reported as soon as the
/// first byte beyond the limit is in the buffer. Most cases use small limits so that inputs stay small.
@Suite struct LimitsTests {
    /// Target 16 bytes, field lines 64 bytes, 3 fields.
    static let small = chp_limits(max_target: 16, max_header_bytes: 64, max_headers: 3)

    static let target16 = "/" + String(repeating: "t", count: 15)
    /// "Host: a\r\n" (9 bytes) plus one 5 + n byte line: n = 50 fills the 64 bytes exactly.
    static func fields(valueLength n: Int) -> [String] { ["Host: a", "X: " + String(repeating: "v", count: n)] }

    static let acceptances: [HeadCase] = [
        HeadCase.accepted("target of exactly the limit", Request.make(target: target16)).limited(small),
        HeadCase.accepted("field lines of exactly the byte limit", Request.make(fields: fields(valueLength: 50)))
            .limited(small),
        HeadCase.accepted("exactly the field limit", Request.make(fields: ["Host: a", "A: 1", "B: 2"])).limited(small),
        HeadCase.accepted("the longest head under the limits", longestHead).limited(small),
        HeadCase.accepted("no field under a zero field limit", Request.make(version: "HTTP/1.0", fields: []))
            .limited(chp_limits(max_target: 1, max_header_bytes: 0, max_headers: 0)),
        .accepted("default target limit of 8192", Request.make(target: "/" + String(repeating: "t", count: 8191))),
        .accepted("default field limit of 100", Request.make(fields: ["Host: a"] + (1..<100).map { "F\($0): v" })),
        .accepted(
            "default byte limit of 16384",
            Request.make(fields: ["Host: a", "X: " + String(repeating: "v", count: 16384 - 9 - 5)])),
    ]

    static let rejections: [HeadCase] = [
        HeadCase.rejected(
            "target one byte over the limit", Request.make(target: target16 + "t"), CHP_ERR_TARGET_TOO_LONG, at: 20
        ).limited(small),
        HeadCase.rejected(
            "long target before the request line ends", "GET " + target16 + "tt", CHP_ERR_TARGET_TOO_LONG, at: 20
        ).limited(small),
        HeadCase.rejected(
            "field lines one byte over the limit", Request.make(fields: fields(valueLength: 51)),
            CHP_ERR_HEADERS_TOO_LARGE, at: 80
        ).limited(small),
        HeadCase.rejected(
            "long field line before it ends", "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 60),
            CHP_ERR_HEADERS_TOO_LARGE, at: 80
        ).limited(small),
        HeadCase.rejected(
            "long field name before its colon", "GET / HTTP/1.1\r\n" + String(repeating: "N", count: 70),
            CHP_ERR_HEADERS_TOO_LARGE, at: 80
        ).limited(small),
        HeadCase.rejected(
            "one field over the limit", Request.make(fields: ["Host: a", "A: 1", "B: 2", "C: 3"]),
            CHP_ERR_TOO_MANY_HEADERS, at: 37
        ).limited(small),
        HeadCase.rejected(
            "first byte of one field too many", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC",
            CHP_ERR_TOO_MANY_HEADERS, at: 37
        ).limited(small),
        HeadCase.rejected(
            "any target under a zero target limit", Request.make(target: "/"), CHP_ERR_TARGET_TOO_LONG, at: 4
        )
        .limited(chp_limits(max_target: 0, max_header_bytes: 64, max_headers: 3)),
        HeadCase.rejected("any field under a zero byte limit", Request.make(), CHP_ERR_HEADERS_TOO_LARGE, at: 16)
            .limited(chp_limits(max_target: 16, max_header_bytes: 0, max_headers: 3)),
        .rejected(
            "default target limit exceeded", Request.make(target: "/" + String(repeating: "t", count: 8192)),
            CHP_ERR_TARGET_TOO_LONG, at: 8196),
        .rejected(
            "default field limit exceeded", Request.make(fields: ["Host: a"] + (1...100).map { "F\($0): v" }),
            CHP_ERR_TOO_MANY_HEADERS, at: 16 + 9 + (1...99).map { "F\($0): v\r\n".utf8.count }.reduce(0, +)),
        .rejected(
            "default byte limit exceeded",
            Request.make(fields: ["Host: a", "X: " + String(repeating: "v", count: 16384 - 9 - 4)]),
            CHP_ERR_HEADERS_TOO_LARGE, at: 16 + 16384),
    ]

    /// A leading CRLF, a 32-byte method, a 16-byte target and 64 bytes of field lines: chp_max_head_length(small).
    static let longestHead: [UInt8] = Array(
        ("\r\n" + String(repeating: "M", count: 32) + " " + target16 + " HTTP/1.1\r\n"
            + "Host: a\r\nX: " + String(repeating: "v", count: 50) + "\r\n\r\n").utf8)

    @Test(arguments: acceptances)
    func acceptsHeadsAtTheLimits(_ request: HeadCase) {
        request.verify()
    }

    @Test(arguments: rejections)
    func rejectsTheFirstByteBeyondALimit(_ request: HeadCase) {
        request.verify()
    }

    @Test func advertisesTheLengthOfTheLongestAcceptableHead() {
        var limits = Self.small
        #expect(chp_max_head_length(&limits) == Self.longestHead.count)
        #expect(ParseOutcome.parse(Self.longestHead, limits: limits).head?.length == Self.longestHead.count)
    }

    @Test func rejectsAnyUnfinishedHeadLongerThanTheAdvertisedMaximum() {
        var limits = Self.small
        let unfinished = Array(Self.longestHead.dropLast(2)) + Array("YZ".utf8)
        #expect(unfinished.count == chp_max_head_length(&limits))
        #expect(ParseOutcome.parse(unfinished, limits: limits) != .incomplete)
    }

    @Test func saturatesTheMaximumHeadLengthForHugeLimits() {
        var limits = chp_limits(max_target: Int.max, max_header_bytes: Int.max, max_headers: 1)
        #expect(chp_max_head_length(&limits) == Int.max)
    }

    @Test func limitsFieldsToTheCallersArrayWhenItIsSmaller() {
        let request = Request.make(fields: ["Host: a", "A: 1", "B: 2"])
        #expect(ParseOutcome.parse(request, limits: Self.small, capacity: 3).head != nil)
        #expect(
            ParseOutcome.parse(request, limits: Self.small, capacity: 2)
                == .rejected(CHP_ERR_TOO_MANY_HEADERS, offset: 31))
    }

    @Test func doesNotCountTheBlankLineTowardTheByteLimit() {
        let request = Request.make(fields: Self.fields(valueLength: 50))
        #expect(request.count == 16 + 64 + 2)
        #expect(ParseOutcome.parse(request, limits: Self.small).head?.length == request.count)
    }
}
