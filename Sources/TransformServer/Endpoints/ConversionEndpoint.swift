// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `POST /convert|/normalize|/validate/{Model}[/array|/dictionary]`, `POST /compare/{Model}` and
/// `POST /merge/{Model}`.
enum ConversionEndpoint {
    // MARK: - Head checks

    /// docs/api.md, "Bodies and content types": absent, `application/json` or `application/*+json` (charset utf-8
    /// only), or `application/x-ndjson` on the `/array` endpoints; anything else is 415.
    static func checkMediaType(_ head: HTTPRequestHead, route: Route) -> RequestError? {
        guard let value = head.firstValue(of: HTTPHeader.Request.contentType) else { return nil }
        guard let type = MediaType.parse(value) else {
            return .unsupportedMediaType("Content-Type \"\(value)\" is not a media type.")
        }
        if let charset = type.charset, charset != "utf-8" {
            return .unsupportedMediaType("Only the utf-8 charset is accepted, not \"\(charset)\".")
        }
        if type.isJSON { return nil }
        if type.isNDJSON, route.isArrayConversion { return nil }
        return .unsupportedMediaType(
            "Content-Type \"\(value)\" is not accepted here; send application/json"
                + (route.isArrayConversion ? " or application/x-ndjson." : "."))
    }

    /// `Content-Encoding` may be gzip, x-gzip or identity.
    static func checkContentCoding(_ head: HTTPRequestHead) -> RequestError? {
        guard let coding = head.firstValue(of: HTTPHeader.Request.contentEncoding) else { return nil }
        switch coding.trimmingCharacters(in: " \t").lowercased() {
        case "gzip", "x-gzip", "identity": return nil
        default:
            return .unsupportedMediaType(
                "Content-Encoding \"\(coding)\" is not supported; use gzip.",
                acceptEncoding: true)
        }
    }

    static func isGzip(_ head: HTTPRequestHead) -> Bool {
        guard let coding = head.firstValue(of: HTTPHeader.Request.contentEncoding) else { return false }
        let lowered = coding.trimmingCharacters(in: " \t").lowercased()
        return lowered == "gzip" || lowered == "x-gzip"
    }

    /// The body after content decoding, or why it has none (413 over the limit, 400 corrupt).
    static func decodedBody(_ request: RequestHandler.Request, limit: Int) -> Result<ArraySlice<UInt8>, GzipError> {
        BodyLimit(bytes: limit).decode(request.body, gzip: isGzip(request.head))
    }

    // MARK: - Conversion

    /// What a conversion route asks of MapperCore.
    enum Work {
        case convert(Route.Operation, Route.Batch)
        case compare
        case merge
    }

    /// Converts the body with the model's current version, or the pinned one (`?version=N`); every answer once the
    /// model is resolved carries `X-Model-Version` (docs/lifecycle.md), its text rendered once per snapshot.
    static func handle(
        _ request: RequestHandler.Request, _ work: Work, model: String,
        context: ServerContext
    ) -> HTTPResponse {
        let snapshot = request.pinned ?? context.registry.current
        var response = convert(request, work, model: model, snapshot: snapshot, context: context)
        if let version = snapshot.versionText(of: model) {
            response.headers.append((HTTPHeader.xModelVersion, version))
        }
        return response
    }

    private static func convert(
        _ request: RequestHandler.Request, _ work: Work, model: String,
        snapshot: RegistrySnapshot, context: ServerContext
    ) -> HTTPResponse {
        // NDJSON bodies never get here: they are streamed (`NDJSONStream`).
        let body: ArraySlice<UInt8>
        switch decodedBody(request, limit: context.configuration.maxBodyBytes) {
        case .failure(let error): return error.response
        case .success(let bytes): body = bytes
        }
        let normalizes = if case .convert(.normalize, _) = work { true } else { false }
        let options = QueryParameters.conversionOptions(
            request.query, defaults: context.conversionOptions,
            writesWire: normalizes)
        let result: Result<(HTTPResponse, [DiagnosticCode]), MappingError> = body.withUnsafeBytes { bytes in
            Result { () throws(MappingError) in
                let converted: Converted
                switch work {
                case .compare:
                    converted = try snapshot.compare(bytes, model: model, options: options)
                case .merge:
                    converted = try snapshot.merge(bytes, model: model, options: options)
                case .convert(let operation, let batch):
                    switch (operation, batch) {
                    case (.validate, .single):
                        let valid = try snapshot.validate(bytes, model: model, options: options)
                        var response = HTTPResponse.json(.ok, valid.report.render())
                        response.headers.append((HTTPHeader.xTransformWarnings, String(valid.report.entries.count)))
                        if let hash = valid.modelHash { response.headers.append((HTTPHeader.xModelHash, hash)) }
                        return (response, valid.report.entries.map(\.code))
                    case (.validate, _):
                        let report = try snapshot.validateArray(bytes, model: model, options: options)
                        var response = HTTPResponse.json(.ok, report.render())
                        response.headers.append((HTTPHeader.xTransformWarnings, String(report.entries.count)))
                        return (response, report.entries.map(\.code))
                    case (_, .single):
                        converted = try snapshot.convert(bytes, model: model, options: options)
                    case (_, .array):
                        converted = try snapshot.convertArray(bytes, model: model, options: options)
                    case (_, .dictionary):
                        converted = try snapshot.convertDictionary(bytes, model: model, options: options)
                    }
                }
                return (success(converted), converted.diagnosticCodes)
            }
        }
        switch result {
        case .success(let (response, codes)):
            context.metrics.recordConversion(model: model, outcome: "ok")
            recordWarnings(codes, context: context)
            return response
        case .failure(let error):
            context.metrics.recordConversion(
                model: model, outcome: error.status == .unprocessableContent ? "invalid" : "error")
            if case .validationFailed(let report) = error {
                recordWarnings(report.entries.map(\.code), context: context)
            }
            return error.response
        }
    }

    /// `transform_warnings_total{code}`: every report entry, counted by code.
    private static func recordWarnings(_ codes: [DiagnosticCode], context: ServerContext) {
        var counts: [String: Int] = [:]
        for code in codes { counts[code.rawValue, default: 0] += 1 }
        for (code, count) in counts { context.metrics.recordWarnings(code: code, count: count) }
    }

    private static func success(_ converted: Converted) -> HTTPResponse {
        var response = HTTPResponse.json(.ok, converted.body)
        response.headers.append((HTTPHeader.xTransformWarnings, String(converted.warnings)))
        if let hash = converted.modelHash { response.headers.append((HTTPHeader.xModelHash, hash)) }
        return response
    }
}
