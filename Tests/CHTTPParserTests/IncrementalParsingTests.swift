// SPDX-License-Identifier: Apache-2.0

import CHTTPParser
import Testing

/// Drip-feeding (picohttpparser's "incomplete 1–8", NIO's ByteToMessageDecoderVerifier): every case of every
/// other suite is re-parsed split at every byte position. A head is incomplete until its last byte and then
/// identical to the one-piece result; a rejected head is incomplete until its offending byte has arrived and then
/// the same error at the same offset; a chunked body decodes to the same outcome however it is cut.
@Suite struct IncrementalParsingTests {
    static let heads: [HeadCase] =
        RequestLineTests.acceptances + RequestLineTests.rejections + HeaderTests.acceptances + HeaderTests.rejections
        + LimitsTests.acceptances.filter { $0.bytes.count < 2048 }
        + LimitsTests.rejections.filter { $0.bytes.count < 2048 }

    static let bodies: [ChunkedCase] = ChunkedTests.acceptances + ChunkedTests.rejections

    @Test(arguments: heads.filter { if case .accepted = $0.expected { true } else { false } })
    func acceptedHeadIsIncompleteUntilItsLastByteThenIdentical(_ request: HeadCase) throws {
        let whole = ParseOutcome.parse(request.bytes, limits: request.limits)
        try #require(whole.head != nil, "\(whole)")
        for split in 0..<request.bytes.count {
            let prefix = ParseOutcome.parse(Array(request.bytes[..<split]), limits: request.limits)
            #expect(prefix == .incomplete, "split at \(split): \(prefix)")
        }
        #expect(ParseOutcome.parse(request.bytes, limits: request.limits) == whole)
    }

    @Test(arguments: heads.filter { if case .rejected = $0.expected { true } else { false } })
    func rejectedHeadIsIncompleteUntilTheOffendingByteThenTheSameError(_ request: HeadCase) throws {
        let whole = ParseOutcome.parse(request.bytes, limits: request.limits)
        guard case .rejected(_, let offset) = whole else {
            Issue.record("expected a rejection, got \(whole)")
            return
        }
        var firstRejected: Int?
        for split in 0...request.bytes.count {
            let prefix = ParseOutcome.parse(Array(request.bytes[..<split]), limits: request.limits)
            if prefix == .incomplete {
                #expect(firstRejected == nil, "split at \(split): incomplete after a rejection")
            } else {
                #expect(prefix == whole, "split at \(split): \(prefix)")
                firstRejected = firstRejected ?? split
            }
        }
        // The error is never reported before the byte it points at has arrived.
        #expect((firstRejected ?? 0) > offset)
    }

    @Test(arguments: heads.filter { if case .accepted = $0.expected { true } else { false } })
    func acceptedHeadIsUnchangedByTheBytesThatFollowIt(_ request: HeadCase) {
        let whole = ParseOutcome.parse(request.bytes, limits: request.limits)
        let followed = ParseOutcome.parse(request.bytes + Array("\u{00}\r\n\nGET".utf8), limits: request.limits)
        #expect(followed == whole)
    }

    @Test(arguments: bodies)
    func chunkedBodyDecodesTheSameWhereverItIsSplit(_ body: ChunkedCase) {
        let whole = ChunkedOutcome.decode(body.body, limits: body.limits)
        for split in 0...body.body.count {
            let outcome = ChunkedOutcome.decode(body.body, splits: [split], limits: body.limits)
            #expect(outcome == whole, "split at \(split): \(outcome)")
        }
    }

    @Test(arguments: bodies)
    func chunkedBodyDecodesTheSameOneByteAtATime(_ body: ChunkedCase) {
        let whole = ChunkedOutcome.decode(body.body, limits: body.limits)
        #expect(ChunkedOutcome.drip(body.body, limits: body.limits) == whole)
    }
}
