// SPDX-License-Identifier: Apache-2.0

extension RuleEvaluator {
    /// `contains`, `startsWith`, `endsWith` and the strings extension (cel-go's version 3 overloads). Indexes count
    /// code points; an index out of range is an error, except `charAt(size)`, which is `""`.
    mutating func applyStringFunction(_ builtin: RuleBuiltin, _ arguments: [RuleValue]) throws(RuleFailure) -> RuleValue
    {
        var strings: [String] = []
        var integers: [Int64] = []
        for argument in arguments {
            switch argument {
            case .string(let s): strings.append(s)
            case .int(let i): integers.append(i)
            default: throw RuleFailure.noOverload(builtin.rawValue, arguments)
            }
        }
        guard !strings.isEmpty else { throw RuleFailure.noOverload(builtin.rawValue, arguments) }
        let text = strings[0]
        try charge(text.utf8.count >> 6)
        switch (builtin, strings.count, integers.count) {
        case (.contains, 2, 0):
            return .bool(Self.find(Array(strings[1].unicodeScalars), in: Array(text.unicodeScalars), from: 0) != nil)
        case (.startsWith, 2, 0): return .bool(text.utf8.starts(with: strings[1].utf8))
        case (.endsWith, 2, 0): return .bool(text.utf8.reversed().starts(with: strings[1].utf8.reversed()))
        case (.lowerAscii, 1, 0), (.upperAscii, 1, 0):
            let lower = builtin == .lowerAscii
            try allocate(text.utf8.count)
            return .string(
                String(
                    decoding: text.utf8.map { byte in
                        let letter = lower ? (0x41...0x5A).contains(byte) : (0x61...0x7A).contains(byte)
                        return letter ? byte ^ 0x20 : byte
                    }, as: UTF8.self))
        case (.trim, 1, 0):
            let scalars = Array(text.unicodeScalars)
            guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return .string("") }
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
            var result = String.UnicodeScalarView()
            result.append(contentsOf: scalars[start...end])
            return .string(String(result))
        case (.split, 2, 0), (.split, 2, 1):
            let limit = integers.first ?? -1
            return .list(try split(text, by: strings[1], limit: limit).map { .string($0) })
        case (.replace, 3, 0), (.replace, 3, 1):
            return .string(try replace(text, strings[1], with: strings[2], limit: integers.first ?? -1))
        case (.substring, 1, 1), (.substring, 1, 2):
            let scalars = Array(text.unicodeScalars)
            let start = integers[0]
            let end = integers.count == 2 ? integers[1] : Int64(scalars.count)
            guard start >= 0, start <= scalars.count else { throw RuleFailure("index out of range: \(start)") }
            guard end >= 0, end <= scalars.count else { throw RuleFailure("index out of range: \(end)") }
            guard start <= end else { throw RuleFailure("invalid substring range. start: \(start), end: \(end)") }
            return .string(Self.string(scalars[Int(start)..<Int(end)]))
        case (.charAt, 1, 1):
            let scalars = Array(text.unicodeScalars)
            let i = integers[0]
            guard i >= 0, i <= scalars.count else { throw RuleFailure("index out of range: \(i)") }
            return .string(i == scalars.count ? "" : String(Character(scalars[Int(i)])))
        case (.indexOf, 2, 0), (.indexOf, 2, 1), (.lastIndexOf, 2, 0), (.lastIndexOf, 2, 1):
            let scalars = Array(text.unicodeScalars)
            let needle = Array(strings[1].unicodeScalars)
            let forward = builtin == .indexOf
            let offset = integers.first ?? (forward ? 0 : Int64(scalars.count))
            guard offset >= 0, offset <= scalars.count else { throw RuleFailure("index out of range: \(offset)") }
            if needle.isEmpty { return .int(offset) }
            if forward { return .int(Int64(Self.find(needle, in: scalars, from: Int(offset)) ?? -1)) }
            var position = min(Int(offset), scalars.count - needle.count)
            while position >= 0 {
                if scalars[position..<position + needle.count].elementsEqual(needle) { return .int(Int64(position)) }
                position -= 1
            }
            return .int(-1)
        default:
            throw RuleFailure.noOverload(builtin.rawValue, arguments)
        }
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// The first position at or after `start` where `needle` occurs in `haystack`.
    private static func find(_ needle: [Unicode.Scalar], in haystack: [Unicode.Scalar], from start: Int) -> Int? {
        if needle.isEmpty { return start }
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for position in start...(haystack.count - needle.count)
        where haystack[position] == needle[0] && haystack[position..<position + needle.count].elementsEqual(needle) {
            return position
        }
        return nil
    }

    /// Go's `strings.SplitN`: `limit` 0 gives no pieces, a negative limit all of them; an empty separator splits
    /// between code points.
    private mutating func split(_ text: String, by separator: String, limit: Int64) throws(RuleFailure) -> [String] {
        if limit == 0 { return [] }
        let scalars = Array(text.unicodeScalars)
        let needle = Array(separator.unicodeScalars)
        var pieces: [String] = []
        if needle.isEmpty {
            // Go's explode: one piece per code point, the last piece holding the rest when `limit` is smaller.
            let count = limit > 0 && limit < scalars.count ? Int(limit) : scalars.count
            for i in 0..<count {
                pieces.append(Self.string(i == count - 1 ? scalars[i...] : scalars[i..<i + 1]))
            }
        } else {
            var start = 0
            while limit < 0 || pieces.count < limit - 1, let found = Self.find(needle, in: scalars, from: start) {
                pieces.append(Self.string(scalars[start..<found]))
                start = found + needle.count
            }
            pieces.append(Self.string(scalars[start...]))
        }
        try allocate(pieces.count + text.utf8.count)
        return pieces
    }

    /// Go's `strings.Replace`: at most `limit` replacements (all when negative); an empty `old` matches before
    /// every code point and at the end.
    private mutating func replace(_ text: String, _ old: String, with new: String, limit: Int64) throws(RuleFailure)
        -> String
    {
        let scalars = Array(text.unicodeScalars)
        let needle = Array(old.unicodeScalars)
        var result = String.UnicodeScalarView()
        var start = 0
        var done: Int64 = 0
        var length = 0
        while limit < 0 || done < limit {
            let found: Int
            if needle.isEmpty {
                guard start <= scalars.count else { break }
                found = start
            } else {
                guard let position = Self.find(needle, in: scalars, from: start) else { break }
                found = position
            }
            result.append(contentsOf: scalars[start..<found])
            result.append(contentsOf: new.unicodeScalars)
            length += (found - start) + new.utf8.count
            try allocate(0)
            if length > sizeLeft { throw RuleFailure(RuleEvaluator.sizeMessage) }
            done += 1
            if needle.isEmpty {
                if found < scalars.count { result.append(scalars[found]) }
                start = found + 1
            } else {
                start = found + needle.count
            }
        }
        if start < scalars.count { result.append(contentsOf: scalars[start...]) }
        let string = String(result)
        try allocate(string.utf8.count)
        return string
    }
}
