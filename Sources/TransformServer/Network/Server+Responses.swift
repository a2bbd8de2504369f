// SPDX-License-Identifier: Apache-2.0

extension Server {
    /// Finishes a response for the wire: error body with the request id, `X-Request-Id`, `Vary`, gzip, trailers.
    func render(_ response: consuming HTTPResponse, head: HTTPRequestHead?, requestId: String, close: Bool)
        -> (head: [UInt8], body: [UInt8], status: Int, closing: Bool)
    {
        ErrorResponse.finalize(&response, requestId: requestId)
        response.headers.append(("X-Request-Id", requestId))
        let isJSONBody = response.header("content-type") != nil
        if isJSONBody || response.status == 304 { response.headers.append(("Vary", "Accept-Encoding")) }
        let gzip = isJSONBody && response.body.count >= context.configuration.gzipMinBytes
            && (head?.acceptsGzip ?? false)
        if gzip {
            response.body = response.body.withUnsafeBytes { Gzip.deflate($0) }
            response.headers.append(("Content-Encoding", "gzip"))
        }
        let isHead = head?.method == "HEAD"
        let closing = close || response.closesConnection || head == nil
        let http10KeepAlive = head?.versionMinor == 0 && !closing
        let (head, body) = HTTPResponseWriter.serialize(response, isHead: isHead, closing: closing,
                                                        http10KeepAlive: http10KeepAlive)
        return (head, body, response.status, closing)
    }
}
