// SPDX-License-Identifier: Apache-2.0

/// One thing wrong with a schema set: which file, where in it (an RFC 6901 pointer), and why.
public struct SchemaProblem: Sendable, Equatable, Hashable {
    /// The file (or `"(request)"` for documents sent through the API) holding the problem.
    public var file: String
    /// The JSON Pointer of the offending value inside that file or request body.
    public var path: String
    /// One sentence saying what is wrong.
    public var message: String

    /// Creates a problem report.
    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }
}

extension SchemaProblem: CustomStringConvertible {
    /// `file: /pointer: message`, the line `TransformServer check` prints.
    public var description: String { "\(file): \(path.isEmpty ? "/" : path): \(message)" }
}
