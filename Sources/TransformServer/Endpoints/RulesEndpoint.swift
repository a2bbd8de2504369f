// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `POST /rules/evaluate` (docs/api.md): tries one rule expression against sample variables; no token needed.
enum RulesEndpoint {
    static func handle(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse {
        let limit = context.configuration.maxBodyBytes
        let body: ArraySlice<UInt8>
        switch ConversionEndpoint.decodedBody(request, limit: limit) {
        case .failure(let error): return error.response
        case .success(let bytes): body = bytes
        }
        let outcome = body.withUnsafeBytes {
            RuleTrial.evaluate(
                $0, maxSteps: context.configuration.maxRuleSteps, maxBytes: limit,
                maxDepth: context.configuration.maxNestingDepth)
        }
        switch outcome {
        case .value(let json): return .json(.ok, json)
        case .badBody(let error): return error.response
        case .invalidRule(let message, let offset): return RequestError.invalidRule(message, offset: offset).response
        case .failed(let message): return RequestError.ruleFailed(message).response
        }
    }
}
