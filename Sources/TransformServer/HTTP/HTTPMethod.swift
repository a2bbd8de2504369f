// SPDX-License-Identifier: Apache-2.0

/// A request method (RFC 9110 §9): the ones the routes serve are named; any other token the parser accepted is
/// kept as sent (methods are case-sensitive, so `get` is not `GET`).
enum HTTPMethod: Equatable, Hashable, Sendable {
    case get
    case head
    case post
    case put
    case delete
    case other(String)

    /// The method of a request line, as sent.
    init(_ token: String) {
        switch token {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case "PUT": self = .put
        case "DELETE": self = .delete
        default: self = .other(token)
        }
    }

    /// The token as sent (the access log's and the metrics' `method`).
    var name: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .delete: "DELETE"
        case .other(let token): token
        }
    }
}
