// SPDX-License-Identifier: Apache-2.0

extension Server {
    /// Finishes a response for the wire: error body with the request id, `X-Request-Id`, `Vary`, gzip, trailers.
    func render(_ response: consuming HTTPResponse, head: HTTPRequestHead?, requestId: String, close: Bool)
        -> (head: [UInt8], body: [UInt8], status: HTTPStatus, closing: Bool)
    {
        ErrorResponse.finalize(&response, requestId: requestId)
        response.headers.append((HTTPHeader.xRequestId, requestId))
        let isJSONBody = response.header(HTTPHeader.contentType) != nil
        if isJSONBody || response.status == .notModified {
            response.headers.append((HTTPHeader.vary, HTTPHeader.acceptEncoding))
        }
        let gzip =
            isJSONBody && response.body.count >= context.configuration.gzipMinBytes
            && (head?.acceptsGzip ?? false)
        if gzip {
            response.body = response.body.withUnsafeBytes { Gzip.deflate($0) }
            response.headers.append((HTTPHeader.contentEncoding, "gzip"))
        }
        let isHead = head?.method == .head
        let closing = close || response.closesConnection || head == nil
        let http10KeepAlive = head?.versionMinor == 0 && !closing
        let (head, body) = HTTPResponseWriter.serialize(
            response, isHead: isHead, closing: closing,
            http10KeepAlive: http10KeepAlive)
        return (head, body, response.status, closing)
    }
}
