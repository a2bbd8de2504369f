// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

/// `X-Request-Id`: the client's when it is sane, else a fresh one.
struct RequestIDTests {
    static func isFresh(_ id: String) -> Bool {
        id.utf8.count == 16
            && id.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            }
    }

    @Test func freshIdsAreSixteenHexDigitsAndDistinct() {
        let ids = (0..<10_000).map { _ in RequestID.fresh() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy(Self.isFresh))
    }

    @Test(arguments: ["client-id-1", "x", String(repeating: "a", count: 128), "~!#$%&'()*+,-./:;<=>?@[]^_`{|}"])
    func keepsASaneClientId(_ given: String) {
        #expect(RequestID.choose(given) == given)
    }

    @Test(arguments: [
        nil, "", "has space", String(repeating: "a", count: 129), "quo\"te", "back\\slash", "tab\t",
        "caf\u{E9}",
    ])
    func replacesAMissingOrInsaneClientIdWithAFreshOne(_ given: String?) {
        let chosen = RequestID.choose(given)
        #expect(chosen != given)
        #expect(Self.isFresh(chosen), "\(chosen)")
    }
}
