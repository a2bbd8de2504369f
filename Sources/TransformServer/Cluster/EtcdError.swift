// SPDX-License-Identifier: Apache-2.0

/// Why an etcd call failed, in the three ways that lead to different answers (docs/cluster.md).
enum EtcdError: Error, CustomStringConvertible {
    /// No endpoint could be reached: nothing was sent, nothing changed.
    case unavailable(String)
    /// The request was sent and the connection broke before the answer: etcd may or may not have applied it.
    case unknownOutcome(String)
    /// etcd answered with an error: the gRPC status code and etcd's message.
    case rejected(code: Int, message: String)

    var description: String {
        switch self {
        case .unavailable(let reason): "no etcd endpoint answered (\(reason))"
        case .unknownOutcome(let reason): "the outcome is unknown: \(reason)"
        case .rejected(let code, let message): "etcd refused the request (code \(code)): \(message)"
        }
    }

    /// etcd refused a request for its size or its number of operations (`--max-request-bytes`,
    /// `--max-txn-ops`): the same request can never succeed.
    var isTooLarge: Bool {
        guard case .rejected(_, let message) = self else { return false }
        return message.contains("too large") || message.contains("too many operations")
            || message.contains("larger than max") || message.contains("message larger")
    }

    /// The request's revision was compacted away (a watch or read from before the compaction).
    var isCompacted: Bool {
        guard case .rejected(_, let message) = self else { return false }
        return message.contains("compacted")
    }
}
