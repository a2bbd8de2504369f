// SPDX-License-Identifier: Apache-2.0

/// What the server decides from a request head alone (docs/api.md, "Status codes and the order of checks"), as
/// `RequestHandler.decide` answers the connection's state machine.
enum RequestDecision: Equatable {
    /// Read the body (at most `limit` bytes) and hand the request over.
    case read(limit: BodyLimit)
    /// Answer with this error after reading and discarding the body; the connection stays open (or, after
    /// `Expect: 100-continue`, answer at once and close). A body over `maxBodyBytes` is a 413 instead, at once.
    case reject(RequestError)
    /// Answer at once without reading the body, then close.
    case rejectNow(RequestError)
    /// Hand the body over as it arrives (`bodyChunk` … `bodyEnd`), with no total limit (NDJSON).
    case stream
}
