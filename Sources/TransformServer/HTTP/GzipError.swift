// SPDX-License-Identifier: Apache-2.0

/// Why a gzip request body could not be inflated: `.corrupt` answers 400 invalid_encoding, `.tooLarge` answers
/// 413 body_too_large and closes the connection (docs/api.md, "Compression": the body limit applies to the inflated
/// bytes too).
enum GzipError: Error, Equatable {
    /// The bytes are not a valid gzip stream; the text says what was wrong and at which compressed byte.
    case corrupt(String)
    /// Inflating produced more than `limit` bytes; decoding stopped there.
    case tooLarge(limit: Int)
}

extension GzipError: CustomStringConvertible {
    var description: String {
        switch self {
        case .corrupt(let detail): "The gzip-encoded body is corrupt: \(detail)."
        case .tooLarge(let limit): "The gzip-encoded body inflates to more than \(limit) bytes."
        }
    }
}

extension GzipError: HTTPResponseError {
    var status: HTTPStatus {
        switch self {
        case .corrupt: .badRequest
        case .tooLarge: .contentTooLarge
        }
    }

    var code: String {
        switch self {
        case .corrupt: "invalid_encoding"
        case .tooLarge: "body_too_large"
        }
    }

    var message: String {
        switch self {
        case .corrupt(let why): "The gzip body is corrupt: \(why)."
        case .tooLarge(let limit): "The inflated request body is larger than the limit of \(limit) bytes."
        }
    }

    /// docs/api.md counts 413 among the errors after which the connection closes.
    var closesConnection: Bool { if case .tooLarge = self { true } else { false } }
}
