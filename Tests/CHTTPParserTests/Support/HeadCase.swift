// SPDX-License-Identifier: Apache-2.0

import CHTTPParser
import Testing

/// A request head with the outcome chp_parse_request must give for it, for parameterised tests.
struct HeadCase: CustomTestStringConvertible, Sendable {
    enum Expected: Sendable {
        case accepted
        case rejected(chp_error_code, offset: Int)
    }

    let name: String
    let bytes: [UInt8]
    let expected: Expected
    var limits: chp_limits = .standard

    var testDescription: String { name }

    static func rejected(_ name: String, _ bytes: [UInt8], _ code: chp_error_code, at offset: Int) -> HeadCase {
        HeadCase(name: name, bytes: bytes, expected: .rejected(code, offset: offset))
    }

    static func rejected(_ name: String, _ text: String, _ code: chp_error_code, at offset: Int) -> HeadCase {
        rejected(name, Array(text.utf8), code, at: offset)
    }

    static func accepted(_ name: String, _ bytes: [UInt8]) -> HeadCase {
        HeadCase(name: name, bytes: bytes, expected: .accepted)
    }
}

extension HeadCase {
    /// Parses the case and checks the outcome it expects: the whole input as one head, or the error and offset.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) {
        let outcome = ParseOutcome.parse(bytes, limits: limits)
        switch expected {
        case .accepted:
            #expect(outcome.head?.length == bytes.count, "\(outcome)", sourceLocation: sourceLocation)
        case .rejected(let code, let offset):
            #expect(outcome == .rejected(code, offset: offset), sourceLocation: sourceLocation)
        }
    }
}

extension HeadCase {
    /// The same case under other limits.
    func limited(_ limits: chp_limits) -> HeadCase {
        var copy = self
        copy.limits = limits
        return copy
    }
}
