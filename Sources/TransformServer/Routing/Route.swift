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
        /// `GET /schemas/{Model}/versions`.
        case versions
        /// `GET /schemas/{Model}/versions/{n}`; the number as written in the path.
        case version(String)
        /// `GET|PUT /schemas/{Model}/config`.
        case config
        /// `POST /schemas/{Model}/compatibility`, the dry run.
        case compatibility
        /// `POST /schemas/{Model}/replay`.
        case replay
        /// `POST /schemas/import`.
        case importSchema
        case health
        case ready
        case metrics
        case rulesEvaluate
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

    /// Whether the route serves a name deleted through the API that still has kept versions: the history routes,
    /// and the conversions (with `?version=`).
    var readsHistory: Bool {
        switch kind {
        case .versions, .version, .conversion, .compare: true
        default: false
        }
    }

    /// Whether `method` is served (HEAD where GET is).
    func allows(_ method: HTTPMethod) -> Bool {
        switch method {
        case .get, .head: methods.contains(.get)
        case .post: methods.contains(.post)
        case .put: methods.contains(.put)
        case .delete: methods.contains(.delete)
        case .other: false
        }
    }

    /// The methods served, in the order of the `Allow` header: HEAD included where GET is.
    var allowedMethods: [HTTPMethod] {
        [(Methods.get, HTTPMethod.get), (.post, .post), (.put, .put), (.delete, .delete), (.get, .head)]
            .filter { methods.contains($0.0) }.map(\.1)
    }
}
