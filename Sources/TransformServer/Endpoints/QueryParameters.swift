// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// The conversion endpoints' query parameters (docs/api.md, "Query parameters"): names and values percent-decoded and
/// case-sensitive; an unknown, repeated, valueless, empty, bad or misplaced parameter is `400 invalid_parameter`.
enum QueryParameters {
    /// The parameters whose value is a version number (1 or more, decimal digits) rather than one of a set.
    static let versionNumber: Set<String> = ["#version"]

    /// Which parameters a route takes, with their allowed values.
    static func allowed(for route: Route) -> [String: Set<String>] {
        var allowed: [String: Set<String>] = ["mode": ["lax", "strict"]]
        switch route.kind {
        case .conversion(let operation, let batch, _):
            allowed["from"] = ["wire", "model"]
            if operation == .convert { allowed["keys"] = ["names", "mapped"] }
            if batch == .single { allowed["hash"] = ["false", "true"] }
        case .compare: allowed["from"] = ["wire", "model"]
        case .merge:
            allowed["keys"] = ["names", "mapped"]
            allowed["hash"] = ["false", "true"]
        case .compatibility, .replay:
            // docs/lifecycle.md: `level` and `view` default to the model's configuration.
            allowed["level"] = Set(CompatibilityLevel.allCases.map(\.rawValue))
            allowed["view"] = Set(CompatibilityView.allCases.map(\.rawValue))
            return allowed
        default: return [:]
        }
        allowed["version"] = versionNumber  // docs/lifecycle.md, Pinning: every conversion endpoint
        return allowed
    }

    static func parse(_ raw: Substring?, for route: Route) -> Result<[String: String], RequestError> {
        guard let raw, !raw.isEmpty else { return .success([:]) }
        let allowed = allowed(for: route)
        var result: [String: String] = [:]
        for pair in raw.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "=") else {
                return .failure(.invalidParameter("Query parameter \"\(pair)\" has no value."))
            }
            guard let name = Router.percentDecode(pair[..<equals].replacingPlus()),
                let value = Router.percentDecode(pair[pair.index(after: equals)...].replacingPlus())
            else { return .failure(.invalidParameter("Query parameter \"\(pair)\" is not valid percent-encoding.")) }
            guard let values = allowed[name] else {
                return .failure(.invalidParameter("This endpoint takes no parameter \"\(name)\"."))
            }
            guard result[name] == nil else {
                return .failure(.invalidParameter("Query parameter \"\(name)\" is repeated."))
            }
            if values == versionNumber {
                guard let number = Int(value), number >= 1, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    return .failure(
                        .invalidParameter(
                            "Query parameter \"\(name)\" must be a version number (1 or more), not \"\(value)\"."))
                }
                result[name] = String(number)
                continue
            }
            guard values.contains(value) else {
                let expected = values.sorted().joined(separator: " or ")
                return .failure(.invalidParameter("Query parameter \"\(name)\" must be \(expected), not \"\(value)\"."))
            }
            result[name] = value
        }
        return .success(result)
    }
}

extension QueryParameters {
    /// The conversion options a request's query asks for (docs/api.md, query parameters) over the server's
    /// `defaults`: `mode`, `from`, `keys` and `hash`; `writesWire` for the routes that always write the wire form
    /// (`/normalize`). A parameter a route does not take never reaches here (`parse` refused it), so it keeps its
    /// default.
    static func conversionOptions(
        _ query: [String: String], defaults: ConversionOptions,
        writesWire: Bool = false
    ) -> ConversionOptions {
        var options = defaults
        options.mode = query["mode"] == "strict" ? .strict : .lax
        options.input = query["from"] == "model" ? .model : .wire
        options.output = writesWire || query["keys"] == "mapped" ? .wire : .model
        options.hash = query["hash"] == "true"
        return options
    }

    /// The values of `names` in a query that registry routes otherwise ignore: no errors, the first value wins.
    static func lenient(_ raw: Substring?, keeping names: Set<String>) -> [String: String] {
        var result: [String: String] = [:]
        for pair in (raw ?? "").split(separator: "&") {
            guard let equals = pair.firstIndex(of: "="), let name = Router.percentDecode(pair[..<equals]),
                names.contains(name), result[name] == nil,
                let value = Router.percentDecode(pair[pair.index(after: equals)...])
            else { continue }
            result[name] = value
        }
        return result
    }
}

extension Substring {
    /// Query strings keep `+` as a literal plus (docs/api.md decodes percent escapes only).
    fileprivate func replacingPlus() -> Substring { self }
}
