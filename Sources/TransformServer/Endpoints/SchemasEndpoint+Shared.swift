// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// Registry writes through the shared store (`registryStore: etcd`, docs/cluster.md): the answers of the local
/// writes, plus `503` (store unreachable, no quorum, not synced yet, or an unknown outcome) with `Retry-After` and
/// `413 body_too_large` when etcd refuses a transaction for its size.
extension SchemasEndpoint {
    /// `more`: members added to a written model's entry of a bundle's answer, by model name (the import's).
    static func sharedWrite(
        _ write: SharedRegistry.Write, _ shared: SharedRegistry,
        more: [String: [UInt8]] = [:]
    ) -> HTTPResponse {
        switch shared.write(write) {
        case .written(let written):
            if case .put = write, let (name, entry, created) = written.first {
                var response = HTTPResponse.json(created ? .created : .ok, writtenJSON(name, entry, created: created))
                response.headers.append((HTTPHeader.etag, entry.etag))
                return response
            }
            var out: [UInt8] = [UInt8(ascii: "[")]
            for (i, (name, entry, created)) in written.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out += writtenJSON(name, entry, created: created, more: more[name])
            }
            out.append(UInt8(ascii: "]"))
            return .json(.ok, out)
        case .deleted:
            return HTTPResponse(status: .noContent)
        case .configured(let level, let view):
            return .json(.ok, Array("{\"compatibility\":\"\(level.rawValue)\",\"view\":\"\(view.rawValue)\"}".utf8))
        case .incompatible(let report):
            if case .bundle = write { return RequestError.incompatibleSchema(report, bundle: true).response }
            return RequestError.incompatibleSchema(report, bundle: false).response
        case .invalid(let error):
            return RequestError.invalidSchema(error.problems).response
        case .stillUsed(let name, let error):
            let users = error.problems.map { "\($0.file) \($0.path)" }.joined(separator: ", ")
            return RequestError.conflict(
                "\(name) is still used (\(users)); delete it together with the models that use it in one bundle."
            ).response
        case .preconditionFailed(let message):
            return RequestError.preconditionFailed(message).response
        case .unknownModel(let name):
            return RequestError.unknownModel(name).response
        case .unavailable(let why):
            return RequestError.storeUnavailable("The registry cannot take writes now: \(why).").response
        case .unknownOutcome(let why):
            return RequestError.storeUnavailable(why).response
        case .tooLarge(let why):
            return RequestError.changeTooLarge(why).response
        }
    }
}
