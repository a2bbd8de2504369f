// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The schema registry routes (API.md, Schema registry): list, read, register, replace, delete, bundle, JSON Schema.
enum SchemasEndpoint {
    /// Writes need `Authorization: Bearer <adminToken>` (compared in constant time); with no token configured the
    /// registry is read-only.
    static func authorize(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse? {
        let isWrite = (request.route.kind == .schema && ["PUT", "DELETE"].contains(request.head.method))
            || (request.route.kind == .schemas && request.head.method == "POST")
        guard isWrite else { return nil }
        guard let token = context.configuration.adminToken, !token.isEmpty else { return ErrorResponse.forbidden() }
        // RFC 9110 §11.1: the scheme name is case-insensitive.
        guard let header = request.header("authorization"), header.count > 7, header.prefix(7).lowercased() == "bearer ",
              constantTimeEqual(Array(header.dropFirst(7).utf8), Array(token.utf8))
        else { return ErrorResponse.unauthorized() }
        return nil
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0
    }

    /// `If-Match` on PUT and DELETE (412), `If-None-Match` on GET (304), RFC 9110 §13.1.
    static func checkPreconditions(_ request: RequestHandler.Request) -> HTTPResponse? {
        guard request.route.kind == .schema, let name = request.route.model else { return nil }
        let current = request.snapshot.entries[name]
        if ["PUT", "DELETE"].contains(request.head.method), let ifMatch = request.header("if-match") {
            let tags = entityTags(ifMatch)
            let matches = current.map { entry in tags.contains("*") || tags.contains(entry.etag) } ?? false
            if !matches { return ErrorResponse.preconditionFailed("If-Match does not match the current version of \(name).") }
        }
        if ["GET", "HEAD"].contains(request.head.method), let ifNoneMatch = request.header("if-none-match"),
           let entry = current {
            let tags = entityTags(ifNoneMatch).map { $0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0 }
            if tags.contains("*") || tags.contains(entry.etag) {
                return HTTPResponse(status: 304, headers: [("ETag", entry.etag)])
            }
        }
        return nil
    }

    static func entityTags(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
    }

    static func handle(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse {
        let snapshot = context.registry.current
        switch (request.route.kind, request.head.method) {
        case (.schemas, "POST"): return writeBundle(request, context: context)
        case (.schemas, _):
            var body: [UInt8] = Array("{\"models\":[".utf8)
            for (i, name) in snapshot.modelNames.enumerated() {
                let entry = snapshot.entries[name]!
                if i > 0 { body.append(UInt8(ascii: ",")) }
                body += Array("{\"name\":".utf8) + ErrorResponse.jsonString(name)
                    + Array(",\"version\":\(entry.version),\"etag\":".utf8) + ErrorResponse.jsonString(entry.etag)
                    + Array(",\"source\":\"\(entry.source.rawValue)\"}".utf8)
            }
            body += Array("]}".utf8)
            return .json(200, body)
        case (.jsonSchema, _):
            guard let document = snapshot.jsonSchema(for: request.route.model!) else {
                return ErrorResponse.unknownModel(request.route.model!)
            }
            let etag = ModelEntry.etag(for: document)
            if let ifNoneMatch = request.header("if-none-match"), entityTags(ifNoneMatch).contains(where: { $0 == "*" || $0 == etag }) {
                return HTTPResponse(status: 304, headers: [("ETag", etag)])
            }
            var response = HTTPResponse.json(200, document)
            response.headers.append(("ETag", etag))
            return response
        case (.schema, "PUT"): return write(request, context: context)
        case (.schema, "DELETE"): return delete(request, context: context)
        default:
            let entry = snapshot.entries[request.route.model!]!
            var response = HTTPResponse.json(200, entry.document)
            response.headers.append(("ETag", entry.etag))
            return response
        }
    }

    private static func write(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse {
        let name = request.route.model!
        let body: [UInt8]
        switch ConversionEndpoint.decodedBody(request, limit: context.configuration.maxBodyBytes) {
        case .failure(let response): return response
        case .success(let bytes): body = Array(bytes)
        }
        return context.registryWrites.withLock { _ in
            let existed = context.registry.current.contains(name)
            do throws(SchemaSetError) {
                let file = SchemaFile(name: "(request)", bytes: body, source: .registry, impliedName: name)
                let snapshot = try context.registry.apply(upserts: [file], deletes: [])
                persist(context)
                let entry = snapshot.entries[name]!
                var response = HTTPResponse.json(existed ? 200 : 201, writtenJSON(name, entry, created: !existed))
                response.headers.append(("ETag", entry.etag))
                return response
            } catch {
                return ErrorResponse.invalidSchema(error.problems)
            }
        }
    }

    private static func writeBundle(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse {
        let body: [UInt8]
        switch ConversionEndpoint.decodedBody(request, limit: context.configuration.maxBodyBytes) {
        case .failure(let response): return response
        case .success(let bytes): body = Array(bytes)
        }
        return context.registryWrites.withLock { _ in
            let before = context.registry.current
            do throws(SchemaSetError) {
                let (snapshot, written) = try context.registry.applyBundle(body)
                persist(context)
                var out: [UInt8] = [UInt8(ascii: "[")]
                for (i, name) in written.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    out += writtenJSON(name, snapshot.entries[name]!, created: !before.contains(name))
                }
                out.append(UInt8(ascii: "]"))
                return .json(200, out)
            } catch {
                return ErrorResponse.invalidSchema(error.problems)
            }
        }
    }

    private static func delete(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse {
        let name = request.route.model!
        return context.registryWrites.withLock { _ in
            do throws(SchemaSetError) {
                _ = try context.registry.apply(upserts: [], deletes: [name])
                persist(context)
                return HTTPResponse(status: 204)
            } catch {
                let users = error.problems.map { "\($0.file) \($0.path)" }.joined(separator: ", ")
                return ErrorResponse.conflict(
                    "\(name) is still used (\(users)); delete it together with the models that use it in one bundle.")
            }
        }
    }

    private static func writtenJSON(_ name: String, _ entry: ModelEntry, created: Bool) -> [UInt8] {
        Array("{\"name\":".utf8) + ErrorResponse.jsonString(name) + Array(",\"version\":\(entry.version),\"etag\":".utf8)
            + ErrorResponse.jsonString(entry.etag) + Array(",\"created\":\(created)}".utf8)
    }

    /// Rewrites the overlay with every registry-written model and a deletion marker for each file model that is
    /// gone (API.md, Persistence); in memory only when there is no writable schema directory.
    static func persist(_ context: ServerContext) {
        guard let directory = context.overlayDirectory else { return }
        do {
            try RegistryOverlayFile.write(context.writtenOverlay(), in: directory)
        } catch {
            Log.event("registry_persist_failed", ["directory": directory, "error": "\(error)"])
        }
    }
}
