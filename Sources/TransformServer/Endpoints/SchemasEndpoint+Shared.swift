// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// Registry writes through the shared store (`registryStore: etcd`, docs/cluster.md): the answers of the local
/// writes, plus `503` (store unreachable, no quorum, not synced yet, or an unknown outcome) with `Retry-After` and
/// `413 body_too_large` when etcd refuses a transaction for its size.
extension SchemasEndpoint {
    /// `more`: members added to a written model's entry of a bundle's answer, by model name (the import's).
    static func sharedWrite(_ write: SharedRegistry.Write, _ shared: SharedRegistry,
                            more: [String: [UInt8]] = [:]) -> HTTPResponse {
        switch shared.write(write) {
        case .written(let written):
            if case .put = write, let (name, entry, created) = written.first {
                var response = HTTPResponse.json(created ? 201 : 200, writtenJSON(name, entry, created: created))
                response.headers.append(("ETag", entry.etag))
                return response
            }
            var out: [UInt8] = [UInt8(ascii: "[")]
            for (i, (name, entry, created)) in written.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out += writtenJSON(name, entry, created: created, more: more[name])
            }
            out.append(UInt8(ascii: "]"))
            return .json(200, out)
        case .deleted:
            return HTTPResponse(status: 204)
        case .configured(let level, let view):
            return .json(200, Array("{\"compatibility\":\"\(level.rawValue)\",\"view\":\"\(view.rawValue)\"}".utf8))
        case .incompatible(let report):
            if case .bundle = write { return ErrorResponse.incompatibleSchema(report, bundle: true) }
            return ErrorResponse.incompatibleSchema(report, bundle: false)
        case .invalid(let error):
            return ErrorResponse.invalidSchema(error.problems)
        case .stillUsed(let name, let error):
            let users = error.problems.map { "\($0.file) \($0.path)" }.joined(separator: ", ")
            return ErrorResponse.conflict(
                "\(name) is still used (\(users)); delete it together with the models that use it in one bundle.")
        case .preconditionFailed(let message):
            return ErrorResponse.preconditionFailed(message)
        case .unknownModel(let name):
            return ErrorResponse.unknownModel(name)
        case .unavailable(let why):
            return ErrorResponse.make(503, "unavailable", "The registry cannot take writes now: \(why).",
                                      headers: [("Retry-After", "1")])
        case .unknownOutcome(let why):
            return ErrorResponse.make(503, "unavailable", why, headers: [("Retry-After", "1")])
        case .tooLarge(let why):
            return ErrorResponse.make(413, "body_too_large",
                                      "The bundle is larger than one etcd transaction allows; nothing changed (\(why)).")
        }
    }
}
