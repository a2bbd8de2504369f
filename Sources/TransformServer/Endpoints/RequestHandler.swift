// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// Decides about each request head (docs/api.md, "Status codes and the order of checks", up to the body) and answers
/// whole requests.
///
/// Checks run in this order and the first failure answers: framing (the parser) → route (404) → method (405) →
/// auth (401/403) → model (404 unknown_model) → query (400) → preconditions (412/304) → media type (415) →
/// content coding (415) → body and JSON (400) → registry conflict (409) → conversion (422).
struct RequestHandler {
    let context: ServerContext

    /// A request head with its route and parsed query, as the endpoints see it. A class: the connection keeps the
    /// routed request and hands it to the handler (or a worker), or reads it for a stream, one reference count
    /// each time rather than one per string, array and dictionary inside. The body and the request id are filled
    /// in by `handle`, which by then is its only holder.
    final class Request {
        let head: HTTPRequestHead
        let route: Route
        var query: [String: String] = [:]
        /// The body as received (a slice of the connection's input: it is never copied on the way here).
        var body: ArraySlice<UInt8> = []
        var requestId = ""
        /// The registry as it was when the head was decided: every check of the head, and a stream's converter,
        /// see this one version (a whole body is converted with the version current when it has arrived).
        let snapshot: RegistrySnapshot
        /// The snapshot holding `?version=N` of the model (docs/lifecycle.md, Pinning); nil for the current one.
        var pinned: RegistrySnapshot?

        init(head: HTTPRequestHead, route: Route, snapshot: RegistrySnapshot) {
            self.head = head
            self.route = route
            self.snapshot = snapshot
        }

        func header(_ name: String) -> String? { head.firstValue(of: name) }
    }

    /// Routes the head once; the routed request travels with the connection to `handle` or `makeStream`.
    func decide(_ head: HTTPRequestHead) -> (RequestDecision, Request?) {
        switch route(head) {
        // docs/api.md, "Status codes and the order of checks": a failing request with an NDJSON body is answered
        // without reading it, then the connection closes.
        case .failure(let error): return (isNDJSON(head) ? .rejectNow(error) : .reject(error), nil)
        case .success(let request):
            // Only the /array routes accept NDJSON (checkMediaType answered 415 elsewhere).
            if request.route.isArrayConversion, isNDJSON(head) {
                // NDJSON bodies are streams with no total limit (docs/api.md, "Status codes and the order of checks"),
                // converted line by line as they arrive.
                return (.stream, request)
            }
            return (.read(limit: BodyLimit(bytes: context.configuration.maxBodyBytes)), request)
        }
    }

    /// Everything decided from the head: route, method, auth, model, query, preconditions, media type, coding.
    func route(_ head: HTTPRequestHead) -> Result<Request, RequestError> {
        let (rawPath, rawQuery) = Router.split(target: head.target)
        guard let path = Router.percentDecode(rawPath), let matched = Router.match(path) else {
            return .failure(.notFound)
        }
        let route = Router.resolve(matched, method: head.method)
        guard route.allows(head.method) else { return .failure(.methodNotAllowed(allowed: route.allowedMethods)) }
        let request = Request(head: head, route: route, snapshot: context.registry.current)
        if let failure = SchemasEndpoint.authorize(request, context: context) { return .failure(failure) }
        // A write through a shared store decides existence on the committed state, not on this replica's view.
        let decidedByStore: Bool
        switch route.kind {
        case .schema: decidedByStore = head.method == .put || head.method == .delete && context.shared != nil
        // `…/config` answers for any name (a model's configuration may precede it).
        case .config: decidedByStore = true
        default: decidedByStore = false
        }
        // A name deleted through the API keeps its versions listed and pinnable (docs/lifecycle.md).
        var historyOnly = false
        if let model = route.model, !request.snapshot.contains(model), !decidedByStore {
            guard route.readsHistory, request.snapshot.lifecycles[model]?.versions.isEmpty == false else {
                return .failure(.unknownModel(model))
            }
            historyOnly = true
        }
        switch route.kind {
        case .conversion(_, _, let model), .compare(let model), .merge(let model):
            switch QueryParameters.parse(rawQuery, for: route) {
            case .failure(let error): return .failure(error)
            case .success(let query): request.query = query
            }
            // The current version costs nothing here: no parameters, no lookup.
            if !request.query.isEmpty, request.query["version"] != nil {
                if let failure = pin(request, model: model) { return .failure(failure) }
            } else if historyOnly {
                return .failure(.unknownModel(model))
            }
            if let failure = ConversionEndpoint.checkMediaType(head, route: route) { return .failure(failure) }
            if let failure = ConversionEndpoint.checkContentCoding(head) { return .failure(failure) }
        case .rulesEvaluate:
            if let failure = ConversionEndpoint.checkMediaType(head, route: route) { return .failure(failure) }
            if let failure = ConversionEndpoint.checkContentCoding(head) { return .failure(failure) }
        case .jsonSchema:
            request.query = QueryParameters.lenient(rawQuery, keeping: ["view"])
        case .importSchema:
            if let failure = ConversionEndpoint.checkMediaType(head, route: route) { return .failure(failure) }
            if let failure = ConversionEndpoint.checkContentCoding(head) { return .failure(failure) }
        case .compatibility, .replay, .config:
            if case .config = route.kind {
            } else {
                switch QueryParameters.parse(rawQuery, for: route) {
                case .failure(let error): return .failure(error)
                case .success(let query): request.query = query
                }
            }
            if head.method != .get {
                if let failure = ConversionEndpoint.checkMediaType(head, route: route) { return .failure(failure) }
                if let failure = ConversionEndpoint.checkContentCoding(head) { return .failure(failure) }
            }
        case .schema, .schemas:
            if let failure = SchemasEndpoint.checkPreconditions(request, shared: context.shared != nil) {
                return .failure(failure)
            }
            if head.method == .put || head.method == .post {
                if let failure = ConversionEndpoint.checkMediaType(head, route: route) { return .failure(failure) }
                if let failure = ConversionEndpoint.checkContentCoding(head) { return .failure(failure) }
            }
        default: break
        }
        return .success(request)
    }

    /// Resolves `?version=N` to its compiled snapshot (compiled on first use): `404 unknown_version` when it is not
    /// kept.
    private func pin(_ request: Request, model: String) -> RequestError? {
        let version = Int(request.query["version"]!)!  // QueryParameters checked it
        do throws(PinningError) {
            let snapshot = try request.snapshot.pinned(model, version: version)
            if snapshot !== request.snapshot { request.pinned = snapshot }
            return nil
        } catch .unknownVersion {
            return .unknownVersion(model: model, version: String(version))
        } catch {
            return .conflict(error.description)
        }
    }

    /// The converter for a streamed NDJSON request (its head was decided `.stream`).
    func makeStream(_ request: Request) -> NDJSONStream? {
        guard case .conversion(let operation, _, let model) = request.route.kind else { return nil }
        let head = request.head
        let options = QueryParameters.conversionOptions(
            request.query, defaults: context.conversionOptions,
            writesWire: operation == .normalize)
        let snapshot = request.pinned ?? request.snapshot
        let converter = NDJSONConverter(
            snapshot: snapshot, model: model, options: options,
            kind: operation == .validate ? .validate : .convert, maxLineBytes: context.configuration.maxNdjsonLineBytes,
            records: ErrorResponse.writeRecord)
        context.metrics.recordConversion(model: model, outcome: "ok")
        return NDJSONStream(
            converter: converter, gzipInput: ConversionEndpoint.isGzip(head),
            gzipOutput: head.acceptsGzip, http10: head.versionMinor == 0,
            modelVersion: snapshot.versionText(of: model))
    }

    func isNDJSON(_ head: HTTPRequestHead) -> Bool {
        MediaType.parse(head.firstValue(of: HTTPHeader.Request.contentType))?.isNDJSON ?? false
    }

    /// Answers a whole request, routed by `decide`.
    func handle(_ request: Request, body: ArraySlice<UInt8>, requestId: String) -> HTTPResponse {
        request.body = body
        request.requestId = requestId
        switch request.route.kind {
        case .conversion(let operation, let batch, let model):
            return ConversionEndpoint.handle(request, .convert(operation, batch), model: model, context: context)
        case .compare(let model): return ConversionEndpoint.handle(request, .compare, model: model, context: context)
        case .merge(let model): return ConversionEndpoint.handle(request, .merge, model: model, context: context)
        case .schemas: return SchemasEndpoint.handle(request, context: context)
        case .schema(let model): return SchemasEndpoint.handle(request, model: model, context: context)
        case .jsonSchema(let model): return SchemasEndpoint.jsonSchema(request, model: model, context: context)
        case .versions(let model): return SchemaVersionsEndpoint.list(request, model: model)
        case .version(let model, let number):
            return SchemaVersionsEndpoint.version(request, model: model, number: number)
        case .config(let model): return SchemaLifecycleEndpoint.handle(request, model: model, context: context)
        case .compatibility(let model): return SchemaLifecycleEndpoint.dryRun(request, model: model, context: context)
        case .replay(let model): return ReplayEndpoint.handle(request, model: model, context: context)
        case .importSchema: return SchemasEndpoint.importSchema(request, context: context)
        case .health: return HealthEndpoint.health(context)
        case .ready: return HealthEndpoint.ready(context)
        case .metrics: return MetricsEndpoint.handle(context)
        case .rulesEvaluate: return RulesEndpoint.handle(request, context: context)
        }
    }
}
