// SPDX-License-Identifier: Apache-2.0

/// The conversion endpoints' query parameters (API.md): names and values percent-decoded and case-sensitive; an
/// unknown, repeated, valueless, empty, bad or misplaced parameter is `400 invalid_parameter`.
enum QueryParameters {
    /// Which parameters a route takes, with their allowed values.
    static func allowed(for route: Route) -> [String: Set<String>] {
        var allowed: [String: Set<String>] = ["mode": ["lax", "strict"]]
        switch route.kind {
        case .conversion(let operation, let batch):
            allowed["from"] = ["wire", "model"]
            if operation == .convert { allowed["keys"] = ["names", "mapped"] }
            if batch == .single { allowed["hash"] = ["false", "true"] }
        case .compare: allowed["from"] = ["wire", "model"]
        case .merge:
            allowed["keys"] = ["names", "mapped"]
            allowed["hash"] = ["false", "true"]
        default: return [:]
        }
        return allowed
    }

    static func parse(_ raw: Substring?, for route: Route) -> Result<[String: String], HTTPResponse> {
        guard let raw, !raw.isEmpty else { return .success([:]) }
        let allowed = allowed(for: route)
        var result: [String: String] = [:]
        for pair in raw.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "=") else {
                return .failure(ErrorResponse.invalidParameter("Query parameter \"\(pair)\" has no value."))
            }
            guard let name = Router.percentDecode(pair[..<equals].replacingPlus()),
                  let value = Router.percentDecode(pair[pair.index(after: equals)...].replacingPlus())
            else { return .failure(ErrorResponse.invalidParameter("Query parameter \"\(pair)\" is not valid percent-encoding.")) }
            guard let values = allowed[name] else {
                return .failure(ErrorResponse.invalidParameter("This endpoint takes no parameter \"\(name)\"."))
            }
            guard result[name] == nil else {
                return .failure(ErrorResponse.invalidParameter("Query parameter \"\(name)\" is repeated."))
            }
            guard values.contains(value) else {
                let expected = values.sorted().joined(separator: " or ")
                return .failure(ErrorResponse.invalidParameter("Query parameter \"\(name)\" must be \(expected), not \"\(value)\"."))
            }
            result[name] = value
        }
        return .success(result)
    }
}

extension Substring {
    /// Query strings keep `+` as a literal plus (API.md decodes percent escapes only).
    fileprivate func replacingPlus() -> Substring { self }
}
