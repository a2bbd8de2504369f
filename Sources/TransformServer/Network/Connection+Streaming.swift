// SPDX-License-Identifier: Apache-2.0

import Dispatch

extension Connection {
    private func sendStreamHead() {
        guard !streamHeadSent, let stream, let head = routed?.head else { return }
        streamHeadSent = true
        var response = stream.head
        response.headers.append((HTTPHeader.xRequestId, requestId))
        var bytes: [UInt8] = []
        let http10 = head.versionMinor == 0
        HTTPResponseWriter.head(
            response, framing: http10 ? .closeDelimited : .chunked, closing: http10,
            http10KeepAlive: false, into: &bytes)
        enqueue(bytes)
    }

    /// Converts a piece of the body on the stream's worker queue; its output comes back to this loop in order.
    func streamChunk(_ bytes: [UInt8]) {
        guard let stream else { return }
        sendStreamHead()
        flush()
        streamJobs += 1
        pauseReading()
        let connection = LoopBound(self, loop: loop)
        stream.queue.async { [loop, fd] in
            // A client that has gone gets nothing more converted. One that closed without a reset is reset by the
            // response head written before the first piece, so this finds it at the latest one piece later.
            guard !Syscall.peerHasReset(fd) else { return loop.run(connection) { $0.clientLeft() } }
            let output = stream.feed(bytes)
            loop.run(connection) { $0.streamFed(output) }
        }
    }

    private func streamFed(_ output: (bytes: [UInt8], endedEarly: Bool)) {
        streamJobs -= 1
        guard !closed else { return }
        enqueue(output.bytes)
        if output.endedEarly {
            // Strict mode's first failing line (or a corrupt gzip body) ended the stream; the rest of the body is
            // not read: the connection closes lingering (it shuts its write side and discards input for a while).
            machine.abandonBody()
            completeAfterFlush(head: routed?.head, route: routed?.route, status: .ok, bytes: 0, closing: true)
        } else if streamJobs == 0 {
            resumeReading()
        }
        flush()
    }

    func streamEnd(_ head: HTTPRequestHead, isLast: Bool) {
        guard let stream else { return }
        sendStreamHead()
        self.stream = nil
        streamJobs += 1
        let connection = LoopBound(self, loop: loop)
        stream.queue.async { [loop] in
            let output = stream.finish()
            loop.run(connection) { $0.streamFinished(output, head: head, isLast: isLast) }
        }
    }

    private func streamFinished(_ output: [UInt8], head: HTTPRequestHead, isLast: Bool) {
        streamJobs -= 1
        guard !closed else { return }
        enqueue(output)
        let closing = isLast || !head.keepAlive || head.versionMinor == 0 || server.context.isDraining
        completeAfterFlush(head: head, route: routed?.route, status: .ok, bytes: 0, closing: closing)
        flush()
    }
}
