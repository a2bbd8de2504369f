// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `POST /convert|/normalize|/validate/{Model}[/array|/dictionary]`, `POST /compare/{Model}` and
/// `POST /merge/{Model}`.
enum ConversionEndpoint {
    // MARK: - Head checks

    /// docs/api.md, "Bodies and content types": absent, `application/json` or `application/*+json` (charset utf-8
    /// only), or `application/x-ndjson` on the `/array` endpoints; anything else is 415.
    static func checkMediaType(_ head: HTTPRequestHead, route: Route) -> HTTPResponse? {
        guard let value = head.firstValue(of: "content-type") else { return nil }
        guard let type = MediaType.parse(value) else {
            return ErrorResponse.unsupportedMediaType("Content-Type \"\(value)\" is not a media type.")
        }
        if let charset = type.charset, charset != "utf-8" {
            return ErrorResponse.unsupportedMediaType("Only the utf-8 charset is accepted, not \"\(charset)\".")
        }
        if type.isJSON { return nil }
        if type.isNDJSON, case .conversion(_, .array) = route.kind { return nil }
        return ErrorResponse.unsupportedMediaType("Content-Type \"\(value)\" is not accepted here; send application/json"
            + (route.kind == .conversion(.convert, .array) || route.kind == .conversion(.normalize, .array)
               || route.kind == .conversion(.validate, .array) ? " or application/x-ndjson." : "."))
    }

    /// `Content-Encoding` may be gzip, x-gzip or identity.
    static func checkContentCoding(_ head: HTTPRequestHead) -> HTTPResponse? {
        guard let coding = head.firstValue(of: "content-encoding") else { return nil }
        switch coding.trimmingCharacters(in: " \t").lowercased() {
        case "gzip", "x-gzip", "identity": return nil
        default:
            return ErrorResponse.unsupportedMediaType("Content-Encoding \"\(coding)\" is not supported; use gzip.",
                                                      acceptEncoding: true)
        }
    }

    static func isGzip(_ head: HTTPRequestHead) -> Bool {
        guard let coding = head.firstValue(of: "content-encoding") else { return false }
        let lowered = coding.trimmingCharacters(in: " \t").lowercased()
        return lowered == "gzip" || lowered == "x-gzip"
    }

    /// The body after content decoding, or the error response (413 over the limit, 400 corrupt).
    static func decodedBody(_ request: RequestHandler.Request, limit: Int) -> Result<ArraySlice<UInt8>, HTTPResponse> {
        guard isGzip(request.head) else { return .success(request.body) }
        let inflated = request.body.withUnsafeBytes { Gzip.inflate($0, limit: limit) }
        switch inflated {
        case .success(let bytes): return .success(bytes[...])
        case .failure(.tooLarge(let limit)):
            // docs/api.md counts 413 among the errors after which the connection closes.
            return .failure(ErrorResponse.make(413, "body_too_large",
                                               "The inflated request body is larger than the limit of \(limit) bytes.",
                                               close: true))
        case .failure(.corrupt(let why)): return .failure(ErrorResponse.invalidEncoding("The gzip body is corrupt: \(why)."))
        }
    }

    // MARK: - Conversion

    /// Converts the body with the model's current version, or the pinned one (`?version=N`); every answer once the
    /// model is resolved carries `X-Model-Version` (docs/lifecycle.md), its text rendered once per snapshot.
    static func handle(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse {
        let snapshot = request.pinned ?? context.registry.current
        var response = convert(request, snapshot: snapshot, context: context)
        if let version = snapshot.versionText(of: request.route.model!) {
            response.headers.append(("X-Model-Version", version))
        }
        return response
    }

    private static func convert(_ request: RequestHandler.Request, snapshot: RegistrySnapshot,
                                context: ServerContext) -> HTTPResponse {
        // NDJSON bodies never get here: they are streamed (`NDJSONStream`).
        let body: ArraySlice<UInt8>
        switch decodedBody(request, limit: context.configuration.maxBodyBytes) {
        case .failure(let response): return response
        case .success(let bytes): body = bytes
        }
        let model = request.route.model!
        var options = context.conversionOptions
        options.mode = request.query["mode"] == "strict" ? .strict : .lax
        options.input = request.query["from"] == "model" ? .model : .wire
        options.hash = request.query["hash"] == "true"
        let result: Result<(HTTPResponse, [DiagnosticCode]), MappingError> = body.withUnsafeBytes { bytes in
            Result { () throws(MappingError) in
                let converted: Converted
                switch request.route.kind {
                case .compare:
                    converted = try snapshot.compare(bytes, model: model, options: options)
                case .merge:
                    options.output = request.query["keys"] == "mapped" ? .wire : .model
                    converted = try snapshot.merge(bytes, model: model, options: options)
                case .conversion(let operation, let batch):
                    options.output = operation == .normalize || request.query["keys"] == "mapped" ? .wire : .model
                    switch (operation, batch) {
                    case (.validate, .single):
                        let valid = try snapshot.validate(bytes, model: model, options: options)
                        var response = HTTPResponse.json(200, valid.report.render(requestId: nil, includeError: false))
                        response.headers.append(("X-Transform-Warnings", String(valid.report.entries.count)))
                        if let hash = valid.modelHash { response.headers.append(("X-Model-Hash", hash)) }
                        return (response, valid.report.entries.map(\.code))
                    case (.validate, _):
                        let report = try snapshot.validateArray(bytes, model: model, options: options)
                        var response = HTTPResponse.json(200, report.render(requestId: nil, includeError: false))
                        response.headers.append(("X-Transform-Warnings", String(report.entries.count)))
                        return (response, report.entries.map(\.code))
                    case (_, .single):
                        converted = try snapshot.convert(bytes, model: model, options: options)
                    case (_, .array):
                        converted = try snapshot.convertArray(bytes, model: model, options: options)
                    case (_, .dictionary):
                        converted = try snapshot.convertDictionary(bytes, model: model, options: options)
                    }
                default:
                    preconditionFailure("not a conversion route")
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
            context.metrics.recordConversion(model: model, outcome: error.status == 422 ? "invalid" : "error")
            if case .validationFailed(let report) = error { recordWarnings(report.entries.map(\.code), context: context) }
            return ErrorResponse.mapping(error, requestId: request.requestId)
        }
    }

    /// `transform_warnings_total{code}`: every report entry, counted by code.
    private static func recordWarnings(_ codes: [DiagnosticCode], context: ServerContext) {
        var counts: [String: Int] = [:]
        for code in codes { counts[code.rawValue, default: 0] += 1 }
        for (code, count) in counts { context.metrics.recordWarnings(code: code, count: count) }
    }

    private static func success(_ converted: Converted) -> HTTPResponse {
        var response = HTTPResponse.json(200, converted.body)
        response.headers.append(("X-Transform-Warnings", String(converted.warnings)))
        if let hash = converted.modelHash { response.headers.append(("X-Model-Hash", hash)) }
        return response
    }
}
