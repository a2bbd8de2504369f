// SPDX-License-Identifier: Apache-2.0

/// The state machine's actions carry heads and are compared in tests.
extension HTTPRequestHead: Equatable {
    static func == (a: HTTPRequestHead, b: HTTPRequestHead) -> Bool {
        a.method == b.method && a.target == b.target && a.versionMinor == b.versionMinor
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
            && a.contentLength == b.contentLength && a.chunked == b.chunked && a.expectContinue == b.expectContinue
            && a.keepAlive == b.keepAlive && a.headLength == b.headLength
    }
}
