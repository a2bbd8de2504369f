// SPDX-License-Identifier: Apache-2.0

/// A model's `keyCase` (msgspec's `rename=`): the wire key of every property without `key` is its name in this case.
///
/// A name splits into words before an upper-case letter that follows a lower-case letter or a digit, before the
/// last capital of a run that a lower-case letter follows, and at `_` and `-` (which are dropped); each word is
/// lower-cased, then joined:
///
///     userID      → user_id    userId     UserId     user-id
///     HTTPServer  → http_server httpServer HttpServer http-server
///     avatarURL2  → avatar_url2 avatarUrl2 AvatarUrl2 avatar-url2
enum KeyCase: String, Sendable, CaseIterable {
    case snake = "snake_case"
    case camel = "camelCase"
    case pascal = "PascalCase"
    case kebab = "kebab-case"

    /// `name` in this case.
    func apply(to name: String) -> String {
        let words = Self.words(of: Array(name.utf8))
        var result: [UInt8] = []
        for (index, word) in words.enumerated() {
            switch self {
            case .snake, .kebab:
                if index > 0 { result.append(self == .snake ? UInt8(ascii: "_") : UInt8(ascii: "-")) }
                result += word
            case .camel, .pascal:
                let capitalised = self == .pascal || index > 0
                result.append(capitalised && word[0].isASCIILower ? word[0] - 0x20 : word[0])
                result += word.dropFirst()
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The lower-cased words of a name (ASCII letters only change case; other bytes stay in their word).
    static func words(of name: [UInt8]) -> [[UInt8]] {
        var words: [[UInt8]] = []
        var word: [UInt8] = []
        func finish() {
            if !word.isEmpty { words.append(word) }
            word = []
        }
        for (i, byte) in name.enumerated() {
            if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") {
                finish()
                continue
            }
            if byte.isASCIIUpper, i > 0 {
                let previous = name[i - 1]
                let next = i + 1 < name.count ? name[i + 1] : 0
                if previous.isASCIILower || previous.isASCIIDigit || (previous.isASCIIUpper && next.isASCIILower) {
                    finish()
                }
            }
            word.append(byte.isASCIIUpper ? byte + 0x20 : byte)
        }
        finish()
        return words
    }
}

extension UInt8 {
    var isASCIIUpper: Bool { self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") }
    var isASCIILower: Bool { self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z") }
}
