// SPDX-License-Identifier: Apache-2.0

/// Why a gzip request body could not be inflated: `.corrupt` answers 400 invalid_encoding, `.tooLarge` answers
/// 413 body_too_large (docs/api.md, "Compression": the body limit applies to the inflated bytes too).
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
