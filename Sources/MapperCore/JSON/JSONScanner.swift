// SPDX-License-Identifier: Apache-2.0
//
// The strict JSON scanner (RFC 8259): bytes → one flat `JSONTape`, validating everything on the way and decoding
// nothing. It is the hot path of every conversion, so:
// - it never recurses: each open container's token links to its parent's (see below), so a body nested a million
//   deep is refused at depth `maxDepth + 1` without touching the call stack or allocating;
// - it writes one token per value straight into the spare capacity of the tape's reused array, reserved once per
//   scan for the most tokens the input could hold (no per-token `append`); it allocates only when that array has
//   to grow;
// - it finds where strings end from stop bits: each 64-byte block of the input is classified once (SSE2 on x86-64,
//   8 bytes to a plain word elsewhere), one bit per byte that is `"`, `\`, a control byte or non-ASCII, and a
//   string's first stop byte is then a shift and a bit count, inline in the structural loop. Each string starts
//   where the token before it ended, so this search is the longest chain of dependent steps in a scan; the
//   classification, a block ahead, is not on it (see `StopBlock`);
// - the stop bytes other than a closing quote are then checked one by one, a call away (escapes, UTF-8 per
//   RFC 3629 §4); runs of three-byte characters (CJK) are checked one whole character per step.
//
// The structural loop has two halves. "Expect a value" reads one value; a scalar becomes a token, and `[` / `{`
// opens a container (its token is written now and completed when it closes). "After a value" then reads `,`
// (back to "expect a value", through a key and `:` inside objects) or the closing bracket, which completes the
// innermost container and goes back to its parent. The innermost container's token index, kind and running
// member count are kept in locals; while a child is open, a parent's running count is parked in its token's
// `count`, and every open container's token holds its parent's index (-1 for none) in `next`, the field its
// closing sets last.
//
// Error offsets and the names of the reasons are described in JSONSyntaxError.swift. Running out of bytes is always
// `unexpectedEnd` at the input length.

#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

struct JSONScanner {
    /// The first scanned byte; the input is never empty.
    private let base: UnsafeRawPointer
    /// The number of bytes.
    private let count: Int
    /// The deepest nesting accepted (the top-level array or object is depth 1).
    private let maxDepth: Int

    /// Scans exactly one JSON value (RFC 8259) surrounded by optional whitespace from `bytes` into `tape` (cleared
    /// first). A UTF-8 byte-order mark at the very start is skipped; offsets still count it. More than `maxDepth`
    /// nested arrays and objects → `.nestingTooDeep` at the `[` / `{` that exceeds the limit. After an error the
    /// tape holds the tokens scanned so far and must not be read: an incomplete container's `next` is still its
    /// parent's index (-1 for the top level), so a walk of such a tape would go backwards.
    static func scan(
        _ bytes: UnsafeRawBufferPointer,
        into tape: inout JSONTape,
        maxDepth: Int
    ) throws(JSONSyntaxError) {
        tape.removeAll()
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw JSONSyntaxError(.unexpectedEnd(expected: .value), at: 0)
        }
        let scanner = JSONScanner(base: base, count: bytes.count, maxDepth: maxDepth)
        // The tokens are written straight into the array's spare capacity (no per-token `append`), sized once to
        // a bound no input can exceed (see `tokenBound`); the array's capacity is kept for the next scan.
        try tape.tokens.append(addingCapacity: scanner.tokenBound) {
            (span: inout OutputSpan<JSONToken>) throws(JSONSyntaxError) in
            try span.withUnsafeMutableBufferPointer {
                (buffer: UnsafeMutableBufferPointer<JSONToken>, initialized: inout Int) throws(JSONSyntaxError) in
                var tokens = TokenWriter(base: buffer.baseAddress!, capacity: buffer.count)
                defer { initialized = tokens.count }
                try scanner.scanText(into: &tokens)
            }
        }
    }

    /// The most tokens `count` bytes can produce. In a complete text every token has its own first byte, and every
    /// token but the top-level one also owns a byte that starts no token (the `,` or `:` before it, or its
    /// container's closing bracket), so tokens ≤ (count + 1) / 2. A text cut short lacks at most one such byte per
    /// open container, and at most `maxDepth` containers are open.
    private var tokenBound: Int {
        (count + 1 + min(max(maxDepth, 0), count)) / 2 + 1
    }

    private init(base: UnsafeRawPointer, count: Int, maxDepth: Int) {
        self.base = base
        self.count = count
        self.maxDepth = maxDepth
    }

    @inline(__always)
    private subscript(offset: Int) -> UInt8 {
        base.load(fromByteOffset: offset, as: UInt8.self)
    }

    // MARK: - Structure

    private func scanText(into writer: inout TokenWriter) throws(JSONSyntaxError) {
        // A local copy, handed back however the scan ends, lets its count live in a register.
        var tokens = writer
        defer { writer = tokens }
        var offset = try offsetAfterByteOrderMark()
        var expected = JSONSyntaxError.Expectation.value
        var container = -1  // token index of the innermost open container; -1 at the top level
        var isObject = false  // the innermost open container is an object
        var members = 0  // members (or elements) of the innermost open container seen so far
        var depth = 0
        var stops = StopBlock(start: -64, bits: 0, nextBits: stopBits(ofBlockAt: 0))

        expectValue: while true {
            offset = skipWhitespace(from: offset)
            guard offset < count else {
                throw JSONSyntaxError(.unexpectedEnd(expected: expected), at: count)
            }
            let byte = self[offset]
            let index = tokens.count
            switch byte {
            case .quote:
                let (end, hasEscapes) = try scanString(contentStart: offset + 1, stops: &stops)
                tokens.append(
                    JSONToken(
                        kind: .string, hasEscapes: hasEscapes, start: offset + 1, end: end, count: 0, next: index + 1))
                offset = end + 1

            case .openBracket, .openBrace:
                // docs/semantics.md, "JSON input": the top-level container is depth 1; deeper than the limit is
                // refused.
                depth += 1
                guard depth <= maxDepth else {
                    throw JSONSyntaxError(.nestingTooDeep(limit: maxDepth), at: offset)
                }
                if container >= 0 { tokens[container].count = members }
                isObject = byte == .openBrace
                tokens.append(
                    JSONToken(
                        kind: isObject ? .object : .array, hasEscapes: false, start: offset, end: offset, count: 0,
                        next: container))  // the parent, until this container closes
                container = index
                members = 0
                offset = skipWhitespace(from: offset + 1)
                guard offset < count else {
                    throw JSONSyntaxError(
                        .unexpectedEnd(expected: isObject ? .keyOrObjectEnd : .valueOrArrayEnd), at: count)
                }
                // An empty container falls through: its closing bracket is handled below, like any container's end.
                if self[offset] != (isObject ? .closeBrace : .closeBracket) {
                    members = 1
                    if isObject {
                        offset = try scanKey(at: offset, expected: .keyOrObjectEnd, into: &tokens, stops: &stops)
                        expected = .valueAfterColon
                    } else {
                        expected = .valueOrArrayEnd
                    }
                    continue expectValue
                }

            case .minus, UInt8.zero...UInt8.nine:
                let end = try scanNumber(from: offset)
                tokens.append(
                    JSONToken(kind: .number, hasEscapes: false, start: offset, end: end, count: 0, next: index + 1))
                offset = end

            case .lowercaseT:
                offset = try scanLiteral(.true, at: offset, into: &tokens)
            case .lowercaseF:
                offset = try scanLiteral(.false, at: offset, into: &tokens)
            case .lowercaseN:
                offset = try scanLiteral(.null, at: offset, into: &tokens)

            case .plus, .period:
                throw JSONSyntaxError(.invalidNumber(.invalidStart), at: offset)
            default:
                throw JSONSyntaxError(.unexpectedByte(byte, expected: expected), at: offset)
            }

            // After a value: `,` goes back to expecting a value, a closing bracket completes the innermost container.
            while true {
                offset = skipWhitespace(from: offset)
                guard container >= 0 else {
                    // RFC 8259 §2: JSON-text = ws value ws.
                    if offset < count {
                        throw JSONSyntaxError(.trailingContent(self[offset]), at: offset)
                    }
                    return
                }
                guard offset < count else {
                    throw JSONSyntaxError(
                        .unexpectedEnd(expected: isObject ? .commaOrObjectEnd : .commaOrArrayEnd), at: count)
                }
                let byte = self[offset]
                if byte == .comma {
                    members += 1
                    if isObject {
                        offset = try scanKey(
                            at: skipWhitespace(from: offset + 1), expected: .keyAfterComma, into: &tokens,
                            stops: &stops)
                        expected = .valueAfterColon
                    } else {
                        offset += 1
                        expected = .valueAfterComma
                    }
                    continue expectValue
                }
                guard byte == (isObject ? .closeBrace : .closeBracket) else {
                    throw JSONSyntaxError(
                        .unexpectedByte(byte, expected: isObject ? .commaOrObjectEnd : .commaOrArrayEnd), at: offset)
                }
                offset += 1
                let parent = tokens[container].next
                tokens[container].end = offset
                tokens[container].count = members
                tokens[container].next = tokens.count
                depth -= 1
                container = parent
                if parent >= 0 {
                    members = tokens[parent].count
                    isObject = tokens[parent].kind == .object
                }
            }
        }
    }

    /// Reads `"key"` and the `:` after it (whitespace allowed around the colon); returns the offset after the colon.
    @inline(__always)
    private func scanKey(
        at offset: Int,
        expected: JSONSyntaxError.Expectation,
        into tokens: inout TokenWriter,
        stops: inout StopBlock
    ) throws(JSONSyntaxError) -> Int {
        guard offset < count else { throw JSONSyntaxError(.unexpectedEnd(expected: expected), at: count) }
        guard self[offset] == .quote else {
            throw JSONSyntaxError(.unexpectedByte(self[offset], expected: expected), at: offset)
        }
        let (end, hasEscapes) = try scanString(contentStart: offset + 1, stops: &stops)
        let index = tokens.count
        tokens.append(
            JSONToken(kind: .string, hasEscapes: hasEscapes, start: offset + 1, end: end, count: 0, next: index + 1))
        let colon = skipWhitespace(from: end + 1)
        guard colon < count else { throw JSONSyntaxError(.unexpectedEnd(expected: .colon), at: count) }
        guard self[colon] == .colon else {
            throw JSONSyntaxError(.unexpectedByte(self[colon], expected: .colon), at: colon)
        }
        return colon + 1
    }

    /// RFC 8259 §2: ws = *( %x20 / %x09 / %x0A / %x0D ).
    @inline(__always)
    private func skipWhitespace(from offset: Int) -> Int {
        var offset = offset
        while offset < count, self[offset] <= .space, self[offset].isJSONWhitespace {
            offset += 1
        }
        return offset
    }

    /// The offset of the first byte after a UTF-8 byte-order mark at the very start, or 0 without one.
    private func offsetAfterByteOrderMark() throws(JSONSyntaxError) -> Int {
        let mark: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)
        guard self[0] == mark.0 else { return 0 }
        if count >= 3 {
            return self[1] == mark.1 && self[2] == mark.2 ? 3 : 0
        }
        if count == 1 || self[1] == mark.1 {
            throw JSONSyntaxError(.unexpectedEnd(expected: .byteOrderMark), at: count)
        }
        return 0
    }

    // MARK: - Literals

    /// Reads `true`, `false` or `null` (whose first byte is at `offset`) and appends its token.
    @inline(__always)
    private func scanLiteral(
        _ kind: JSONKind,
        at offset: Int,
        into tokens: inout TokenWriter
    ) throws(JSONSyntaxError) -> Int {
        let length = kind == .false ? 5 : 4
        // The last four bytes of the literal, as one little-endian word.
        let tail: UInt32
        switch kind {
        case .true: tail = Self.word("t", "r", "u", "e")
        case .false: tail = Self.word("a", "l", "s", "e")
        default: tail = Self.word("n", "u", "l", "l")
        }
        let end = offset + length
        guard end <= count, UInt32(littleEndian: base.loadUnaligned(fromByteOffset: end - 4, as: UInt32.self)) == tail
        else {
            throw literalError(kind, at: offset)
        }
        let index = tokens.count
        tokens.append(JSONToken(kind: kind, hasEscapes: false, start: offset, end: end, count: 0, next: index + 1))
        return end
    }

    /// The error for a literal that does not match: the first differing byte, or the end of the input.
    private func literalError(_ kind: JSONKind, at offset: Int) -> JSONSyntaxError {
        let text: StaticString = kind == .true ? "true" : kind == .false ? "false" : "null"
        for index in 0..<text.utf8CodeUnitCount {
            guard offset + index < count else {
                return JSONSyntaxError(.unexpectedEnd(expected: .literal(kind)), at: count)
            }
            if self[offset + index] != text.utf8Start[index] {
                return JSONSyntaxError(.invalidLiteral(kind), at: offset + index)
            }
        }
        preconditionFailure("literalError called for a matching literal")
    }

    @inline(__always)
    private static func word(
        _ a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar, _ d: Unicode.Scalar
    ) -> UInt32 {
        UInt32(a.value) | UInt32(b.value) << 8 | UInt32(c.value) << 16 | UInt32(d.value) << 24
    }

    // MARK: - Numbers

    /// RFC 8259 §6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT );
    /// frac = decimal-point 1*DIGIT; exp = e [ minus / plus ] 1*DIGIT. Returns the offset after the number.
    @inline(__always)
    private func scanNumber(from start: Int) throws(JSONSyntaxError) -> Int {
        var offset = start
        if self[offset] == .minus {
            offset += 1
            guard offset < count else { throw JSONSyntaxError(.unexpectedEnd(expected: .digit), at: count) }
        }
        let first = self[offset]
        if first == .zero {
            offset += 1
            if offset < count && self[offset].isASCIIDigit {
                throw JSONSyntaxError(.invalidNumber(.leadingZero), at: offset)
            }
        } else if first.isASCIIDigit {
            offset = skipDigits(from: offset + 1)
        } else {
            throw JSONSyntaxError(.invalidNumber(.missingIntegerDigit), at: offset)
        }
        if offset < count && self[offset] == .period {
            offset = try skipRequiredDigits(from: offset + 1, else: .missingFractionDigit)
        }
        if offset < count && self[offset] | 0x20 == .lowercaseE {  // `e` or `E`
            offset += 1
            if offset < count && (self[offset] == .plus || self[offset] == .minus) {
                offset += 1
            }
            offset = try skipRequiredDigits(from: offset, else: .missingExponentDigit)
        }
        return offset
    }

    @inline(__always)
    private func skipDigits(from offset: Int) -> Int {
        var offset = offset
        while offset < count && self[offset].isASCIIDigit {
            offset += 1
        }
        return offset
    }

    /// Skips `1*DIGIT`; `problem` names the rule broken when there is no digit at all.
    @inline(__always)
    private func skipRequiredDigits(
        from offset: Int,
        else problem: JSONSyntaxError.NumberProblem
    ) throws(JSONSyntaxError) -> Int {
        guard offset < count else { throw JSONSyntaxError(.unexpectedEnd(expected: .digit), at: count) }
        guard self[offset].isASCIIDigit else { throw JSONSyntaxError(.invalidNumber(problem), at: offset) }
        return skipDigits(from: offset + 1)
    }

    // MARK: - Strings

    /// Scans a string's content from just after its opening quote; returns the offset of the closing quote and
    /// whether the content holds a backslash. RFC 8259 §7 (escapes, no unescaped U+0000–U+001F) and §8.1 (UTF-8).
    ///
    /// Most strings (keys, ids, short values) are plain ASCII: their first stop byte is the closing quote, found
    /// in `stops` inline in the structural loop. Anything else takes the general scan, a call away, which goes on
    /// from that first stop byte.
    @inline(__always)
    private func scanString(
        contentStart: Int,
        stops: inout StopBlock
    ) throws(JSONSyntaxError) -> (end: Int, hasEscapes: Bool) {
        let stop = firstStopByte(from: contentStart, in: &stops)
        guard stop < count, self[stop] == .quote else { return try scanAnyString(from: stop, stops: &stops) }
        return (stop, false)
    }

    /// `scanString` for every string: escapes, non-ASCII characters, going on from `start`, a byte of the string's
    /// content (or its end) before which every byte of the content is plain ASCII.
    @inline(never)
    private func scanAnyString(
        from start: Int,
        stops: inout StopBlock
    ) throws(JSONSyntaxError) -> (end: Int, hasEscapes: Bool) {
        var offset = start
        var hasEscapes = false
        while true {
            offset = firstStopByte(from: offset, in: &stops)
            guard offset < count else {
                throw JSONSyntaxError(.unexpectedEnd(expected: .stringEnd), at: count)
            }
            let byte = self[offset]
            if byte == .quote {
                return (offset, hasEscapes)
            } else if byte == .backslash {
                hasEscapes = true
                offset = try scanEscape(at: offset)
            } else if byte >= .firstNonASCII {
                offset = try scanUTF8Sequence(at: offset)
                offset = skipThreeByteSequences(from: offset)
            } else {
                throw JSONSyntaxError(.controlCharacterInString(byte), at: offset)  // the only stop byte left
            }
        }
    }

    // MARK: - Stop bytes

    /// The offset of the first byte from `offset` (at most `count`) on that is `"`, `\`, below U+0020 or
    /// non-ASCII, or `count`. Scans only go forward, so `offset` is behind `block` only after a search has run past
    /// the input's end: then the wrapped shift takes the call, whose blocks past the end answer `count`.
    @inline(__always)
    private func firstStopByte(from offset: Int, in block: inout StopBlock) -> Int {
        let shift = UInt(bitPattern: offset &- block.start)
        if shift < 64 {
            let rest = block.bits &>> shift
            if rest != 0 { return offset &+ rest.trailingZeroBitCount }
        }
        return firstStopByte(fromBlockOf: offset, in: &block)
    }

    /// `firstStopByte` past the current block: enters the next one (or, after a stretch without strings, the
    /// block of `offset`), block by block until a stop byte. Each block is classified once.
    @inline(never)
    private func firstStopByte(fromBlockOf offset: Int, in block: inout StopBlock) -> Int {
        if offset &- block.start >= 128 {  // the next string lies beyond the next block
            block.start = (offset & ~63) &- 64
            block.nextBits = stopBits(ofBlockAt: block.start &+ 64)
        }
        while true {
            block.start &+= 64
            block.bits = block.nextBits
            block.nextBits = stopBits(ofBlockAt: block.start &+ 64)
            let from = max(offset, block.start)
            let rest = block.bits &>> UInt(from &- block.start)
            // A block past the end is all stop bits: its first bit, clamped, is the end itself.
            if rest != 0 { return min(from &+ rest.trailingZeroBitCount, count) }
        }
    }

    /// The stop bits of the 64 bytes at `start` (a multiple of 64). A block wholly past the input's end is all stop
    /// bits, so a search always ends; in the last block, which the end cuts short, the bits past the end are clear.
    @inline(__always)
    private func stopBits(ofBlockAt start: Int) -> UInt64 {
        if start &+ 64 <= count { return Self.stopBits(of64BytesAt: base + start) }
        return start < count ? stopBits(ofLastBlockAt: start) : ~0
    }

    /// `stopBits(ofBlockAt:)` for the last block: the bits of the input's last 64 bytes, shifted down to the block,
    /// or, in an input shorter than 64 bytes, those of a copy padded with spaces.
    @inline(never)
    private func stopBits(ofLastBlockAt start: Int) -> UInt64 {
        if count >= 64 { return Self.stopBits(of64BytesAt: base + (count &- 64)) &>> UInt64(64 &- (count &- start)) }
        return withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { padded in
            padded.initializeMemory(as: UInt8.self, repeating: .space)
            padded.baseAddress!.copyMemory(from: base, byteCount: count)
            return Self.stopBits(of64BytesAt: UnsafeRawPointer(padded.baseAddress!))
        }
    }

    /// Bit `i` set when byte `i` of the 64 at `bytes` is `"`, `\`, below U+0020 or non-ASCII.
    @inline(__always)
    static func stopBits(of64BytesAt bytes: UnsafeRawPointer) -> UInt64 {
        var bits: UInt64 = 0
        #if arch(x86_64)
            // SSE2, which every x86-64 CPU has. Read as signed bytes, every byte below U+0020 and every non-ASCII byte
            // (0x80–0xFF, negative) is less than 0x20, so one comparison finds both.
            for part in 0..<4 {
                let chunk = _mm_loadu_si128((bytes + 16 &* part).assumingMemoryBound(to: __m128i.self))
                let stops = _mm_or_si128(
                    _mm_or_si128(
                        _mm_cmpeq_epi8(chunk, _mm_set1_epi8(CChar(bitPattern: .quote))),
                        _mm_cmpeq_epi8(chunk, _mm_set1_epi8(CChar(bitPattern: .backslash)))),
                    _mm_cmplt_epi8(chunk, _mm_set1_epi8(CChar(bitPattern: .firstUnescapedByte))))
                bits |= UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(stops))) &<< (16 &* part)
            }
        #else
            for part in 0..<8 {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 &* part, as: UInt64.self))
                bits |= stopBits(inWord: word) &<< (8 &* part)
            }
        #endif
        return bits
    }

    /// Bit `i` (of the low 8) set when byte `i` of `word`, in memory order, is `"`, `\`, below U+0020 or
    /// non-ASCII: the portable form of the block classification. A multiplication gathers the marks' high bits.
    @inline(__always)
    static func stopBits(inWord word: UInt64) -> UInt64 {
        ((stopMarks(inWord: word) &>> 7) &* 0x0102_0408_1020_4080) &>> 56
    }

    /// A word whose byte `i` has its high bit set, and no other bit, exactly when byte `i` of `word` (in memory
    /// order) is `"`, `\`, below U+0020 or non-ASCII.
    ///
    /// `((x & 0x7F) + 0x7F) | x` has its high bit clear exactly when the byte `x` is 0, and no byte carries into the
    /// next, so `x ^ '"'` marks quotes; `(x & 0x7F) + 0x60` has its high bit clear exactly when the low seven bits
    /// are below 0x20; the high bit of `x` itself marks non-ASCII.
    @inline(__always)
    static func stopMarks(inWord word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { ~(((x & low7) &+ low7) | x) }
        let quotes = zeroBytes(word ^ (ones &* UInt64(UInt8.quote)))
        let backslashes = zeroBytes(word ^ (ones &* UInt64(UInt8.backslash)))
        let controls = ~((word & low7) &+ ones &* UInt64(0x80 - UInt8.firstUnescapedByte))
        return (quotes | backslashes | controls | word) & ~low7
    }

    /// Validates the escape whose backslash is at `offset`; returns the offset after it (after both halves of a
    /// surrogate pair).
    private func scanEscape(at offset: Int) throws(JSONSyntaxError) -> Int {
        guard offset + 1 < count else {
            throw JSONSyntaxError(.unexpectedEnd(expected: .escapedCharacter), at: count)
        }
        let escaped = self[offset + 1]
        switch escaped {
        case .quote, .backslash, .slash, .lowercaseB, .lowercaseF, .lowercaseN, .lowercaseR, .lowercaseT:
            return offset + 2
        case .lowercaseU:
            let unit = try hexQuad(at: offset + 2)
            switch unit {
            case 0xD800...0xDBFF:
                // RFC 8259 §7: a character outside the BMP is a high surrogate escape followed by a low one.
                let low = offset + 6
                guard low < count else { throw JSONSyntaxError(.unexpectedEnd(expected: .lowSurrogate), at: count) }
                guard self[low] == .backslash else { throw JSONSyntaxError(.loneSurrogate(unit), at: offset) }
                guard low + 1 < count else {
                    throw JSONSyntaxError(.unexpectedEnd(expected: .lowSurrogate), at: count)
                }
                guard self[low + 1] == .lowercaseU else { throw JSONSyntaxError(.loneSurrogate(unit), at: offset) }
                guard try hexQuad(at: low + 2) & 0xFC00 == 0xDC00 else {
                    throw JSONSyntaxError(.loneSurrogate(unit), at: offset)
                }
                return low + 6
            case 0xDC00...0xDFFF:
                throw JSONSyntaxError(.loneSurrogate(unit), at: offset)
            default:
                return offset + 6
            }
        default:
            throw JSONSyntaxError(.invalidEscape(escaped), at: offset + 1)
        }
    }

    /// The code unit of the four hex digits at `offset`.
    private func hexQuad(at offset: Int) throws(JSONSyntaxError) -> UInt16 {
        var unit: UInt16 = 0
        for index in offset..<offset + 4 {
            guard index < count else { throw JSONSyntaxError(.unexpectedEnd(expected: .hexDigit), at: count) }
            guard let digit = self[index].hexDigitValue else {
                throw JSONSyntaxError(.invalidUnicodeEscape(self[index]), at: index)
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// Skips a run of three-byte UTF-8 sequences (most CJK text) one character per step, checking each with one
    /// 32-bit load (so a character among the last three bytes of the input is left to the general path): a lead
    /// 1110xxxx other than E0 and ED (whose second byte has a narrower range) followed by two continuation bytes
    /// 10xxxxxx is always valid (RFC 3629 §4). Returns the offset of the first byte that is not such a sequence.
    @inline(__always)
    private func skipThreeByteSequences(from start: Int) -> Int {
        var offset = start
        while offset &+ 4 <= count {
            let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let lead = word & 0xFF
            guard word & 0x00C0_C0F0 == 0x0080_80E0, lead != 0xE0, lead != 0xED else { break }
            offset &+= 3
        }
        return offset
    }

    /// Validates the multi-byte UTF-8 sequence whose lead byte is at `offset` (RFC 3629 §4: no overlongs, no
    /// surrogates, nothing above U+10FFFF); returns the offset after it.
    @inline(__always)
    private func scanUTF8Sequence(at offset: Int) throws(JSONSyntaxError) -> Int {
        let lead = self[offset]
        // The sequence length, and the range of its second byte (later ones are any continuation byte).
        let (length, lowest, highest): (Int, UInt8, UInt8)
        switch lead {
        case 0xC2...0xDF: (length, lowest, highest) = (2, 0x80, 0xBF)
        case 0xE0: (length, lowest, highest) = (3, 0xA0, 0xBF)  // no overlong 3-byte forms
        case 0xE1...0xEC, 0xEE...0xEF: (length, lowest, highest) = (3, 0x80, 0xBF)
        case 0xED: (length, lowest, highest) = (3, 0x80, 0x9F)  // no UTF-16 surrogates U+D800–U+DFFF
        case 0xF0: (length, lowest, highest) = (4, 0x90, 0xBF)  // no overlong 4-byte forms
        case 0xF1...0xF3: (length, lowest, highest) = (4, 0x80, 0xBF)
        case 0xF4: (length, lowest, highest) = (4, 0x80, 0x8F)  // nothing above U+10FFFF
        default: throw JSONSyntaxError(.invalidUTF8(lead), at: offset)  // continuation, C0, C1, F5–FF
        }
        guard offset + 1 < count else {
            throw JSONSyntaxError(.unexpectedEnd(expected: .utf8Continuation), at: count)
        }
        let second = self[offset + 1]
        // docs/errors.md, "HTTP errors": the offset is the first byte that cannot be accepted — here the byte after a
        // valid lead.
        guard second >= lowest && second <= highest else { throw JSONSyntaxError(.invalidUTF8(second), at: offset + 1) }
        for index in offset + 2..<offset + length {
            guard index < count else { throw JSONSyntaxError(.unexpectedEnd(expected: .utf8Continuation), at: count) }
            guard self[index].isUTF8Continuation else { throw JSONSyntaxError(.invalidUTF8(self[index]), at: index) }
        }
        return offset + length
    }
}

/// The stop bits of the 64-byte block a scan is in, and of the block after it. Entering a block classifies the one
/// after it, whose bits are wanted only later, so the processor does that work while the scan goes on; by the time
/// a string runs on into that block its bits are ready.
private struct StopBlock {
    /// The offset of the block's first byte, a multiple of 64.
    var start: Int
    /// Bit `i` set when byte `start + i` is `"`, `\`, below U+0020 or non-ASCII (see `stopBits(ofBlockAt:)` for
    /// the blocks the input's end cuts short or lies before).
    var bits: UInt64
    /// The bits of the block after it.
    var nextBits: UInt64
}

/// Appends tokens into memory reserved for them; `JSONScanner.tokenBound` guarantees the room.
private struct TokenWriter {
    /// The first reserved slot.
    let base: UnsafeMutablePointer<JSONToken>
    /// The number of reserved slots.
    let capacity: Int
    /// Slots written so far, all initialised.
    private(set) var count = 0

    init(base: UnsafeMutablePointer<JSONToken>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    @inline(__always)
    mutating func append(_ token: JSONToken) {
        precondition(count < capacity, "JSONScanner.tokenBound is too small")
        (base + count).initialize(to: token)
        count += 1
    }

    /// A token already written (an open container, completed when it closes), addressed in place so that setting
    /// one field stores only that field.
    @inline(__always)
    subscript(index: Int) -> JSONToken {
        unsafeAddress { UnsafePointer(base + index) }
        nonmutating unsafeMutableAddress { base + index }
    }
}
