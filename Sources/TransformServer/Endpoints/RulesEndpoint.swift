// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `POST /rules/evaluate` (docs/api.md): tries one rule expression against sample variables; no token needed.
enum RulesEndpoint {
    static func handle(_ request: RequestHandler.Request, context: ServerContext) -> HTTPResponse {
        let limit = context.configuration.maxBodyBytes
        let body: ArraySlice<UInt8>
        switch ConversionEndpoint.decodedBody(request, limit: limit) {
        case .failure(let response): return response
        case .success(let bytes): body = bytes
        }
        let outcome = body.withUnsafeBytes {
            RuleTrial.evaluate($0, maxSteps: context.configuration.maxRuleSteps, maxBytes: limit,
                               maxDepth: context.configuration.maxNestingDepth)
        }
        switch outcome {
        case .value(let json): return .json(200, json)
        case .badBody(let error): return ErrorResponse.mapping(error, requestId: request.requestId)
        case .invalidRule(let message, let offset):
            return ErrorResponse.make(400, "invalid_rule", message, extra: Array(",\"offset\":\(offset)".utf8))
        case .failed(let message): return ErrorResponse.make(422, "rule_failed", message)
        }
    }
}
