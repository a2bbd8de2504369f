// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The schema registry routes (docs/api.md, "The schema registry"): list, read, register, replace, delete, bundle, JSON
/// Schema.
enum SchemasEndpoint {
    /// Writes need `Authorization: Bearer <adminToken>` (compared in constant time); with no token configured the
    /// registry is read-only.
    static func authorize(_ request: RequestHandler.Request, context: ServerContext) -> RequestError? {
        guard isWrite(request.route, method: request.head.method) else { return nil }
        guard let token = context.configuration.adminToken, !token.isEmpty else { return .forbidden }
        // RFC 9110 §11.1: the scheme name is case-insensitive.
        guard let header = request.header(HTTPHeader.Request.authorization), header.count > 7,
            header.prefix(7).lowercased() == "bearer ",
            constantTimeEqual(Array(header.dropFirst(7).utf8), Array(token.utf8))
        else { return .unauthorized }
        return nil
    }

    /// `PUT` or `DELETE /schemas/{Model}`, or `POST /schemas`.
    static func isWrite(_ route: Route, method: HTTPMethod) -> Bool {
        switch route.kind {
        case .schema: method == .put || method == .delete
        case .schemas: method == .post
        case .config: method == .put
        case .importSchema: true
        default: false
        }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0
    }

    /// RFC 9110 §13.1: `If-Match` on PUT and DELETE (412 unless it names the current version, `*`: any), then
    /// `If-None-Match` — on PUT and DELETE 412 when it names the current version or is `*` and the model exists
    /// (`*` on PUT: create only if absent), on GET and HEAD 304. With a shared store, `If-Match` on writes is
    /// judged against the committed state instead (docs/cluster.md).
    static func checkPreconditions(_ request: RequestHandler.Request, shared: Bool = false) -> RequestError? {
        guard case .schema(let name) = request.route.kind else { return nil }
        let current = request.snapshot.entries[name]
        let isWrite = request.head.method == .put || request.head.method == .delete
        if isWrite, !shared, let ifMatch = request.header(HTTPHeader.Request.ifMatch) {
            let tags = entityTags(ifMatch)
            let matches = current.map { entry in tags.contains("*") || tags.contains(entry.etag) } ?? false
            if !matches { return .preconditionFailed("If-Match does not match the current version of \(name).") }
        }
        guard let ifNoneMatch = request.header(HTTPHeader.Request.ifNoneMatch), let entry = current,
            noneMatchFails(ifNoneMatch, etag: entry.etag)
        else { return nil }
        if isWrite {
            return .preconditionFailed(
                entityTags(ifNoneMatch).contains("*")
                    ? "\(name) already exists (If-None-Match: * asks to write only a model that does not)."
                    : "If-None-Match names the current version of \(name).")
        }
        return .notModified(etag: entry.etag)
    }

    static func entityTags(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
    }

    /// RFC 9110 §13.1.2: `If-None-Match` is false when it is `*` or lists the current entity tag, compared weakly
    /// (`W/"x"` matches `"x"`).
    static func noneMatchFails(_ header: String, etag: String) -> Bool {
        entityTags(header).contains { $0 == "*" || $0 == etag || ($0.hasPrefix("W/") && $0.dropFirst(2) == etag) }
    }

    /// A 304 for a registry read: its validator, and the caching policy of the 200 it stands for (RFC 9110 §15.4.5).
    /// A registry read: with an `ETag`, cacheable and revalidated with it before each use; without one (the
    /// listing), nothing to revalidate with, so never stored.
    static func read(_ body: [UInt8], etag: String?) -> HTTPResponse {
        var response = HTTPResponse.json(.ok, body)
        if let etag {
            response.headers.append((HTTPHeader.etag, etag))
            response.cacheControl = .noCache
        }
        return response
    }

    /// `GET /schemas` (the listing) and `POST /schemas` (a bundle).
    static func handle(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse {
        let snapshot = context.registry.current
        switch request.head.method {
        case .post: return writeBundle(request, context: context)
        default:
            var body: [UInt8] = Array("{\"models\":[".utf8)
            for (i, name) in snapshot.modelNames.enumerated() {
                let entry = snapshot.entries[name]!
                if i > 0 { body.append(UInt8(ascii: ",")) }
                body +=
                    Array("{\"name\":".utf8) + ErrorResponse.jsonString(name)
                    + Array(",\"version\":\(entry.version),\"etag\":".utf8) + ErrorResponse.jsonString(entry.etag)
                    + Array(",\"source\":\"\(entry.source.rawValue)\"}".utf8)
            }
            body += Array("]}".utf8)
            return read(body, etag: nil)
        }
    }

    /// `GET /schemas/{Model}/jsonschema`: `view=output` answers the output side (docs/lifecycle.md); other
    /// parameters are ignored, as on every registry route.
    static func jsonSchema(_ request: RequestHandler.Request, model: String, context: ServerContext) -> HTTPResponse {
        let view: CompatibilityView = request.query["view"] == "output" ? .output : .input
        guard let document = context.registry.current.jsonSchema(for: model, view: view) else {
            return RequestError.unknownModel(model).response
        }
        let etag = ModelEntry.etag(for: document)
        if let ifNoneMatch = request.header(HTTPHeader.Request.ifNoneMatch), noneMatchFails(ifNoneMatch, etag: etag) {
            return RequestError.notModified(etag: etag).response
        }
        return read(document, etag: etag)
    }

    /// `GET|PUT|DELETE /schemas/{Model}`.
    static func handle(_ request: RequestHandler.Request, model: String, context: ServerContext) -> HTTPResponse {
        switch request.head.method {
        case .put: return write(request, name: model, context: context)
        case .delete: return delete(request, name: model, context: context)
        default:
            // `route` answered 404 for a model the registry lacks.
            guard let entry = context.registry.current.entries[model] else {
                return RequestError.unknownModel(model).response
            }
            return read(entry.document, etag: entry.etag)
        }
    }

    private static func write(_ request: RequestHandler.Request, name: String, context: ServerContext) -> HTTPResponse {
        let body: [UInt8]
        switch ConversionEndpoint.decodedBody(request, limit: context.configuration.maxBodyBytes) {
        case .failure(let error): return error.response
        case .success(let bytes): body = Array(bytes)
        }
        if let shared = context.shared {
            return sharedWrite(
                .put(name: name, body: body, ifMatch: request.header(HTTPHeader.Request.ifMatch).map(entityTags)),
                shared)
        }
        return context.registryWrites.withLock { _ in
            let existed = context.registry.current.contains(name)
            let saver = RegistryOverlayFile.Saver(context)
            do throws(SchemaSetError) {
                let file = SchemaFile(name: "(request)", bytes: body, source: .registry, impliedName: name)
                let saved = try context.registry.apply(
                    upserts: [file], deletes: [], checkingCompatibility: true,
                    persist: saver.save)
                guard let snapshot = saved else { return RequestError.notPersisted(saver.failure).response }
                let entry = snapshot.entries[name]!
                var response = HTTPResponse.json(existed ? .ok : .created, writtenJSON(name, entry, created: !existed))
                response.headers.append((HTTPHeader.etag, entry.etag))
                return response
            } catch {
                if let report = error.compatibility {
                    return RequestError.incompatibleSchema(report, bundle: false).response
                }
                return RequestError.invalidSchema(error.problems).response
            }
        }
    }

    /// `POST /schemas/import` (admin): `{"name": "M", "jsonschema": {…}}` translated and written as one bundle.
    static func importSchema(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse {
        let body: [UInt8]
        switch ConversionEndpoint.decodedBody(request, limit: context.configuration.maxBodyBytes) {
        case .failure(let error): return error.response
        case .success(let bytes): body = Array(bytes)
        }
        switch JSONSchemaImport.request(body) {
        case .failure(let failure):
            return RequestError.invalidBody(code: failure.code, message: "The import was rejected: \(failure.message).")
                .response
        case .success(let translated):
            return writeBundle(request, context: context, body: translated.bundle, more: unsupportedMembers(translated))
        }
    }

    /// The import answers as a bundle, and each written model's entry also lists what of its part of the JSON
    /// Schema document was left out: `"unsupported": [{"path": "/properties/rank/multipleOf", "message": …}, …]`,
    /// paths from the root of `jsonschema`, empty when everything was translated (docs/lifecycle.md). A keyword
    /// noted where no model came out (a definition that is not an object schema) is listed under the root model.
    static func unsupportedMembers(_ translated: JSONSchemaImport) -> [String: [UInt8]] {
        var lists: [String: [UInt8]] = [:]
        for entry in translated.unsupported {
            let model = translated.models.contains(entry.model) ? entry.model : translated.models[0]
            var list = lists[model].map { $0 + [UInt8(ascii: ",")] } ?? []
            list +=
                Array("{\"path\":".utf8) + ErrorResponse.jsonString(entry.pointer)
                + Array(",\"message\":".utf8) + ErrorResponse.jsonString(entry.message) + [UInt8(ascii: "}")]
            lists[model] = list
        }
        var members: [String: [UInt8]] = [:]
        for model in translated.models {
            members[model] = Array(",\"unsupported\":[".utf8) + (lists[model] ?? []) + [UInt8(ascii: "]")]
        }
        return members
    }

    /// `more`: members added to a written model's entry, by model name.
    private static func writeBundle(
        _ request: RequestHandler.Request, context: ServerContext,
        body given: [UInt8]? = nil, more: [String: [UInt8]] = [:]
    ) -> HTTPResponse {
        let body: [UInt8]
        if let given {
            body = given
        } else {
            switch ConversionEndpoint.decodedBody(request, limit: context.configuration.maxBodyBytes) {
            case .failure(let error): return error.response
            case .success(let bytes): body = Array(bytes)
            }
        }
        if let shared = context.shared { return sharedWrite(.bundle(body: body), shared, more: more) }
        return context.registryWrites.withLock { _ in
            let before = context.registry.current
            let saver = RegistryOverlayFile.Saver(context)
            do throws(SchemaSetError) {
                let (saved, written) = try context.registry.applyBundle(
                    body, checkingCompatibility: true,
                    persist: saver.save)
                guard let snapshot = saved else { return RequestError.notPersisted(saver.failure).response }
                var out: [UInt8] = [UInt8(ascii: "[")]
                for (i, name) in written.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    out += writtenJSON(name, snapshot.entries[name]!, created: !before.contains(name), more: more[name])
                }
                out.append(UInt8(ascii: "]"))
                return .json(.ok, out)
            } catch {
                if let report = error.compatibility {
                    return RequestError.incompatibleSchema(report, bundle: true).response
                }
                return RequestError.invalidSchema(error.problems).response
            }
        }
    }

    private static func delete(_ request: RequestHandler.Request, name: String, context: ServerContext) -> HTTPResponse
    {
        if let shared = context.shared {
            return sharedWrite(
                .delete(name: name, ifMatch: request.header(HTTPHeader.Request.ifMatch).map(entityTags)), shared)
        }
        return context.registryWrites.withLock { _ in
            let saver = RegistryOverlayFile.Saver(context)
            do throws(SchemaSetError) {
                let saved = try context.registry.apply(upserts: [], deletes: [name], persist: saver.save)
                guard saved != nil else { return RequestError.notPersisted(saver.failure).response }
                return HTTPResponse(status: .noContent)
            } catch {
                // The models by name; where they come from schema files, also the place (a request has none).
                let users = context.registry.current.modelsUsing(name)
                let named = users.isEmpty ? "other models" : users.joined(separator: ", ")
                let places = error.problems.filter { $0.file != "(request)" }.map { "\($0.file) \($0.path)" }
                let location = places.isEmpty ? "" : " (\(places.joined(separator: ", ")))"
                return RequestError.conflict(
                    "\(name) is still used by \(named)\(location); delete it together with them in one bundle."
                ).response
            }
        }
    }

    /// `{"name", "version", "etag", "created"}`, then `more` (members, each with its leading comma).
    static func writtenJSON(_ name: String, _ entry: ModelEntry, created: Bool, more: [UInt8]? = nil) -> [UInt8] {
        Array("{\"name\":".utf8) + ErrorResponse.jsonString(name)
            + Array(",\"version\":\(entry.version),\"etag\":".utf8)
            + ErrorResponse.jsonString(entry.etag) + Array(",\"created\":\(created)".utf8) + (more ?? [])
            + [UInt8(ascii: "}")]
    }
}
