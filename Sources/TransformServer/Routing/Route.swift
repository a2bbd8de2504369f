// SPDX-License-Identifier: Apache-2.0

/// A matched route: what it is (with the model its path names), its template (the `route` metric label), and its
/// methods.
struct Route: Equatable {
    enum Kind: Equatable {
        /// `POST /convert|/normalize|/validate/{Model}[/array|/dictionary]`.
        case conversion(Operation, Batch, model: String)
        /// `POST /compare/{Model}`.
        case compare(model: String)
        /// `POST /merge/{Model}`.
        case merge(model: String)
        case schemas
        /// `GET|PUT|DELETE /schemas/{Model}`.
        case schema(model: String)
        /// `GET /schemas/{Model}/jsonschema`.
        case jsonSchema(model: String)
        /// `GET /schemas/{Model}/versions`.
        case versions(model: String)
        /// `GET /schemas/{Model}/versions/{n}`; the number as written in the path.
        case version(model: String, number: String)
        /// `GET|PUT /schemas/{Model}/config`.
        case config(model: String)
        /// `POST /schemas/{Model}/compatibility`, the dry run.
        case compatibility(model: String)
        /// `POST /schemas/{Model}/replay`.
        case replay(model: String)
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
    var methods: Methods

    /// The model the path names, for the checks every model route shares (`unknown_model`, kept versions); the
    /// endpoints take it from `kind`.
    var model: String? {
        switch kind {
        case .conversion(_, _, let model), .compare(let model), .merge(let model), .schema(let model),
            .jsonSchema(let model), .versions(let model), .version(let model, _), .config(let model),
            .compatibility(let model), .replay(let model):
            model
        case .schemas, .importSchema, .health, .ready, .metrics, .rulesEvaluate: nil
        }
    }

    /// A conversion route of the `/array` shape, the only one that takes NDJSON.
    var isArrayConversion: Bool { if case .conversion(_, .array, _) = kind { true } else { false } }

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
