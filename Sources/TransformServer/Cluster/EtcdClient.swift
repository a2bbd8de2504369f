// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import Synchronization

/// etcd v3 through its HTTP/JSON gateway (`/v3/kv/range`, `/v3/kv/txn`, `/v3/kv/put`, `/v3/kv/deleterange`,
/// `/v3/watch`, `/v3/auth/authenticate`): keys and values travel base64-encoded, 64-bit numbers as strings.
///
/// Any endpoint will do: etcd forwards writes to its leader. A call starts at the endpoint that last answered and
/// moves on to the next one only when the request certainly never reached etcd; a request that was sent and then
/// broke off is an unknown outcome and is reported as such, never silently repeated. With a user name, a token
/// from `/v3/auth/authenticate` goes with every request and is fetched again when etcd says it expired.
final class EtcdClient: Sendable {
    let endpoints: [String]
    let options: EtcdHTTP.Options
    private let credentials: (user: String, password: String)?
    private let preferred = Atomic<Int>(0)
    private let token = Mutex<String?>(nil)

    init(endpoints: [String], username: String?, password: String?, options: EtcdHTTP.Options) {
        self.endpoints = endpoints.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.options = options
        credentials = username.map { ($0, password ?? "") }
    }

    // MARK: - Key-value calls

    /// Every key in `[key, rangeEnd)` (or `key` alone), with the store's revision at the time of the read.
    func range(_ key: [UInt8], end: [UInt8]? = nil) throws(EtcdError) -> EtcdRange {
        var body = "{\"key\":\"\(Self.base64(key))\""
        if let end { body += ",\"range_end\":\"\(Self.base64(end))\"" }
        body += "}"
        let response: RangeResponse = try call("/v3/kv/range", body)
        return EtcdRange(response)
    }

    /// Puts `value` at `key` unconditionally; returns the revision of the write.
    @discardableResult
    func put(_ key: [UInt8], _ value: [UInt8]) throws(EtcdError) -> Int {
        let response: HeaderOnly = try call(
            "/v3/kv/put",
            "{\"key\":\"\(Self.base64(key))\",\"value\":\"\(Self.base64(value))\"}")
        return response.header?.revisionNumber ?? 0
    }

    /// Deletes the keys in `[key, rangeEnd)`; returns the revision after the delete.
    @discardableResult
    func deleteRange(_ key: [UInt8], end: [UInt8]) throws(EtcdError) -> Int {
        let response: HeaderOnly = try call(
            "/v3/kv/deleterange",
            "{\"key\":\"\(Self.base64(key))\",\"range_end\":\"\(Self.base64(end))\"}")
        return response.header?.revisionNumber ?? 0
    }

    /// One transaction: if every comparison holds, the `success` operations run, else the `failure` ones; a
    /// failed comparison's `reads` come back from the same revision as the comparison.
    func txn(compare: [EtcdCompare], success: [EtcdOperation], failure: [EtcdOperation]) throws(EtcdError)
        -> EtcdTxnResult
    {
        let body =
            "{\"compare\":[" + compare.map(\.json).joined(separator: ",") + "],\"success\":["
            + success.map(\.json).joined(separator: ",") + "],\"failure\":["
            + failure.map(\.json).joined(separator: ",")
            + "]}"
        let response: TxnResponse = try call("/v3/kv/txn", body)
        let reads = (response.responses ?? []).compactMap { $0.response_range.map(EtcdRange.init) }
        return EtcdTxnResult(
            succeeded: response.succeeded ?? false, revision: response.header?.revisionNumber ?? 0,
            reads: reads)
    }

    /// Runs one watch on the first endpoint that accepts it, from `startRevision`, over `[key, end)`; `onResponse`
    /// gets every watch response in order and returns false to end the watch. Returns when the stream ends.
    func watch(
        _ key: [UInt8], end: [UInt8], startRevision: Int,
        onResponse: @escaping (EtcdWatchResponse) -> Bool
    ) throws(EtcdError) {
        let body =
            "{\"create_request\":{\"key\":\"\(Self.base64(key))\",\"range_end\":\"\(Self.base64(end))\","
            + "\"start_revision\":\"\(startRevision)\"}}"
        var pending: [UInt8] = []
        var failure: EtcdError?
        var ended = false
        try withEndpoints { (endpoint, token) throws(EtcdHTTP.Failure) -> Void in
            let status = try EtcdHTTP.stream(
                endpoint + "/v3/watch", body: Array(body.utf8), token: token,
                options: options
            ) { chunk in
                pending += chunk
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(pending[..<newline])
                    pending.removeSubrange(...newline)
                    guard let decoded = try? JSONDecoder().decode(WatchLine.self, from: Data(line)) else { continue }
                    if let error = decoded.error {
                        failure = EtcdError.rejected(code: error.code ?? 0, message: error.message ?? error.error ?? "")
                        return false
                    }
                    guard let result = decoded.result else { continue }
                    if !onResponse(EtcdWatchResponse(result)) {
                        ended = true
                        return false
                    }
                }
                return true
            }
            if status != 200, failure == nil, !ended {
                failure = Self.gatewayError(status: status, body: pending)
            }
        }
        if let failure {
            if case .rejected(16, _) = failure { token.withLock { $0 = nil } }
            throw failure
        }
    }

    // MARK: - Transport

    /// POSTs to `path` on some endpoint and decodes the answer, authenticating first when needed.
    private func call<Response: Decodable>(_ path: String, _ body: String) throws(EtcdError) -> Response {
        for attempt in 0..<2 {
            var answer: (status: Int, body: [UInt8]) = (0, [])
            try withEndpoints { (endpoint, token) throws(EtcdHTTP.Failure) -> Void in
                answer = try EtcdHTTP.post(endpoint + path, body: Array(body.utf8), token: token, options: options)
            }
            if answer.status == 200, let decoded = try? JSONDecoder().decode(Response.self, from: Data(answer.body)) {
                return decoded
            }
            let error = Self.gatewayError(status: answer.status, body: answer.body)
            // gRPC 16 UNAUTHENTICATED: the token expired (or was never fetched); fetch one and try once more.
            if case .rejected(16, _) = error, credentials != nil, attempt == 0 {
                token.withLock { $0 = nil }
                continue
            }
            throw error
        }
        throw .rejected(code: 16, message: "authentication failed")
    }

    /// Runs `request` against the preferred endpoint, then each other one while the request cannot have reached
    /// etcd. An interrupted request is an unknown outcome: reported, not retried elsewhere.
    private func withEndpoints(_ request: (String, String?) throws(EtcdHTTP.Failure) -> Void) throws(EtcdError) {
        let start = preferred.load(ordering: .relaxed)
        var reasons: [String] = []
        for offset in 0..<endpoints.count {
            let index = (start + offset) % endpoints.count
            do throws(EtcdHTTP.Failure) {
                let token = try currentToken(endpoints[index])
                try request(endpoints[index], token)
                preferred.store(index, ordering: .relaxed)
                return
            } catch {
                if error.isUnreachable {
                    reasons.append(error.description)
                    continue
                }
                preferred.store((index + 1) % endpoints.count, ordering: .relaxed)
                throw .unknownOutcome(error.description)
            }
        }
        throw .unavailable(reasons.joined(separator: "; "))
    }

    /// The auth token, fetched from `endpoint` when there is none yet; nil without credentials.
    private func currentToken(_ endpoint: String) throws(EtcdHTTP.Failure) -> String? {
        guard let credentials else { return nil }
        if let token = token.withLock({ $0 }) { return token }
        let body =
            "{\"name\":" + ConfigurationFile.quoted(credentials.user) + ",\"password\":"
            + ConfigurationFile.quoted(credentials.password) + "}"
        let answer = try EtcdHTTP.post(
            endpoint + "/v3/auth/authenticate", body: Array(body.utf8), token: nil,
            options: options)
        guard answer.status == 200, let decoded = try? JSONDecoder().decode(AuthResponse.self, from: Data(answer.body)),
            let fresh = decoded.token
        else {
            // A refused login is not an unreachable endpoint: the call goes on without a valid token and fails
            // with etcd's "invalid auth token" (16); the reason is logged here, without the password.
            Log.event(
                .etcdAuthenticationFailed,
                [
                    "endpoint": endpoint, "user": credentials.user,
                    "answer": String(decoding: answer.body.prefix(300), as: UTF8.self),
                ])
            return "invalid"
        }
        token.withLock { $0 = fresh }
        return fresh
    }

    static func gatewayError(status: Int, body: [UInt8]) -> EtcdError {
        let decoded = try? JSONDecoder().decode(GatewayError.self, from: Data(body))
        let message = decoded?.message ?? decoded?.error ?? String(decoding: body.prefix(200), as: UTF8.self)
        return .rejected(code: decoded?.code ?? -status, message: message)
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// The first key after every key that starts with `prefix` (etcd's `range_end` for a prefix).
    static func prefixEnd(_ prefix: [UInt8]) -> [UInt8] {
        var end = prefix
        while let last = end.last {
            if last < 0xFF {
                end[end.count - 1] = last + 1
                return end
            }
            end.removeLast()
        }
        return [0]
    }
}
