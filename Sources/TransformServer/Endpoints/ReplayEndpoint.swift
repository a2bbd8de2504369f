// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `POST /schemas/{Model}/replay` (docs/lifecycle.md, Replay): no token, nothing stored; the body limit is the
/// `/array` one.
enum ReplayEndpoint {
    static func handle(_ request: RequestHandler.Request, model name: String, context: ServerContext) -> HTTPResponse {
        let body: [UInt8]
        switch ConversionEndpoint.decodedBody(request, limit: context.configuration.maxBodyBytes) {
        case .failure(let error): return error.response
        case .success(let bytes): body = Array(bytes)
        }
        let parsed: (schema: [UInt8], documents: [[UInt8]])
        do throws(Replay.BodyError) {
            parsed = try Replay.parse(body, maxDepth: context.configuration.maxNestingDepth)
        } catch {
            return RequestError.invalidBody(
                code: error.code, message: "The replay body was rejected: \(error.message)."
            )
            .response
        }
        let current = context.registry.current
        let proposed: RegistrySnapshot
        do throws(SchemaSetError) {
            proposed = try context.registry.propose(
                SchemaFile(name: "(request)", bytes: parsed.schema, impliedName: name))
        } catch {
            return RequestError.invalidSchema(
                error.problems.map { problem in
                    var moved = problem
                    moved.path = "/schema" + problem.path
                    return moved
                }
            ).response
        }
        let options = QueryParameters.conversionOptions(request.query, defaults: context.conversionOptions)
        return .json(
            .ok,
            Replay.run(
                parsed.documents, model: name, current: current, proposed: proposed,
                options: options, maxEntries: context.configuration.maxReportEntries,
                failureBody: { ErrorResponse.body($0, requestId: nil) }))
    }
}
