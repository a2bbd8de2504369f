// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `GET /schemas/{Model}/versions` and `GET /schemas/{Model}/versions/{n}` (docs/lifecycle.md, History): the kept
/// versions of a name, oldest first, and one version's canonical bytes with its ETag.
enum SchemaVersionsEndpoint {
    static func handle(_ request: RequestHandler.Request) -> HTTPResponse {
        let name = request.route.model!
        let lifecycle = request.snapshot.lifecycles[name] ?? ModelLifecycle()
        guard case .version(let text) = request.route.kind else { return list(name, lifecycle) }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = Int(text),
              let kept = lifecycle.version(number)
        else { return RequestError.unknownVersion(model: name, version: text).response }
        if let ifNoneMatch = request.header(HTTPHeader.Request.ifNoneMatch),
           SchemasEndpoint.noneMatchFails(ifNoneMatch, etag: kept.etag) {
            return RequestError.notModified(etag: kept.etag).response
        }
        return SchemasEndpoint.read(kept.document, etag: kept.etag)
    }

    /// `{"name": "M", "versions": [{"version": 1, "etag": "\"…\"", "createdAt": "…"}, …]}`.
    private static func list(_ name: String, _ lifecycle: ModelLifecycle) -> HTTPResponse {
        var body: [UInt8] = Array("{\"name\":".utf8) + ErrorResponse.jsonString(name) + Array(",\"versions\":[".utf8)
        for (i, version) in lifecycle.versions.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body += Array("{\"version\":\(version.version),\"etag\":".utf8) + ErrorResponse.jsonString(version.etag)
                + Array(",\"createdAt\":".utf8) + ErrorResponse.jsonString(version.createdAt) + [UInt8(ascii: "}")]
        }
        body += Array("]}".utf8)
        return SchemasEndpoint.read(body, etag: nil)
    }
}
