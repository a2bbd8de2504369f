// SPDX-License-Identifier: Apache-2.0

import CCurl
import Synchronization

/// HTTP POSTs to one etcd gateway endpoint through the system libcurl: the only file that imports `CCurl`.
///
/// Each call runs on its own easy handle on the calling thread (blocking), so there is no shared handle state. A
/// failure says whether the request may have reached etcd: `unreachable` means nothing was sent (safe to try
/// another endpoint), `interrupted` means it was sent and the outcome is unknown (docs/cluster.md).
enum EtcdHTTP {
    /// TLS files and the per-request time limit (settings `etcdCaFile`, `etcdCertFile`, `etcdKeyFile`,
    /// `etcdTimeoutMs`).
    struct Options: Sendable {
        var timeoutMs = 5_000
        var caFile: String?
        var certFile: String?
        var keyFile: String?
    }

    enum Failure: Error, CustomStringConvertible {
        /// The request never left this process (no connection, TLS handshake failed).
        case unreachable(url: String, reason: String)
        /// The request was sent, then the connection broke or timed out: etcd may or may not have applied it.
        case interrupted(url: String, reason: String)

        var description: String {
            switch self {
            case .unreachable(let url, let reason): "etcd at \(url) is unreachable: \(reason)"
            case .interrupted(let url, let reason): "the request to etcd at \(url) broke off: \(reason)"
            }
        }

        var isUnreachable: Bool {
            if case .unreachable = self { true } else { false }
        }
    }

    /// libcurl's process-wide set-up must run once before any thread uses it.
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    /// POSTs `body` (JSON) and returns the status and the whole response body.
    static func post(_ url: String, body: [UInt8], token: String?, options: Options) throws(Failure)
        -> (status: Int, body: [UInt8])
    {
        let sink = Sink { _ in true }
        sink.keeps = true
        let status = try perform(url, body: body, token: token, options: options, streaming: false, sink: sink)
        return (status, sink.collected)
    }

    /// POSTs `body` and hands every received chunk to `onChunk` as it arrives, until the server ends the response,
    /// the connection breaks, or `onChunk` returns false. There is no overall time limit (a watch lasts as long
    /// as etcd keeps it); connecting is bounded by the timeout, and TCP keep-alive notices a dead peer.
    static func stream(
        _ url: String, body: [UInt8], token: String?, options: Options,
        onChunk: @escaping ([UInt8]) -> Bool
    ) throws(Failure) -> Int {
        try perform(url, body: body, token: token, options: options, streaming: true, sink: Sink(onChunk))
    }

    /// Receives the body; `collected` holds it when the caller does not stream.
    private final class Sink {
        let onChunk: ([UInt8]) -> Bool
        var collected: [UInt8] = []
        var stopped = false
        var keeps = false
        init(_ onChunk: @escaping ([UInt8]) -> Bool) { self.onChunk = onChunk }
    }

    private static func perform(
        _ url: String, body: [UInt8], token: String?, options: Options, streaming: Bool,
        sink: Sink
    ) throws(Failure) -> Int {
        guard initialized, let handle = curl_easy_init() else {
            throw .unreachable(url: url, reason: "libcurl could not be initialised")
        }
        defer { curl_easy_cleanup(handle) }
        var headers: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Content-Type: application/json")
        // Without this, libcurl waits for a 100-continue on bodies over 1 KiB: one needless round trip.
        headers = curl_slist_append(headers, "Expect:")
        if let token { headers = curl_slist_append(headers, "Authorization: " + token) }
        defer { curl_slist_free_all(headers) }
        _ = ccurl_set_string(handle, CURLOPT_URL, url)
        _ = ccurl_set_pointer(handle, CURLOPT_HTTPHEADER, headers)
        _ = ccurl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_set_long(handle, CURLOPT_TCP_KEEPALIVE, 1)
        _ = ccurl_set_long(handle, CURLOPT_TCP_KEEPIDLE, 2)
        _ = ccurl_set_long(handle, CURLOPT_TCP_KEEPINTVL, 1)
        _ = ccurl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, options.timeoutMs)
        if !streaming { _ = ccurl_set_long(handle, CURLOPT_TIMEOUT_MS, options.timeoutMs) }
        if let file = options.caFile { _ = ccurl_set_string(handle, CURLOPT_CAINFO, file) }
        if let file = options.certFile { _ = ccurl_set_string(handle, CURLOPT_SSLCERT, file) }
        if let file = options.keyFile { _ = ccurl_set_string(handle, CURLOPT_SSLKEY, file) }
        let context = Unmanaged.passUnretained(sink).toOpaque()
        _ = ccurl_set_write_callback(handle) { data, size, count, context in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size * count))
            if sink.onChunk(bytes) {
                if sink.keeps { sink.collected += bytes }
                return size * count
            }
            sink.stopped = true
            return 0
        }
        _ = ccurl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        let code: CURLcode = body.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                _ = ccurl_set_long(handle, CURLOPT_POSTFIELDSIZE, buffer.count)
                _ = ccurl_set_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: text.baseAddress))
                return curl_easy_perform(handle)
            }
        }
        if code == CURLE_OK || (code == CURLE_WRITE_ERROR && sink.stopped) {
            return ccurl_response_code(handle)
        }
        let reason = String(cString: curl_easy_strerror(code))
        let neverSent = [
            CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_SSL_CONNECT_ERROR,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM, CURLE_PEER_FAILED_VERIFICATION,
        ]
        // A connect that timed out sent nothing either: no body byte left this process.
        if neverSent.contains(code) || ccurl_bytes_uploaded(handle) == 0 {
            throw .unreachable(url: url, reason: reason)
        }
        throw .interrupted(url: url, reason: reason)
    }
}
