// SPDX-License-Identifier: Apache-2.0

import CHTTPParser
import Testing

/// A chunked body with the outcome the decoder must give for it, for parameterised tests.
struct ChunkedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let body: [UInt8]
    /// The decoded data, when the body is accepted.
    let data: String?
    /// The error and its offset in the body, when it is rejected.
    let error: (code: chp_error_code, offset: UInt64)?
    var limits: chp_limits = .standard

    var testDescription: String { name }

    static func accepted(_ name: String, _ body: String, data: String) -> ChunkedCase {
        ChunkedCase(name: name, body: Array(body.utf8), data: data, error: nil)
    }

    static func rejected(_ name: String, _ body: String, _ code: chp_error_code, at offset: UInt64) -> ChunkedCase {
        ChunkedCase(name: name, body: Array(body.utf8), data: nil, error: (code, offset))
    }

    func limited(_ limits: chp_limits) -> ChunkedCase {
        var copy = self
        copy.limits = limits
        return copy
    }
}

extension ChunkedCase {
    /// Decodes the body in one piece and checks the outcome it expects.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) {
        let outcome = ChunkedOutcome.decode(body, limits: limits)
        if let error {
            #expect(outcome.error?.code == error.code, "\(outcome)", sourceLocation: sourceLocation)
            #expect(outcome.error?.offset == error.offset, "\(outcome)", sourceLocation: sourceLocation)
        } else {
            #expect(outcome.error == nil, "\(outcome)", sourceLocation: sourceLocation)
            #expect(outcome.done, sourceLocation: sourceLocation)
            #expect(outcome.consumed == body.count, sourceLocation: sourceLocation)
            #expect(String(decoding: outcome.data, as: UTF8.self) == data, sourceLocation: sourceLocation)
        }
    }
}
