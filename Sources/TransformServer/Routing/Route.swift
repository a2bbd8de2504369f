// SPDX-License-Identifier: Apache-2.0

/// A matched route: what it is, its template (the `route` metric label), its model, and its methods.
struct Route: Equatable {
    enum Kind: Equatable {
        case conversion(Operation, Batch)
        case compare
        case schemas
        case schema
        case jsonSchema
        case health
        case ready
        case metrics
    }

    enum Operation: String { case convert, normalize, validate }
    enum Batch: String { case single, array, dictionary }

    var kind: Kind
    var template: String
    var model: String?
    var methods: [String]

    /// Whether `method` is served (HEAD where GET is).
    func allows(_ method: String) -> Bool {
        methods.contains(method) || (method == "HEAD" && methods.contains("GET"))
    }

    var allowHeader: [String] { methods.contains("GET") ? methods + ["HEAD"] : methods }
}
