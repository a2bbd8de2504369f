// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Synchronization

/// `GET|PUT /schemas/{Model}/config` and the dry run `POST /schemas/{Model}/compatibility` (docs/lifecycle.md).
enum SchemaLifecycleEndpoint {
    /// `GET|PUT /schemas/{Model}/config`.
    static func handle(_ request: RequestHandler.Request, model name: String, context: ServerContext) -> HTTPResponse {
        switch request.head.method {
        case .put: return configure(request, name: name, context: context)
        default:
            guard isModelName(name) else { return RequestError.unknownModel(name).response }
            return config(context.registry.current, name, context)
        }
    }

    /// `{"compatibility": …, "view": …}`, the effective values.
    private static func config(_ snapshot: RegistrySnapshot, _ name: String, _ context: ServerContext) -> HTTPResponse {
        let (level, view) = snapshot.effectiveConfig(of: name, defaults: context.registry.compatibilityDefaults)
        return .json(.ok, Array("{\"compatibility\":\"\(level.rawValue)\",\"view\":\"\(view.rawValue)\"}".utf8))
    }

    static func isModelName(_ name: String) -> Bool {
        guard let first = name.utf8.first,
            first == UInt8(ascii: "_")
                || (first | 0x20) >= UInt8(ascii: "a")
                    && (first | 0x20) <= UInt8(ascii: "z")
        else { return false }
        return name.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z")
                || $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
        }
    }

    private static func configure(_ request: RequestHandler.Request, name: String, context: ServerContext)
        -> HTTPResponse
    {
        guard isModelName(name) else { return RequestError.unknownModel(name).response }
        let body: [UInt8]
        switch ConversionEndpoint.decodedBody(request, limit: context.configuration.maxBodyBytes) {
        case .failure(let error): return error.response
        case .success(let bytes): body = Array(bytes)
        }
        switch CompatibilityConfig.parse(body) {
        case .failure(let error):
            return RequestError.invalidBody(
                code: error.code, message: "The configuration was rejected: \(error.message)."
            )
            .response
        case .success(let wanted):
            if let shared = context.shared {
                return SchemasEndpoint.sharedWrite(
                    .configure(name: name, level: wanted.level, view: wanted.view), shared)
            }
            return context.registryWrites.withLock { _ in
                let saver = RegistryOverlayFile.Saver(context)
                guard
                    let snapshot = context.registry.configure(
                        name, level: wanted.level, view: wanted.view,
                        persist: saver.save)
                else { return RequestError.notPersisted(saver.failure).response }
                return config(snapshot, name, context)
            }
        }
    }

    /// `POST /schemas/{Model}/compatibility`: `200 {"compatible", "level", "against", "differences"}`; nothing is
    /// stored.
    static func dryRun(_ request: RequestHandler.Request, model name: String, context: ServerContext) -> HTTPResponse {
        let body: [UInt8]
        switch ConversionEndpoint.decodedBody(request, limit: context.configuration.maxBodyBytes) {
        case .failure(let error): return error.response
        case .success(let bytes): body = Array(bytes)
        }
        let current = context.registry.current
        let proposed: RegistrySnapshot
        do throws(SchemaSetError) {
            proposed = try context.registry.propose(SchemaFile(name: "(request)", bytes: body, impliedName: name))
        } catch {
            return RequestError.invalidSchema(error.problems).response
        }
        let (configured, configuredView) = current.effectiveConfig(
            of: name, defaults: context.registry.compatibilityDefaults)
        let level = request.query["level"].flatMap(CompatibilityLevel.init) ?? configured
        let view = request.query["view"].flatMap(CompatibilityView.init) ?? configuredView
        var report = CompatibilityReport()
        current.checkCompatibility(of: name, proposed: proposed, level: level, view: view, into: &report)
        var out: [UInt8] = Array(
            "{\"compatible\":\(report.isCompatible),\"level\":\"\(level.rawValue)\",\"against\":".utf8)
        out +=
            CompatibilityJSON.against(report, bundle: false) + Array(",\"differences\":".utf8)
            + CompatibilityJSON.differences(report.differences, withModel: false) + [UInt8(ascii: "}")]
        return .json(.ok, out)
    }
}
