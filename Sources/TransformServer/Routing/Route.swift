// SPDX-License-Identifier: Apache-2.0

/// A matched route: what it is, its template (the `route` metric label), its model, and its methods.
struct Route: Equatable {
    enum Kind: Equatable {
        case conversion(Operation, Batch)
        case compare
        case merge
        case schemas
        case schema
        case jsonSchema
        case health
        case ready
        case metrics
    }

    enum Operation: String { case convert, normalize, validate }
    enum Batch: String { case single, array, dictionary }

    /// The methods a route serves (a set of bits: a route is copied with every request, and an array of names
    /// would be a reference count each time).
    struct Methods: OptionSet {
        let rawValue: UInt8
        static let get = Methods(rawValue: 1)
        static let post = Methods(rawValue: 2)
        static let put = Methods(rawValue: 4)
        static let delete = Methods(rawValue: 8)
    }

    var kind: Kind
    var template: String
    var model: String?
    var methods: Methods

    /// Whether `method` is served (HEAD where GET is).
    func allows(_ method: String) -> Bool {
        switch method {
        case "GET", "HEAD": methods.contains(.get)
        case "POST": methods.contains(.post)
        case "PUT": methods.contains(.put)
        case "DELETE": methods.contains(.delete)
        default: false
        }
    }

    /// The `Allow` header's methods, HEAD included where GET is.
    var allowHeader: [String] {
        [(Methods.get, "GET"), (.post, "POST"), (.put, "PUT"), (.delete, "DELETE"), (.get, "HEAD")]
            .filter { methods.contains($0.0) }.map(\.1)
    }
}
