// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `GET /schemas/{Model}/versions` and `GET /schemas/{Model}/versions/{n}` (docs/lifecycle.md, History): the kept
/// versions of a name, oldest first, and one version's canonical bytes with its ETag.
enum SchemaVersionsEndpoint {
    /// `GET /schemas/{Model}/versions/{n}`: `number` as written in the path.
    static func version(_ request: RequestHandler.Request, model name: String, number text: String) -> HTTPResponse {
        let lifecycle = request.snapshot.lifecycles[name] ?? ModelLifecycle()
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = Int(text),
            let kept = lifecycle.version(number)
        else { return RequestError.unknownVersion(model: name, version: text).response }
        if let ifNoneMatch = request.header(HTTPHeader.Request.ifNoneMatch),
            SchemasEndpoint.noneMatchFails(ifNoneMatch, etag: kept.etag)
        {
            return RequestError.notModified(etag: kept.etag).response
        }
        return SchemasEndpoint.read(kept.document, etag: kept.etag)
    }

    /// `GET /schemas/{Model}/versions`:
    /// `{"name": "M", "versions": [{"version": 1, "etag": "\"…\"", "createdAt": "…"}, …]}`.
    static func list(_ request: RequestHandler.Request, model name: String) -> HTTPResponse {
        let lifecycle = request.snapshot.lifecycles[name] ?? ModelLifecycle()
        var body: [UInt8] = Array("{\"name\":".utf8) + ErrorResponse.jsonString(name) + Array(",\"versions\":[".utf8)
        for (i, version) in lifecycle.versions.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body +=
                Array("{\"version\":\(version.version),\"etag\":".utf8) + ErrorResponse.jsonString(version.etag)
                + Array(",\"createdAt\":".utf8) + ErrorResponse.jsonString(version.createdAt) + [UInt8(ascii: "}")]
        }
        body += Array("]}".utf8)
        return SchemasEndpoint.read(body, etag: nil)
    }
}
