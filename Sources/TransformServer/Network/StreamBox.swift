// SPDX-License-Identifier: Apache-2.0

import Dispatch

/// An NDJSON stream's state, confined to one worker queue (one queue per stream keeps the chunks in order): the
/// connection's loop sends it each piece of the body on `queue` and gets the framed output back. `feed` and
/// `finish` check that they run there, which is what makes the `@unchecked Sendable` sound. The response head is
/// taken when the box is made, on the loop, before any piece reaches the worker.
final class StreamBox: @unchecked Sendable {
    /// The worker queue the stream's state lives on.
    let queue: DispatchQueue
    /// The stream's response head (`NDJSONStream.head()`: fixed at creation).
    let head: HTTPResponse
    private var value: NDJSONStream
    private var ended = false

    init(_ stream: NDJSONStream, queue: DispatchQueue) {
        value = stream
        head = stream.head()
        self.queue = queue
    }

    /// The framed output of one body piece, and whether the stream ended early with it. Runs on `queue`.
    func feed(_ bytes: [UInt8]) -> (bytes: [UInt8], endedEarly: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !ended else { return ([], false) }
        var output = value.feed(bytes)
        if value.isFinished {
            output += value.end()
            ended = true
            return (output, true)
        }
        return (output, false)
    }

    /// The rest of the stream once the body is complete (nothing if it already ended). Runs on `queue`.
    func finish() -> [UInt8] {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !ended else { return [] }
        ended = true
        return value.finish()
    }
}
