// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// MapperCore's errors as the server answers them (docs/errors.md): MapperCore names the failure and its `code`;
/// the status and the body's fields are the server's.
extension MappingError: HTTPResponseError {
    var status: HTTPStatus {
        switch self {
        case .invalidJSON, .nestingTooDeep, .notAnObject, .notAnArray: .badRequest
        case .validationFailed: .unprocessableContent
        case .unknownModel: .notFound
        }
    }

    var message: String {
        switch self {
        case .invalidJSON(let at), .nestingTooDeep(let at): at.message
        case .notAnObject(let message), .notAnArray(let message): message
        case .validationFailed(let report): report.summary
        case .unknownModel: description
        }
    }

    /// Where the JSON stopped being acceptable: `offset`, `line` and `column`.
    func writeExtraFields(into out: inout [UInt8]) {
        switch self {
        case .invalidJSON(let at), .nestingTooDeep(let at):
            out.append(contentsOf: ",\"offset\":\(at.offset),\"line\":\(at.line),\"column\":\(at.column)".utf8)
        default: break
        }
    }

    /// A 422 is the validation report, behind its `error` member.
    func writeBodyMembers(into out: inout [UInt8]) {
        guard case .validationFailed(let report) = self else { return }
        out.append(UInt8(ascii: ","))
        report.writeMembers(into: &out)
    }
}
