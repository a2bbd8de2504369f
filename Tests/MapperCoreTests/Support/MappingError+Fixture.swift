// SPDX-License-Identifier: Apache-2.0

@testable import MapperCore

/// How these suites show a failure. MapperCore knows no HTTP: the statuses and error bodies the server answers with
/// are its own (`MappingError+HTTP.swift`, `ErrorResponse.swift`) and are checked in TransformServerTests. Here a
/// failure is its class (written as the status it gets, so the suites read like docs/errors.md) and a text that
/// holds everything MapperCore gives it: code, message, location, report.
extension MappingError {
    /// 422 for an invalid model, 404 for an unknown one, 400 for a body that is not what was asked for.
    var status: Int {
        switch self {
        case .validationFailed: 422
        case .unknownModel: 404
        case .invalidJSON, .nestingTooDeep, .notAnObject, .notAnArray: 400
        }
    }

    /// `{"error":{"code":…,"message":…[,"requestId":…][,"offset":…,"line":…,"column":…]}[,report members]}`.
    func body(requestId: String?) -> [UInt8] {
        var out: [UInt8] = Array("{\"error\":{\"code\":\"\(code)\",\"message\":".utf8)
        let message: String
        switch self {
        case .invalidJSON(let at), .nestingTooDeep(let at): message = at.message
        case .validationFailed(let report): message = report.summary
        case .notAnObject(let text), .notAnArray(let text): message = text
        case .unknownModel: message = description
        }
        out.appendJSONString(message)
        if let requestId {
            out += Array(",\"requestId\":".utf8)
            out.appendJSONString(requestId)
        }
        switch self {
        case .invalidJSON(let at), .nestingTooDeep(let at):
            out += Array(",\"offset\":\(at.offset),\"line\":\(at.line),\"column\":\(at.column)}".utf8)
        case .validationFailed(let report):
            out += Array("},".utf8)
            report.writeMembers(into: &out)
        case .notAnObject, .notAnArray, .unknownModel:
            out.append(.closeBrace)
        }
        out.append(.closeBrace)
        return out
    }
}
