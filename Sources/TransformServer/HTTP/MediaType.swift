// SPDX-License-Identifier: Apache-2.0

/// A parsed `Content-Type` (RFC 9110 §8.3.1): type/subtype lowercased, parameters.
struct MediaType: Equatable {
    var type: String
    var subtype: String
    var charset: String?

    static let json = MediaType(type: "application", subtype: "json")

    static func parse(_ value: String?) -> MediaType? {
        guard let value else { return nil }
        // What almost every client sends, answered without splitting strings.
        if value.hasBytes(of: "application/json") { return json }
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        let essence = parts[0].trimmingCharacters(in: " \t").lowercased()
        let pieces = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 2, isRestrictedName(pieces[0]), isRestrictedName(pieces[1]) else { return nil }
        var result = MediaType(type: String(pieces[0]), subtype: String(pieces[1]))
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            if pair[0].trimmingCharacters(in: " \t").lowercased() == "charset" {
                result.charset = pair[1].trimmingCharacters(in: " \t\"").lowercased()
            }
        }
        return result
    }

    /// RFC 6838 §4.2: a type or subtype name is 1 to 127 letters, digits and `!#$&-^_.+`, starting with a letter or
    /// digit — so `application/+json` (a suffix with no name before it) is not a media type.
    static func isRestrictedName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 127, isAlphanumeric(first) else { return false }
        return name.utf8.allSatisfy { isAlphanumeric($0) || "!#$&-^_.+".utf8.contains($0) }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `application/json` or any `application/*+json`.
    var isJSON: Bool { type == "application" && (subtype == "json" || subtype.hasSuffix("+json")) }
    var isNDJSON: Bool { type == "application" && subtype == "x-ndjson" }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
