// SPDX-License-Identifier: Apache-2.0
//
// String tokens in and out. A string token from `JSONScanner` points at the raw text between the quotes, already
// validated (UTF-8, escapes, surrogate pairs, no raw control bytes). Most strings hold no backslash
// (`hasEscapes == false`); then the raw text IS the decoded value and is also already canonical output, so every
// operation here is a copy or a comparison of the raw slice. Only strings with escapes are walked, run by run:
//
//     raw  A\u00e9\n"x      (token.hasEscapes)
//     decode        → A é LF "x                (bytes 41 C3 A9 0A 22 78)
//     writeQuoted   → "Aé\n\"x"                (docs/semantics.md, "Bytes": only ", \ and U+0000–U+001F are escaped)
//
// Nothing here allocates but the output: the caller's, or the array `decoded` returns.

enum JSONStrings {
    // MARK: - Decoding

    /// The decoded UTF-8 bytes of a string token, as `decode` appends them.
    static func decoded(_ token: JSONToken, in bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        decode(token, in: bytes, into: &out)
        return out
    }

    /// Appends the decoded UTF-8 bytes of a string token (escapes resolved; `\u0000` allowed → byte 0).
    /// `token` must come from `JSONScanner` scanning `bytes`.
    static func decode(_ token: JSONToken, in bytes: UnsafeRawBufferPointer, into out: inout some ByteSink) {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end])
        guard token.hasEscapes else {
            append(raw, from: 0, to: raw.count, into: &out)
            return
        }
        var offset = 0
        while true {
            let backslash = firstBackslash(in: raw, from: offset)
            append(raw, from: offset, to: backslash, into: &out)
            guard backslash < raw.count else { return }
            let (scalar, length) = decodeEscape(in: raw, at: backslash)
            appendUTF8(scalar, into: &out)
            offset = backslash + length
        }
    }

    /// True when the string token's decoded bytes equal `key`. Without escapes this is one comparison of the raw
    /// slice; with escapes the text is decoded piece by piece against `key`, without a copy.
    static func equals(_ token: JSONToken, in bytes: UnsafeRawBufferPointer, _ key: UnsafeRawBufferPointer) -> Bool {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end])
        guard token.hasEscapes else {
            return raw.count == key.count && sameBytes(raw, 0, key, 0, count: key.count)
        }
        guard raw.count >= key.count else { return false }  // an escape never decodes to more bytes than it spans
        var offset = 0
        var keyOffset = 0
        while true {
            let backslash = firstBackslash(in: raw, from: offset)
            let run = backslash - offset
            guard keyOffset + run <= key.count, sameBytes(raw, offset, key, keyOffset, count: run) else { return false }
            keyOffset += run
            guard backslash < raw.count else { return keyOffset == key.count }
            let (scalar, length) = decodeEscape(in: raw, at: backslash)
            let (encoded, encodedCount) = utf8(scalar)
            guard keyOffset + encodedCount <= key.count else { return false }
            for index in 0..<encodedCount {
                let byte = UInt8(truncatingIfNeeded: encoded >> (index * 8))
                guard key[keyOffset + index] == byte else { return false }
            }
            keyOffset += encodedCount
            offset = backslash + length
        }
    }

    // MARK: - Writing

    /// Appends `"` + `s` + `"`, escaping only `"`, `\` and U+0000–U+001F: `\b \f \n \r \t` by name, the others as
    /// `\u00xx` (lowercase hex); DEL, `/` and non-ASCII are not escaped (docs/semantics.md, "Bytes"). `s` is valid
    /// UTF-8.
    static func writeQuoted(_ s: UnsafeRawBufferPointer, into out: inout some ByteSink) {
        var offset = firstByteToEscape(in: s, from: 0)
        guard offset < s.count else {
            appendQuoted(s, into: &out)  // the common case: nothing to escape, one copy
            return
        }
        out.append(.quote)
        var runStart = 0
        while true {
            append(s, from: runStart, to: offset, into: &out)
            guard offset < s.count else { break }
            writeEscaped(s[offset], into: &out)
            offset += 1
            runStart = offset
            offset = firstByteToEscape(in: s, from: offset)
        }
        out.append(.quote)
    }

    /// Writes a string token canonically, as `writeQuoted` would write its decoded bytes, after `prefix` (a key
    /// fragment, copied in the same append). Without escapes the raw slice is already canonical (the scanner let no
    /// `"`, `\` or control byte through) and is copied as is.
    static func writeQuoted(
        _ token: JSONToken, in bytes: UnsafeRawBufferPointer,
        after prefix: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        into out: inout some ByteSink
    ) {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end])
        guard token.hasEscapes else {
            appendQuoted(raw, after: prefix, into: &out)
            return
        }
        out.append(bytes: prefix)
        out.append(.quote)
        var offset = 0
        while true {
            let backslash = firstBackslash(in: raw, from: offset)
            append(raw, from: offset, to: backslash, into: &out)
            guard backslash < raw.count else { break }
            let (scalar, length) = decodeEscape(in: raw, at: backslash)
            if scalar < UInt32(UInt8.firstUnescapedByte) || scalar == UInt32(UInt8.quote)
                || scalar == UInt32(UInt8.backslash)
            {
                writeEscaped(UInt8(scalar), into: &out)
            } else {
                appendUTF8(scalar, into: &out)
            }
            offset = backslash + length
        }
        out.append(.quote)
    }

    /// Appends the canonical escape of a byte that must be escaped (`"`, `\`, U+0000–U+001F).
    private static func writeEscaped(_ byte: UInt8, into out: inout some ByteSink) {
        let named: UInt8
        switch byte {
        case .quote, .backslash: named = byte
        case .backspace: named = .lowercaseB
        case .formFeed: named = .lowercaseF
        case .lineFeed: named = .lowercaseN
        case .carriageReturn: named = .lowercaseR
        case .tab: named = .lowercaseT
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            out.append(.backslash)
            out.append(.lowercaseU)
            out.append(.zero)
            out.append(.zero)
            out.append(hexDigits.utf8Start[Int(byte >> 4)])
            out.append(hexDigits.utf8Start[Int(byte & 0x0F)])
            return
        }
        out.append(.backslash)
        out.append(named)
    }

    // MARK: - Pieces

    /// Decodes the (validated) escape whose backslash is at `offset`: its Unicode scalar and its length in bytes
    /// (12 for a surrogate pair).
    private static func decodeEscape(in raw: UnsafeRawBufferPointer, at offset: Int) -> (scalar: UInt32, length: Int) {
        switch raw[offset + 1] {
        case .lowercaseB: return (UInt32(UInt8.backspace), 2)
        case .lowercaseF: return (UInt32(UInt8.formFeed), 2)
        case .lowercaseN: return (UInt32(UInt8.lineFeed), 2)
        case .lowercaseR: return (UInt32(UInt8.carriageReturn), 2)
        case .lowercaseT: return (UInt32(UInt8.tab), 2)
        case .lowercaseU:
            let unit = hexQuad(in: raw, at: offset + 2)
            guard unit & 0xFC00 == 0xD800 else { return (unit, 6) }
            let low = hexQuad(in: raw, at: offset + 8)
            return (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12)
        case let escaped: return (UInt32(escaped), 2)  // `"`, `\`, `/`
        }
    }

    private static func hexQuad(in raw: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        var unit: UInt32 = 0
        for index in offset..<offset + 4 {
            unit = unit << 4 | UInt32(raw[index].hexDigitValue ?? 0)
        }
        return unit
    }

    /// The UTF-8 encoding of `scalar`, packed little-endian (first byte lowest), and its length.
    private static func utf8(_ scalar: UInt32) -> (bytes: UInt32, count: Int) {
        switch scalar {
        case ..<0x80:
            return (scalar, 1)
        case ..<0x800:
            return (0xC0 | scalar >> 6 | (0x80 | scalar & 0x3F) << 8, 2)
        case ..<0x10000:
            return (0xE0 | scalar >> 12 | (0x80 | scalar >> 6 & 0x3F) << 8 | (0x80 | scalar & 0x3F) << 16, 3)
        default:
            return (
                0xF0 | scalar >> 18 | (0x80 | scalar >> 12 & 0x3F) << 8 | (0x80 | scalar >> 6 & 0x3F) << 16
                    | (0x80 | scalar & 0x3F) << 24, 4
            )
        }
    }

    private static func appendUTF8(_ scalar: UInt32, into out: inout some ByteSink) {
        let (encoded, count) = utf8(scalar)
        for index in 0..<count {
            out.append(UInt8(truncatingIfNeeded: encoded >> (index * 8)))
        }
    }

    /// Appends `raw[from..<to]`.
    @inline(__always)
    private static func append(
        _ raw: UnsafeRawBufferPointer, from start: Int, to end: Int, into out: inout some ByteSink
    ) {
        guard start < end, let source = raw.baseAddress else { return }
        out.append(bytes: UnsafeRawBufferPointer(start: source + start, count: end - start))
    }

    /// Appends `prefix` + `"` + `raw` + `"` with one append: each append costs a capacity check (and an array's a
    /// uniqueness check), which for short strings costs more than the copy.
    @inline(__always)
    private static func appendQuoted(
        _ raw: UnsafeRawBufferPointer,
        after prefix: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        into out: inout some ByteSink
    ) {
        let count = raw.count
        out.append(count: prefix.count + count + 2) { buffer in
            var target = UnsafeMutableRawPointer(buffer.baseAddress!)
            if let source = prefix.baseAddress {
                copyBytes(to: target, from: source, count: prefix.count)
                target += prefix.count
            }
            target.storeBytes(of: .quote, as: UInt8.self)
            if let source = raw.baseAddress {
                (target + 1).copyMemory(from: source, byteCount: count)
            }
            target.storeBytes(of: .quote, toByteOffset: count + 1, as: UInt8.self)
        }
    }

    /// True when `count` bytes of `a` from `aStart` equal those of `b` from `bStart` (8 bytes at a time).
    @inline(__always)
    private static func sameBytes(
        _ a: UnsafeRawBufferPointer, _ aStart: Int, _ b: UnsafeRawBufferPointer, _ bStart: Int, count: Int
    ) -> Bool {
        guard count > 0, let aBase = a.baseAddress, let bBase = b.baseAddress else { return count == 0 }
        return memcmpEqual(aBase + aStart, bBase + bStart, count)
    }

    /// The offset of the first `\` at or after `offset`, or `raw.count`.
    @inline(__always)
    private static func firstBackslash(in raw: UnsafeRawBufferPointer, from offset: Int) -> Int {
        firstMatch(in: raw, from: offset) { word in
            let ones: UInt64 = 0x0101_0101_0101_0101
            let backslashes = word ^ (ones &* UInt64(UInt8.backslash))
            return (backslashes &- ones) & ~backslashes & 0x8080_8080_8080_8080
        } byte: {
            $0 == .backslash
        }
    }

    /// The offset of the first byte at or after `offset` that output must escape (`"`, `\`, below U+0020), or
    /// `s.count`.
    @inline(__always)
    private static func firstByteToEscape(in s: UnsafeRawBufferPointer, from offset: Int) -> Int {
        firstMatch(in: s, from: offset) { word in
            // The scanner's stop bytes without the non-ASCII ones (the bytes whose own high bit is set).
            JSONScanner.stopMarks(inWord: word) & ~word
        } byte: {
            $0 == .quote || $0 == .backslash || $0 < .firstUnescapedByte
        }
    }

    /// Searches 8 bytes at a time with `wordMask` (high bit of each matching byte set; the lowest mark exact), then
    /// byte by byte with `byte` for the last few bytes.
    @inline(__always)
    private static func firstMatch(
        in raw: UnsafeRawBufferPointer,
        from start: Int,
        wordMask: (UInt64) -> UInt64,
        byte matches: (UInt8) -> Bool
    ) -> Int {
        guard let base = raw.baseAddress else { return 0 }
        var offset = start
        while offset &+ 8 <= raw.count {
            let mask = wordMask(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            if mask != 0 { return offset &+ mask.trailingZeroBitCount &>> 3 }
            offset &+= 8
        }
        while offset < raw.count && !matches(raw[offset]) {
            offset &+= 1
        }
        return offset
    }
}
