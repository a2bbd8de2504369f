// SPDX-License-Identifier: Apache-2.0

// RFC 3986 §4.1 `URI-reference` validation for `url` properties (docs/coercion-rules.md, "url": "it must match RFC 3986
// `URI-reference` exactly as given — ASCII only, no percent-encoding or IDNA repair").
//
// A left-to-right pass over the bytes with no allocation and no backtracking: the only look-aheads (the scheme,
// the first segment, the end of the authority, its "@" and "]") each rescan a stretch at most once, so the
// time is linear. The grammar is deterministic once two facts are used:
//
// - A leading `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"` can only be a scheme: read as a relative-ref
//   it would be a `path-noscheme` whose first segment contains ":", which §4.2 forbids. So
//   `mailto:x@y` is a URI, and `1http:x` (no scheme: it starts with a digit) is an invalid relative-ref.
// - Every path form is "`pchar`s and `/`" up to `?`, `#` or the end; the forms differ only in how they may
//   start, which is already fixed by what came before (after an authority the path is `path-abempty`;
//   `path-absolute` is a path starting with one `/`, since `//` opened an authority; without a scheme the
//   first segment may not contain `:`).
//
//     http://user@[::1]:80/a/b?q=1#frag
//     └┬─┘  └────┬──────────┘└┬─┘└┬┘└┬─┘
//    scheme  authority      path query fragment
//
// The authority ends at the first `/`, `?`, `#` (none of which it may contain) or the end; inside it the
// first `@` ends the userinfo, and a host is an `IP-literal` in brackets or a `reg-name` (which includes
// every `IPv4address`, so dotted quads need no separate check there). Zone identifiers (RFC 6874 `%25`)
// are not part of RFC 3986 and are rejected.

#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// RFC 3986 `URI-reference` syntax check.
enum URIReference {
    /// True when `text` matches RFC 3986 §4.1 `URI-reference` (= `URI / relative-ref`) exactly.
    static func isValid(_ text: UnsafeRawBufferPointer) -> Bool {
        isPlainHTTP(text) || matchesGrammar(text)
    }

    /// The common case, checked sixteen bytes at a time where it can be (SSE2 on x86-64) and otherwise one byte
    /// at a time: `http://` or `https://` (any case), a host of letters, digits, `-` and `.` ended by `/`, `?`,
    /// `#` or the end, then only bytes that a path or query may hold as they are (no `%`), with at most one `#`.
    /// Every such text is a `URI`; `false` only means "ask the grammar".
    static func isPlainHTTP(_ text: UnsafeRawBufferPointer) -> Bool {
        guard text.count >= 8, text[0] | Byte.caseBit == UInt8(ascii: "h"), text[1] | Byte.caseBit == UInt8(ascii: "t"),
            text[2] | Byte.caseBit == UInt8(ascii: "t"), text[3] | Byte.caseBit == UInt8(ascii: "p")
        else { return false }
        var prefix = 4
        if text[prefix] | Byte.caseBit == UInt8(ascii: "s") { prefix += 1 }
        guard text.count >= prefix + 3, text[prefix] == Byte.colon, text[prefix + 1] == Byte.slash,
            text[prefix + 2] == Byte.slash
        else { return false }
        prefix += 3
        let end = text.count
        let bytes = text.baseAddress!
        var index = prefix
        #if arch(x86_64)
            while index &+ 16 <= end {
                let hostBytes = Byte.hostByteCount(bytes + index)
                index &+= hostBytes
                if hostBytes < 16 { break }
            }
        #endif
        while index < end, Byte.isHostByte(text[index]) { index += 1 }
        // The host ends the authority only where a path, query or fragment starts (not at a port or userinfo).
        guard index > prefix, index == end || Byte.isComponentDelimiter(text[index]) else { return false }
        #if arch(x86_64)
            while index &+ 16 <= end, Byte.allPlainPathBytes(bytes + index) { index &+= 16 }
            // Fewer than sixteen bytes left: read them as the text's last sixteen. Those before `index` are host or
            // plain path bytes, plain themselves, so all sixteen plain means a path without `#` to the end.
            if index < end, index &+ 16 > end, end >= 16, Byte.allPlainPathBytes(bytes + end - 16) { return true }
        #endif
        var hashes = 0
        while index < end {
            if !Byte.isPlainPathByte(text[index]) {
                guard text[index] == Byte.hash else { return false }
                hashes += 1
            }
            index += 1
        }
        return hashes <= 1
    }

    /// The full RFC 3986 `URI-reference` grammar.
    private static func matchesGrammar(_ text: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        var hasScheme = false
        if let colon = schemeEnd(text) {
            hasScheme = true
            index = colon + 1
        }

        // hier-part / relative-part: "//" authority path-abempty, or a path without authority.
        if text.count - index >= 2, text[index] == Byte.slash, text[index + 1] == Byte.slash {
            var end = index + 2
            while end < text.count, !Byte.isComponentDelimiter(text[end]) { end += 1 }
            guard isAuthority(text, from: index + 2, to: end) else { return false }
            index = end
        } else if !hasScheme {
            // §4.2: path-noscheme — the first segment of a relative path contains no ":".
            var scan = index
            while scan < text.count, !Byte.isComponentDelimiter(text[scan]) {
                if text[scan] == Byte.colon { return false }
                scan += 1
            }
        }
        // path: *( pchar / "/" )
        guard let pathEnd = scan(text, from: index, allowingQuestionMark: false) else { return false }
        index = pathEnd
        // [ "?" query ], query = *( pchar / "/" / "?" )
        if index < text.count, text[index] == Byte.question {
            guard let queryEnd = scan(text, from: index + 1, allowingQuestionMark: true)
            else { return false }
            index = queryEnd
        }
        // [ "#" fragment ], fragment = *( pchar / "/" / "?" )
        if index < text.count, text[index] == Byte.hash {
            guard let fragmentEnd = scan(text, from: index + 1, allowingQuestionMark: true)
            else { return false }
            index = fragmentEnd
        }
        return index == text.count
    }

    // MARK: - Scheme and generic characters

    /// The index of the ":" ending `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, if `text` starts
    /// with one.
    private static func schemeEnd(_ text: UnsafeRawBufferPointer) -> Int? {
        guard let first = text.first, Byte.isASCIIAlpha(first) else { return nil }
        var index = 1
        while index < text.count {
            let byte = text[index]
            if byte == Byte.colon { return index }
            guard
                Byte.isASCIIAlpha(byte) || Byte.isASCIIDigit(byte) || byte == Byte.plus || byte == Byte.minus
                    || byte == Byte.dot
            else { return nil }
            index += 1
        }
        return nil
    }

    /// Consumes `*( pchar / "/" )` (a path), or `*( pchar / "/" / "?" )` (a query or fragment) from `start`;
    /// returns where it stopped, or `nil` on a malformed `pct-encoded`. The caller decides whether the byte it
    /// stopped at may follow.
    private static func scan(
        _ text: UnsafeRawBufferPointer, from start: Int, allowingQuestionMark: Bool
    ) -> Int? {
        var index = start
        while index < text.count {
            let byte = text[index]
            if byte == Byte.percent {
                guard isPercentEncoded(text, at: index) else { return nil }
                index += 3
            } else if Byte.isUnreserved(byte) || Byte.isSubDelim(byte) || byte == Byte.colon || byte == Byte.at
                || byte == Byte.slash || (allowingQuestionMark && byte == Byte.question)
            {
                index += 1
            } else {
                return index
            }
        }
        return index
    }

    /// `pct-encoded = "%" HEXDIG HEXDIG`, starting at `index`.
    private static func isPercentEncoded(_ text: UnsafeRawBufferPointer, at index: Int) -> Bool {
        text.count - index >= 3 && Byte.isHexDigit(text[index + 1]) && Byte.isHexDigit(text[index + 2])
    }

    // MARK: - Authority

    /// `authority = [ userinfo "@" ] host [ ":" port ]` over `text[start..<end]`.
    private static func isAuthority(_ text: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        var index = start
        // userinfo = *( unreserved / pct-encoded / sub-delims / ":" ); neither it nor the host holds "@".
        var at = start
        while at < end, text[at] != Byte.at { at += 1 }
        if at < end {
            guard isRun(text, from: start, to: at, allowingColon: true) else { return false }
            index = at + 1
        }
        // host = IP-literal / IPv4address / reg-name
        if index < end, text[index] == Byte.openBracket {
            var close = index + 1
            while close < end, text[close] != Byte.closeBracket { close += 1 }
            guard close < end, isIPLiteralBody(text, from: index + 1, to: close) else { return false }
            index = close + 1
        } else {
            // reg-name = *( unreserved / pct-encoded / sub-delims ); it stops at the port's ":".
            var hostEnd = index
            while hostEnd < end, text[hostEnd] != Byte.colon { hostEnd += 1 }
            guard isRun(text, from: index, to: hostEnd, allowingColon: false) else { return false }
            index = hostEnd
        }
        // [ ":" port ], port = *DIGIT
        guard index < end else { return true }
        guard text[index] == Byte.colon else { return false }
        index += 1
        while index < end {
            guard Byte.isASCIIDigit(text[index]) else { return false }
            index += 1
        }
        return true
    }

    /// True when `text[start..<end]` is `*( unreserved / pct-encoded / sub-delims [ / ":" ] )`.
    private static func isRun(
        _ text: UnsafeRawBufferPointer, from start: Int, to end: Int, allowingColon: Bool
    ) -> Bool {
        var index = start
        while index < end {
            let byte = text[index]
            if byte == Byte.percent {
                guard end - index >= 3, isPercentEncoded(text, at: index) else { return false }
                index += 3
            } else if Byte.isUnreserved(byte) || Byte.isSubDelim(byte) || (allowingColon && byte == Byte.colon) {
                index += 1
            } else {
                return false
            }
        }
        return true
    }

    // MARK: - IP literals

    /// The inside of `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`.
    private static func isIPLiteralBody(_ text: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        // ABNF quoted strings are case-insensitive (RFC 5234 §2.3), so "v" also matches "V".
        if start < end, text[start] | Byte.caseBit == UInt8(ascii: "v") {
            return isIPvFuture(text, from: start + 1, to: end)
        }
        return isIPv6Address(text, from: start, to: end)
    }

    /// `IPvFuture` after its "v": `1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
    private static func isIPvFuture(_ text: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        var index = start
        while index < end, Byte.isHexDigit(text[index]) { index += 1 }
        guard index > start, index < end, text[index] == Byte.dot else { return false }
        index += 1
        guard index < end else { return false }
        while index < end {
            let byte = text[index]
            guard Byte.isUnreserved(byte) || Byte.isSubDelim(byte) || byte == Byte.colon else { return false }
            index += 1
        }
        return true
    }

    /// RFC 3986 §3.2.2 `IPv6address`, over `text[start..<end]`.
    ///
    /// The nine ABNF alternatives come down to: pieces are `h16` (1–4 hex digits) separated by ":"; an
    /// `IPv4address` may only be the last piece and counts as two (the `ls32` rule); "::" may appear at most
    /// once, at the start, between pieces or at the end, and stands for at least one zero piece. Without
    /// "::" there are exactly 8 pieces, with it at most 7.
    private static func isIPv6Address(_ text: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        var index = start
        var pieces = 0
        var elided = false
        if end - index >= 2, text[index] == Byte.colon, text[index + 1] == Byte.colon {
            elided = true
            index += 2
        }
        while index < end {
            var digitsEnd = index
            while digitsEnd < end, Byte.isHexDigit(text[digitsEnd]), digitsEnd - index < 5 { digitsEnd += 1 }
            if digitsEnd < end, text[digitsEnd] == Byte.dot {
                // ls32's IPv4address: it must run to the end of the literal.
                guard isIPv4Address(text, from: index, to: end) else { return false }
                pieces += 2
                break
            }
            let digits = digitsEnd - index
            guard digits >= 1, digits <= 4 else { return false }
            pieces += 1
            guard pieces <= 8 else { return false }
            index = digitsEnd
            guard index < end else { break }
            // After a piece: ":" then another piece, or "::" (once) then optionally more pieces.
            guard text[index] == Byte.colon else { return false }
            index += 1
            if index < end, text[index] == Byte.colon {
                guard !elided else { return false }
                elided = true
                index += 1
            } else if index == end {
                return false  // a lone trailing ":"
            }
        }
        return elided ? pieces <= 7 : pieces == 8
    }

    /// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`, exactly `text[start..<end]`.
    private static func isIPv4Address(_ text: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        var index = start
        for octet in 0..<4 {
            if octet > 0 {
                guard index < end, text[index] == Byte.dot else { return false }
                index += 1
            }
            // dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35:
            // 0–255 with no leading zero.
            var value = 0
            let digitsStart = index
            while index < end, Byte.isASCIIDigit(text[index]), index - digitsStart < 3 {
                value = value * 10 + Int(text[index] - UInt8(ascii: "0"))
                index += 1
            }
            let digits = index - digitsStart
            guard digits >= 1, value <= 255, digits == 1 || text[digitsStart] != UInt8(ascii: "0") else {
                return false
            }
        }
        return index == end
    }

    // MARK: - Character classes (RFC 3986 §2)

    /// Named bytes and the character classes of the grammar. Kept private to this file so they cannot clash
    /// with the module's shared byte names.
    private enum Byte {
        static let slash = UInt8(ascii: "/")
        static let question = UInt8(ascii: "?")
        static let hash = UInt8(ascii: "#")
        static let colon = UInt8(ascii: ":")
        static let at = UInt8(ascii: "@")
        static let percent = UInt8(ascii: "%")
        static let dot = UInt8(ascii: ".")
        static let plus = UInt8(ascii: "+")
        static let minus = UInt8(ascii: "-")
        static let openBracket = UInt8(ascii: "[")
        static let closeBracket = UInt8(ascii: "]")
        /// Or-ing this in lower-cases an ASCII letter (and moves no other byte into the letter ranges).
        static let caseBit: UInt8 = 0x20

        /// `ALPHA` (RFC 5234 B.1): ASCII letters only.
        static func isASCIIAlpha(_ byte: UInt8) -> Bool {
            let lower = byte | caseBit
            return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
        }

        /// `DIGIT`
        static func isASCIIDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        /// `HEXDIG`, either case (ABNF strings are case-insensitive).
        static func isHexDigit(_ byte: UInt8) -> Bool {
            let lower = byte | caseBit
            return isASCIIDigit(byte) || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f"))
        }

        /// A letter, digit, `-` or `.`: a `reg-name` byte that needs no further thought.
        static func isHostByte(_ byte: UInt8) -> Bool {
            // One lookup in a 128-bit set, as isPlainPathByte: - . 0–9 (bytes 0–63), A–Z a–z (bytes 64–127).
            let low: UInt64 = 0x03FF_6000_0000_0000
            let high: UInt64 = 0x07FF_FFFE_07FF_FFFE
            if byte < 64 { return low >> UInt64(byte) & 1 == 1 }
            if byte < 128 { return high >> UInt64(byte - 64) & 1 == 1 }
            return false
        }

        /// `pchar / "/" / "?"` without `pct-encoded`: a byte a path, query or fragment may hold as it is.
        /// One lookup in a 128-bit set (bit `b` set for each allowed ASCII byte `b`).
        static func isPlainPathByte(_ byte: UInt8) -> Bool {
            // unreserved  ALPHA DIGIT - . _ ~   sub-delims  ! $ & ' ( ) * + , ; =   and  : @ / ?
            let low: UInt64 = 0xAFFF_FFD2_0000_0000  // bytes 0–63: ! $ & ' ( ) * + , - . / 0–9 : ; = ?
            let high: UInt64 = 0x47FF_FFFE_87FF_FFFF  // bytes 64–127: @ A–Z _ a–z ~
            if byte < 64 { return low >> UInt64(byte) & 1 == 1 }
            if byte < 128 { return high >> UInt64(byte - 64) & 1 == 1 }
            return false
        }

        #if arch(x86_64)
            /// How many of the sixteen bytes at `bytes` are `isHostByte` before the first that is not (16 when all
            /// are), in SSE2. Each range is one signed comparison once shifted to start at -128; letters are compared
            /// with bit 0x20 set, which makes capitals lowercase and moves no other byte into `a`–`z`.
            @inline(__always)
            static func hostByteCount(_ bytes: UnsafeRawPointer) -> Int {
                func inRange(_ vector: __m128i, from low: UInt8, count: Int8) -> __m128i {
                    let shifted = _mm_add_epi8(vector, _mm_set1_epi8(CChar(bitPattern: 0x80 &- low)))
                    return _mm_cmplt_epi8(shifted, _mm_set1_epi8(-128 + count))
                }
                let chunk = _mm_loadu_si128(bytes.assumingMemoryBound(to: __m128i.self))
                let letters = inRange(_mm_or_si128(chunk, _mm_set1_epi8(0x20)), from: UInt8(ascii: "a"), count: 26)
                let digits = inRange(chunk, from: UInt8(ascii: "0"), count: 10)
                let marks = inRange(chunk, from: minus, count: 2)  // `-` and `.`
                let host = UInt32(
                    truncatingIfNeeded: _mm_movemask_epi8(_mm_or_si128(letters, _mm_or_si128(digits, marks))))
                return (host ^ 0xFFFF | 0x1_0000).trailingZeroBitCount
            }

            /// Whether all sixteen bytes at `bytes` are `isPlainPathByte`, in SSE2: the printable ASCII bytes
            /// U+0021–U+007E except `"` `#` `%` `<` `>` `[` `\` `]` `^` `` ` `` `{` `|` `}`. Read as signed, every byte
            /// below U+0021 and every non-ASCII byte is less than 0x21; with bit 0x20 set, `[` `\` `]` become `{` `|`
            /// `}`, and with bit 0x02 set `<` becomes `>`.
            @inline(__always)
            static func allPlainPathBytes(_ bytes: UnsafeRawPointer) -> Bool {
                func equal(_ vector: __m128i, _ byte: UInt8) -> __m128i {
                    _mm_cmpeq_epi8(vector, _mm_set1_epi8(CChar(bitPattern: byte)))
                }
                let chunk = _mm_loadu_si128(bytes.assumingMemoryBound(to: __m128i.self))
                let folded = _mm_or_si128(chunk, _mm_set1_epi8(0x20))
                let angled = _mm_or_si128(chunk, _mm_set1_epi8(0x02))
                let outside = _mm_or_si128(_mm_cmplt_epi8(chunk, _mm_set1_epi8(0x21)), equal(chunk, 0x7F))
                let marks = _mm_or_si128(
                    _mm_or_si128(equal(chunk, UInt8(ascii: "\"")), equal(chunk, hash)),
                    _mm_or_si128(equal(chunk, UInt8(ascii: "%")), equal(angled, UInt8(ascii: ">"))))
                let brackets = _mm_or_si128(
                    _mm_or_si128(equal(folded, UInt8(ascii: "{")), equal(folded, UInt8(ascii: "|"))),
                    equal(folded, UInt8(ascii: "}")))
                let accents = _mm_or_si128(equal(chunk, UInt8(ascii: "^")), equal(chunk, UInt8(ascii: "`")))
                let refused = _mm_or_si128(_mm_or_si128(outside, marks), _mm_or_si128(brackets, accents))
                return _mm_movemask_epi8(refused) == 0
            }
        #endif

        /// `/`, `?` or `#`: what ends an authority or a path segment that follows no scheme.
        static func isComponentDelimiter(_ byte: UInt8) -> Bool {
            byte == slash || byte == question || byte == hash
        }

        /// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`
        static func isUnreserved(_ byte: UInt8) -> Bool {
            isASCIIAlpha(byte) || isASCIIDigit(byte) || byte == minus || byte == dot
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
        }

        /// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`
        static func isSubDelim(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                UInt8(ascii: "="):
                true
            default:
                false
            }
        }
    }
}
