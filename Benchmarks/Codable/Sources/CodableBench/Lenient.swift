// SPDX-License-Identifier: Apache-2.0

/// The few lenient reads the models need, written as a Codable user would: the schemas' implicit `0` / `false` for
/// absent or `null` numbers, and integers that arrive as numeric strings (Weibo's `province`, `city`,
/// `next_cursor`).
extension KeyedDecodingContainer {
    /// A number or bool; absent or `null` gives `fallback` (TransformServer's implicit default).
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key, default fallback: T) throws -> T {
        try decodeIfPresent(type, forKey: key) ?? fallback
    }

    /// An integer given as a string of digits (tried first: the API sends these fields as strings) or as a JSON
    /// number; absent, `null` or unreadable gives 0.
    func decodeLenientInteger<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) -> T {
        if let text = try? decodeIfPresent(String.self, forKey: key), let number = T(text) {
            return number
        }
        if let number = try? decodeIfPresent(type, forKey: key) {
            return number
        }
        return 0
    }
}
