import Testing

// SPDX-License-Identifier: Apache-2.0
@testable import MapperCore

struct JSONScannerTests {
    // MARK: - Tape layout

    @Test func laysOutTheDesignCommentExample() throws {
        let tape = try JSONTape.scanning(#"{"id":7,"tags":["a","b"],"ok":true}"#).get()
        #expect(
            tape.tokens == [
                .init(kind: .object, hasEscapes: false, start: 0, end: 35, count: 3, next: 9),
                .init(kind: .string, hasEscapes: false, start: 2, end: 4, count: 0, next: 2),
                .init(kind: .number, hasEscapes: false, start: 6, end: 7, count: 0, next: 3),
                .init(kind: .string, hasEscapes: false, start: 9, end: 13, count: 0, next: 4),
                .init(kind: .array, hasEscapes: false, start: 15, end: 24, count: 2, next: 7),
                .init(kind: .string, hasEscapes: false, start: 17, end: 18, count: 0, next: 6),
                .init(kind: .string, hasEscapes: false, start: 21, end: 22, count: 0, next: 7),
                .init(kind: .string, hasEscapes: false, start: 26, end: 28, count: 0, next: 8),
                .init(kind: .true, hasEscapes: false, start: 30, end: 34, count: 0, next: 9),
            ])
    }

    @Test func laysOutNestedContainersWithSubtreeSkips() throws {
        //           0         1         2         3
        //           0123456789012345678901234567890123456
        let text = #"[[1,[2]],{},{"a":{"b":null}},[],"\n"]"#
        let tape = try JSONTape.scanning(text).get()
        #expect(
            tape.tokens == [
                .init(kind: .array, hasEscapes: false, start: 0, end: 37, count: 5, next: 13),
                .init(kind: .array, hasEscapes: false, start: 1, end: 8, count: 2, next: 5),
                .init(kind: .number, hasEscapes: false, start: 2, end: 3, count: 0, next: 3),
                .init(kind: .array, hasEscapes: false, start: 4, end: 7, count: 1, next: 5),
                .init(kind: .number, hasEscapes: false, start: 5, end: 6, count: 0, next: 5),
                .init(kind: .object, hasEscapes: false, start: 9, end: 11, count: 0, next: 6),
                .init(kind: .object, hasEscapes: false, start: 12, end: 28, count: 1, next: 11),
                .init(kind: .string, hasEscapes: false, start: 14, end: 15, count: 0, next: 8),
                .init(kind: .object, hasEscapes: false, start: 17, end: 27, count: 1, next: 11),
                .init(kind: .string, hasEscapes: false, start: 19, end: 20, count: 0, next: 10),
                .init(kind: .null, hasEscapes: false, start: 22, end: 26, count: 0, next: 11),
                .init(kind: .array, hasEscapes: false, start: 29, end: 31, count: 0, next: 12),
                .init(kind: .string, hasEscapes: true, start: 33, end: 35, count: 0, next: 13),
            ])
    }

    @Test(arguments: [
        ("true", JSONKind.true, 0, 4), ("false", .false, 0, 5), ("null", .null, 0, 4),
        ("-12.5e+3", .number, 0, 8), ("0", .number, 0, 1), (" \"x\" ", .string, 2, 3), ("\n\t\r 42 \n", .number, 4, 6),
    ])
    func scansTopLevelScalars(text: String, kind: JSONKind, start: Int, end: Int) throws {
        let tape = try JSONTape.scanning(text).get()
        #expect(tape.tokens == [JSONToken(kind: kind, hasEscapes: false, start: start, end: end, count: 0, next: 1)])
    }

    @Test func marksOnlyStringsWithABackslashAsEscaped() throws {
        let tape = try JSONTape.scanning(#"{"plain":"é","k\u0065y":"a\/b"}"#).get()
        #expect(tape.tokens.map(\.hasEscapes) == [false, false, false, true, true])
    }

    @Test func acceptsWhitespaceEverywhereRFC8259Allows() throws {
        let tape = try JSONTape.scanning(" \t\r\n{ \"a\" \n:\r[ 1 ,\t2 ] , \"b\" : { } }\n ").get()
        #expect(tape.tokens.map(\.kind) == [.object, .string, .array, .number, .number, .string, .object])
        #expect(tape.tokens[0].count == 2 && tape.tokens[2].count == 2 && tape.tokens[6].count == 0)
        tape.expectWellFormed()
    }

    @Test func reusesTheTapeAcrossScans() throws {
        var tape = JSONTape()
        let first = Array(#"[1,2,3,[4,5,[6]],{"a":[7,8,9]}]"#.utf8)
        try first.withUnsafeBytes { bytes in try JSONScanner.scan(bytes, into: &tape, maxDepth: 8) }
        let capacity = tape.tokens.capacity
        let second = Array("[true]".utf8)
        try second.withUnsafeBytes { bytes in try JSONScanner.scan(bytes, into: &tape, maxDepth: 8) }
        #expect(tape.tokens.map(\.kind) == [.array, .true])
        #expect(tape.tokens.capacity >= capacity)
        #expect(tape.tokens.map(\.next) == [2, 2])
    }

    // MARK: - Errors

    @Test(arguments: ErrorCase.all)
    func reportsEveryErrorWithItsExactOffset(_ errorCase: ErrorCase) {
        guard case .failure(let error) = JSONTape.scanning(errorCase.bytes, maxDepth: errorCase.maxDepth) else {
            Issue.record("accepted \(errorCase)")
            return
        }
        #expect(error.reason == errorCase.reason)
        #expect(error.offset == errorCase.offset)
        let location = errorCase.bytes.withUnsafeBytes { error.location(in: $0) }
        #expect(location.line == errorCase.line && location.column == errorCase.column)
        #expect(error.isNestingTooDeep == (errorCase.reason == .nestingTooDeep(limit: errorCase.maxDepth)))
        #expect(error.description.first?.isUppercase == true && error.description.hasSuffix("."))
    }

    @Test func describesErrorsInOneSentence() {
        let examples: [(JSONSyntaxError.Reason, String)] = [
            (
                .unexpectedByte(UInt8(ascii: "x"), expected: .commaOrArrayEnd),
                "Unexpected byte 'x' in an array; expected ',' or ']'."
            ),
            (.unexpectedByte(0xEF, expected: .value), "Unexpected byte 0xEF; expected a JSON value."),
            (.unexpectedEnd(expected: .stringEnd), "The input ends too early in a string; expected the closing '\"'."),
            (.invalidUTF8(0xC0), "Byte 0xC0 is not valid UTF-8 here."),
            (
                .loneSurrogate(0xD800),
                "Lone surrogate escape \\uD800 in a string; a high surrogate \\uD800–\\uDBFF must be followed by a low surrogate \\uDC00–\\uDFFF."
            ),
            (
                .controlCharacterInString(0x0A),
                "Unescaped control character U+000A in a string; U+0000–U+001F must be escaped."
            ),
            (.invalidNumber(.leadingZero), "Invalid number: leading zeros are not allowed."),
            (.invalidLiteral(.true), "Invalid literal; expected 'true'."),
            (
                .trailingContent(UInt8(ascii: "]")),
                "Unexpected byte ']' after the top-level value; a JSON text holds exactly one value."
            ),
            (.nestingTooDeep(limit: 512), "Arrays and objects are nested deeper than the limit of 512 levels."),
        ]
        for (reason, sentence) in examples {
            #expect(JSONSyntaxError(reason, at: 0).description == sentence)
        }
    }

    @Test func computesLineAndColumnFromLineFeedsOnly() {
        let bytes = Array("ab\r\ncd\n\nef".utf8)
        let cases: [(offset: Int, line: Int, column: Int)] = [
            (0, 1, 1), (2, 1, 3), (3, 1, 4), (4, 2, 1), (6, 2, 3), (7, 3, 1), (8, 4, 1), (10, 4, 3),
        ]
        for (offset, line, column) in cases {
            let location = bytes.withUnsafeBytes { JSONSyntaxError(.invalidUTF8(0), at: offset).location(in: $0) }
            #expect(location == (line, column), "offset \(offset)")
        }
    }

    // MARK: - Depth

    @Test(arguments: [1, 2, 3, 64, 512, 1024])
    func acceptsExactlyMaxDepthAndRejectsOneMore(maxDepth: Int) throws {
        let arrays = String(repeating: "[", count: maxDepth) + String(repeating: "]", count: maxDepth)
        #expect(try JSONTape.scanning(arrays, maxDepth: maxDepth).get().tokens.count == maxDepth)
        let deeper = "[" + arrays + "]"
        #expect(throws: JSONSyntaxError(.nestingTooDeep(limit: maxDepth), at: maxDepth)) {
            try JSONTape.scanning(deeper, maxDepth: maxDepth).get()
        }
        let objects = String(repeating: #"{"k":"#, count: maxDepth) + "0" + String(repeating: "}", count: maxDepth)
        #expect(try JSONTape.scanning(objects, maxDepth: maxDepth).get().tokens.count == 2 * maxDepth + 1)
        let deeperObjects =
            String(repeating: #"{"k":"#, count: maxDepth + 1) + "0" + String(repeating: "}", count: maxDepth + 1)
        #expect(throws: JSONSyntaxError(.nestingTooDeep(limit: maxDepth), at: 5 * maxDepth)) {
            try JSONTape.scanning(deeperObjects, maxDepth: maxDepth).get()
        }
    }

    @Test func rejectsAMillionOpenArraysAtTheLimit() {
        let bytes = [UInt8](repeating: .openBracket, count: 1_000_000)
        #expect(throws: JSONSyntaxError(.nestingTooDeep(limit: 512), at: 512)) {
            try JSONTape.scanning(bytes).get()
        }
    }

    @Test func scansDeepNestingWithoutRecursion() throws {
        // 200,000 levels would overflow a recursive scanner's stack; here each open container links to its parent
        // through its own token, so depth costs nothing but tokens.
        let depth = 200_000
        var bytes = [UInt8](repeating: .openBracket, count: depth)
        #expect(throws: JSONSyntaxError(.unexpectedEnd(expected: .valueOrArrayEnd), at: depth)) {
            try JSONTape.scanning(bytes, maxDepth: depth).get()
        }
        bytes += [UInt8](repeating: .closeBracket, count: depth)
        let tape = try JSONTape.scanning(bytes, maxDepth: depth).get()
        #expect(tape.tokens.count == depth && tape.tokens[0].next == depth && tape.tokens[depth - 1].end == depth + 1)
    }

    // MARK: - Sizes

    @Test func acceptsATenThousandDigitNumber() throws {
        let digits = "-1" + String(repeating: "9", count: 10_000) + ".5e-10000"
        let tape = try JSONTape.scanning("[" + digits + "]").get()
        #expect(
            tape.tokens[1]
                == JSONToken(kind: .number, hasEscapes: false, start: 1, end: 1 + digits.utf8.count, count: 0, next: 2))
    }

    @Test func scansATwentyMegabyteString() throws {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 20_000_000)
        let pieces: [[UInt8]] = [
            Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), Array("é𝄞".utf8), Array(#"\ud834\udd1e"#.utf8),
        ]
        for (index, position) in stride(from: 1_000, to: bytes.count - 100, by: 999_983).enumerated() {
            let piece = pieces[index % pieces.count]
            bytes.replaceSubrange(position..<position + piece.count, with: piece)
        }
        bytes[0] = .quote
        bytes[bytes.count - 1] = .quote
        let tape = try JSONTape.scanning(bytes).get()
        #expect(
            tape.tokens == [JSONToken(kind: .string, hasEscapes: true, start: 1, end: 19_999_999, count: 0, next: 1)])
        bytes[bytes.count - 2] = 0x1F
        #expect(throws: JSONSyntaxError(.controlCharacterInString(0x1F), at: 19_999_998)) {
            try JSONTape.scanning(bytes).get()
        }
    }

    // MARK: - Byte-order mark

    @Test func skipsAByteOrderMarkButKeepsItInOffsets() throws {
        let tape = try JSONTape.scanning([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8)).get()
        #expect(tape.tokens[0] == JSONToken(kind: .object, hasEscapes: false, start: 3, end: 10, count: 1, next: 3))
        #expect(tape.tokens[1].start == 5)
    }

    @Test(
        arguments: [
            ([0xEF, 0xBB, 0xBF], JSONSyntaxError(.unexpectedEnd(expected: .value), at: 3)),
            ([0xEF, 0xBB], JSONSyntaxError(.unexpectedEnd(expected: .byteOrderMark), at: 2)),
            ([0xEF], JSONSyntaxError(.unexpectedEnd(expected: .byteOrderMark), at: 1)),
            ([0xEF, 0xBB, 0x7B, 0x7D], JSONSyntaxError(.unexpectedByte(0xEF, expected: .value), at: 0)),
            (
                [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x30],
                JSONSyntaxError(.unexpectedByte(0xEF, expected: .value), at: 3)
            ),
            ([0x20, 0xEF, 0xBB, 0xBF, 0x30], JSONSyntaxError(.unexpectedByte(0xEF, expected: .value), at: 1)),
        ] as [([UInt8], JSONSyntaxError)])
    func acceptsTheByteOrderMarkOnlyOnceAndOnlyFirst(bytes: [UInt8], error: JSONSyntaxError) {
        #expect(throws: error) { try JSONTape.scanning(bytes).get() }
    }

    // MARK: - Drip feeding

    @Test(arguments: [
        #"{"id":7,"tags":["a","b"],"ok":true}"#,
        #"[{"k":"\u00e9\ud834\udd1e\n","":[]}, -12.5e+3, 0.0E-0, [[]], {}, null, false, "é 𝄞 \" \\"]"#,
        " {\"a\" : [ 1 , 2 ] }",
        #""abc\u0041\/""#,
        "-0.25e+10",
        "\u{FEFF}[1]",
    ])
    func failsOnlyWithUnexpectedEndUntilTheTextIsWhole(text: String) throws {
        let bytes = Array(text.utf8)
        #expect(throws: Never.self) { try JSONTape.scanning(bytes).get() }
        let isContainer = bytes.contains(.openBracket) || bytes.contains(.openBrace)
        for length in 0..<bytes.count {
            switch JSONTape.scanning(Array(bytes[..<length])) {
            case .success:
                #expect(!isContainer, "prefix of length \(length) accepted")
            case .failure(let error):
                guard case .unexpectedEnd = error.reason, error.offset == length else {
                    Issue.record("prefix of length \(length): \(error) at \(error.offset)")
                    continue
                }
            }
        }
    }

    // MARK: - UTF-8

    @Test func agreesWithTheStandardLibraryOnEveryTwoByteSequence() {
        var tape = JSONTape()
        for first in UInt8(0x20)...0xFF where first != .quote && first != .backslash {
            for second in UInt8(0x20)...0xFF where second != .quote && second != .backslash {
                let content = [first, second]
                let bytes: [UInt8] = [.quote] + content + [.quote]
                let accepted = bytes.withUnsafeBytes { buffer in
                    (try? JSONScanner.scan(buffer, into: &tape, maxDepth: 1)) != nil
                }
                #expect(accepted == (String(validating: content, as: UTF8.self) != nil), "\(content)")
            }
        }
    }

    @Test func agreesWithTheStandardLibraryOnRandomSequences() {
        var random = NumberFixture.Random(seed: 0x5EED)
        let interesting: [UInt8] = [
            0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
            0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        var tape = JSONTape()
        for _ in 0..<20_000 {
            let length = Int(random.next() % 12) + 1
            let content = (0..<length).map { _ in interesting[Int(random.next() % UInt64(interesting.count))] }
            let bytes: [UInt8] = Array("[\"".utf8) + content + Array("\"]".utf8)
            let accepted = bytes.withUnsafeBytes { buffer in
                (try? JSONScanner.scan(buffer, into: &tape, maxDepth: 1)) != nil
            }
            #expect(accepted == (String(validating: content, as: UTF8.self) != nil), "\(content)")
        }
    }

    /// Runs of three-byte characters are checked one character per step; a bad sequence after any such run is
    /// still refused at its own first unacceptable byte, as the byte-by-byte path reports it.
    @Test func refusesBadSequencesAfterRunsOfThreeByteCharacters() {
        let bad: [(bytes: [UInt8], reason: JSONSyntaxError.Reason, at: Int)] = [
            ([0xE0, 0x9F, 0xBF], .invalidUTF8(0x9F), 1),  // overlong
            ([0xED, 0xA0, 0x80], .invalidUTF8(0xA0), 1),  // a surrogate
            ([0xE1, 0xC0, 0x80], .invalidUTF8(0xC0), 1),  // no continuation byte
            ([0xE1, 0x80, 0xC0], .invalidUTF8(0xC0), 2),
            ([0xEF, 0xBF, 0x22], .invalidUTF8(0x22), 2),  // the closing quote where a continuation byte belongs
            ([0xFF, 0x80, 0x80], .invalidUTF8(0xFF), 0),
        ]
        var tape = JSONTape()
        for run in 0...5 {
            let prefix: [UInt8] = Array("[\"".utf8) + Array(String(repeating: "中", count: run).utf8)
            for (sequence, reason, at) in bad {
                let bytes = prefix + sequence + Array("ab\"]".utf8)
                let error = bytes.withUnsafeBytes { buffer -> JSONSyntaxError? in
                    do throws(JSONSyntaxError) {
                        try JSONScanner.scan(buffer, into: &tape, maxDepth: 4)
                        return nil
                    } catch { return error }
                }
                #expect(error == JSONSyntaxError(reason, at: prefix.count + at), "run \(run), \(sequence)")
            }
            let valid = prefix + [0xE1, 0x80, 0x80, 0xEC, 0xBF, 0xBF, 0xEE, 0x80, 0x80] + Array("\"]".utf8)
            #expect(valid.withUnsafeBytes { (try? JSONScanner.scan($0, into: &tape, maxDepth: 4)) != nil })
        }
    }

    @Test(arguments: [false, true])
    func findsStopBytesAtEveryPositionOfTheBlocks(afterAnotherString: Bool) throws {
        // Each special byte at each position of strings short and long, starting 0 or 61 bytes into their block,
        // so that they end inside it, in the next block (classified ahead) or in the one after; 0, 5, 17 or 70
        // spaces follow, so the input ends inside the string's last block, just after it or blocks later. The
        // string is the whole text, whose first block is found by a call, or follows `["",` in an array, so that
        // its end is found inline in a block already classified. Bytes just beside the stop classes (space, DEL,
        // `!`, `[`, `]`) must not stop the scan.
        let filler = UInt8(ascii: "z")
        let (opening, closing) = afterAnotherString ? (Array(#"["","#.utf8), [UInt8.closeBracket]) : ([], [])
        for prefix in [0, 61] {
            for length in Array(1..<40) + [62, 63, 64, 65, 66, 127, 128, 129] {
                for padding in [0, 5, 17, 70] {
                    let start = opening.count + prefix + 1
                    let clean =
                        opening + [UInt8](repeating: .space, count: prefix) + [.quote]
                        + [UInt8](repeating: filler, count: length) + [.quote]
                        + [UInt8](repeating: .space, count: padding) + closing
                    let string = afterAnotherString ? 2 : 0
                    #expect(try JSONTape.scanning(clean).get().tokens[string].end == start + length)
                    for position in 0..<length {
                        for plain: UInt8 in [0x20, 0x7F, 0x21, 0x5B, 0x5D] {
                            var bytes = clean
                            bytes[start + position] = plain
                            #expect(try JSONTape.scanning(bytes).get().tokens[string].end == start + length)
                        }
                        try expectStopBytes(
                            clean, at: start + position, isLast: position == length - 1, inArray: afterAnotherString)
                    }
                }
            }
        }
    }

    /// Each stop byte at `offset` of the clean string: the error and offset the byte-by-byte definition gives.
    private func expectStopBytes(_ clean: [UInt8], at offset: Int, isLast: Bool, inArray: Bool) throws {
        for special: UInt8 in [.quote, .backslash, 0x1F, 0x00, 0x80, 0xFF] {
            var bytes = clean
            bytes[offset] = special
            let expected: JSONSyntaxError
            switch special {
            case .quote:  // the string ends early; what follows is trailing content, or no `,` or `]`
                let next = clean[offset + 1]
                expected = JSONSyntaxError(
                    inArray ? .unexpectedByte(next, expected: .commaOrArrayEnd) : .trailingContent(next),
                    at: offset + 1)
            case .backslash:  // `\z` is no escape; `\"` escapes the closing quote, so the string never ends
                expected =
                    isLast
                    ? JSONSyntaxError(.unexpectedEnd(expected: .stringEnd), at: bytes.count)
                    : JSONSyntaxError(.invalidEscape(clean[offset + 1]), at: offset + 1)
            case 0x80, 0xFF:
                expected = JSONSyntaxError(.invalidUTF8(special), at: offset)
            default:
                expected = JSONSyntaxError(.controlCharacterInString(special), at: offset)
            }
            #expect(throws: expected) { try JSONTape.scanning(bytes).get() }
        }
    }

    @Test func endsAStringAtTheLastByteOfInputsOfEveryLength() throws {
        // Inputs of 2 to 200 bytes ending with the closing quote, and the same without it: the last block is cut
        // short at every length, and inputs under one block are classified from a padded copy.
        for length in 2...200 {
            let text = [.quote] + [UInt8](repeating: UInt8(ascii: "z"), count: length - 2) + [.quote]
            #expect(try JSONTape.scanning(text).get().tokens[0].end == length - 1)
            #expect(throws: JSONSyntaxError(.unexpectedEnd(expected: .stringEnd), at: length - 1)) {
                try JSONTape.scanning(Array(text.dropLast())).get()
            }
        }
    }

    @Test func findsStringsAfterBlocksWithoutAny() throws {
        // A number of up to 400 digits between two strings: the second string starts in the block after the
        // first's, the one after that, or several blocks on, where nothing was classified ahead.
        for digits in 1...400 {
            let number = String(repeating: "7", count: digits)
            let text = #"["a",\#(number),"bc"]"#
            let tape = try JSONTape.scanning(text).get()
            #expect(tape.tokens[3].start == digits + 7 && tape.tokens[3].end == digits + 9, "\(digits) digits")
            let bad = Array(#"["a",\#(number),"b\#u{1}"]"#.utf8)
            #expect(throws: JSONSyntaxError(.controlCharacterInString(0x01), at: digits + 8)) {
                try JSONTape.scanning(bad).get()
            }
        }
    }

    @Test func classifiesEveryByteOfABlockExactly() {
        // The SSE2 classification of 64 bytes (x86-64) and the portable one of 8 bytes, against a byte-by-byte
        // reference, on bytes biased towards each class's boundaries.
        let bytes: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0x81, 0xA0, 0xFF]
        var random = NumberFixture.Random(seed: 0xB10C)
        func isStop(_ byte: UInt8) -> Bool { byte == .quote || byte == .backslash || byte < 0x20 || byte >= 0x80 }
        for _ in 0..<20_000 {
            let block = (0..<64).map { _ in
                random.next() % 4 == 0 ? UInt8(truncatingIfNeeded: random.next()) : bytes[Int(random.next() % 15)]
            }
            let expected = block.indices.reduce(UInt64(0)) { bits, index in
                isStop(block[index]) ? bits | 1 << UInt64(index) : bits
            }
            #expect(block.withUnsafeBytes { JSONScanner.stopBits(of64BytesAt: $0.baseAddress!) } == expected)
            let portable = (0..<8).reduce(UInt64(0)) { bits, part in
                let word = block[part * 8..<part * 8 + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                return bits | JSONScanner.stopBits(inWord: word) << UInt64(part * 8)
            }
            #expect(portable == expected, "\(block)")
        }
    }

    @Test func marksTheFirstStopByteOfRandomWords() {
        // The SWAR mask JSONStrings uses against a byte-by-byte reference, on words biased towards the bytes near
        // each boundary.
        let bytes: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0x81, 0xA0, 0xFF]
        var random = NumberFixture.Random(seed: 0x57A7)
        for _ in 0..<100_000 {
            let word = (0..<8).reduce(UInt64(0)) { word, index in
                let byte =
                    random.next() % 4 == 0 ? UInt8(truncatingIfNeeded: random.next()) : bytes[Int(random.next() % 15)]
                return word | UInt64(byte) << (8 * UInt64(index))
            }
            let firstStop = (0..<8).first { index in
                let byte = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index)))
                return byte == .quote || byte == .backslash || byte < 0x20 || byte >= 0x80
            }
            let mask = JSONScanner.stopMarks(inWord: word)
            #expect((mask == 0 ? nil : mask.trailingZeroBitCount / 8) == firstStop, "\(word)")
        }
    }

    // MARK: - Robustness

    @Test func neverCrashesOnMutatedTexts() {
        let seeds = [
            #"{"id":7,"tags":["a","b"],"ok":true,"n":null,"f":-1.5e3}"#,
            #"[{"k":"\u00e9\ud834\udd1e\n"},[[]],{},"é𝄞"]"#,
        ].map { Array($0.utf8) }
        let alphabet =
            Array(#"[]{}:,"\ u0123456789abcdefE.+-tfnrl"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var random = NumberFixture.Random(seed: 42)
        var tape = JSONTape()
        for round in 0..<20_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let position = Int(random.next() % UInt64(bytes.count + 1))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0 where position < bytes.count: bytes[position] = byte
                case 1 where position < bytes.count: bytes.remove(at: position)
                default: bytes.insert(byte, at: position)
                }
            }
            bytes.withUnsafeBytes { buffer in
                do throws(JSONSyntaxError) {
                    try JSONScanner.scan(buffer, into: &tape, maxDepth: 4)
                    tape.expectWellFormed()
                } catch {
                    #expect(error.offset >= 0 && error.offset <= bytes.count)
                }
            }
        }
    }
}

// MARK: - Error table

extension JSONScannerTests {
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        var reason: JSONSyntaxError.Reason
        var offset: Int
        var line: Int
        var column: Int
        var maxDepth = 512

        var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }

        /// A case on one line: line 1, column offset + 1.
        init(_ text: String, _ reason: JSONSyntaxError.Reason, at offset: Int, maxDepth: Int = 512) {
            self.init(Array(text.utf8), reason, at: offset, maxDepth: maxDepth)
        }

        init(_ bytes: [UInt8], _ reason: JSONSyntaxError.Reason, at offset: Int, maxDepth: Int = 512) {
            self.init(bytes, reason, at: offset, line: 1, column: offset + 1, maxDepth: maxDepth)
        }

        init(
            _ bytes: [UInt8], _ reason: JSONSyntaxError.Reason, at offset: Int, line: Int, column: Int,
            maxDepth: Int = 512
        ) {
            self.bytes = bytes
            self.reason = reason
            self.offset = offset
            self.line = line
            self.column = column
            self.maxDepth = maxDepth
        }

        static func byte(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }

        static let all: [ErrorCase] = structure + ends + strings + numbers + literals + multiline
        static let structure: [ErrorCase] = [
            ErrorCase("[1,]", .unexpectedByte(byte("]"), expected: .valueAfterComma), at: 3),
            ErrorCase(#"{"a":1,}"#, .unexpectedByte(byte("}"), expected: .keyAfterComma), at: 7),
            ErrorCase("[1 2]", .unexpectedByte(byte("2"), expected: .commaOrArrayEnd), at: 3),
            ErrorCase("[1:2]", .unexpectedByte(byte(":"), expected: .commaOrArrayEnd), at: 2),
            ErrorCase(#"{"a" 1}"#, .unexpectedByte(byte("1"), expected: .colon), at: 5),
            ErrorCase(#"{"a",1}"#, .unexpectedByte(byte(","), expected: .colon), at: 4),
            ErrorCase(#"{"a":1 "b":2}"#, .unexpectedByte(byte("\""), expected: .commaOrObjectEnd), at: 7),
            ErrorCase("{1:2}", .unexpectedByte(byte("1"), expected: .keyOrObjectEnd), at: 1),
            ErrorCase("{'a':2}", .unexpectedByte(byte("'"), expected: .keyOrObjectEnd), at: 1),
            ErrorCase("[}", .unexpectedByte(byte("}"), expected: .valueOrArrayEnd), at: 1),
            ErrorCase(#"{"a":}"#, .unexpectedByte(byte("}"), expected: .valueAfterColon), at: 5),
            ErrorCase("[,1]", .unexpectedByte(byte(","), expected: .valueOrArrayEnd), at: 1),
            ErrorCase("]", .unexpectedByte(byte("]"), expected: .value), at: 0),
            ErrorCase("[1]]", .trailingContent(byte("]")), at: 3),
            ErrorCase("1 2", .trailingContent(byte("2")), at: 2),
            ErrorCase("{} x", .trailingContent(byte("x")), at: 3),
            ErrorCase("[1]//", .trailingContent(byte("/")), at: 3),
            ErrorCase("[/*c*/1]", .unexpectedByte(byte("/"), expected: .valueOrArrayEnd), at: 1),
            ErrorCase("[\u{0C}1]", .unexpectedByte(0x0C, expected: .valueOrArrayEnd), at: 1),
            ErrorCase("\u{A0}1", .unexpectedByte(0xC2, expected: .value), at: 0),
            ErrorCase([0x5B, 0xC3, 0xA9, 0x5D], .unexpectedByte(0xC3, expected: .valueOrArrayEnd), at: 1),
            ErrorCase([0x00], .unexpectedByte(0x00, expected: .value), at: 0),
            ErrorCase("[[1]]", .nestingTooDeep(limit: 1), at: 1, maxDepth: 1),
            ErrorCase(#"{"a":[{}]}"#, .nestingTooDeep(limit: 2), at: 6, maxDepth: 2),
            ErrorCase("[]", .nestingTooDeep(limit: 0), at: 0, maxDepth: 0),
        ]
        static let ends: [ErrorCase] = [
            ErrorCase("", .unexpectedEnd(expected: .value), at: 0),
            ErrorCase("   ", .unexpectedEnd(expected: .value), at: 3),
            ErrorCase("[", .unexpectedEnd(expected: .valueOrArrayEnd), at: 1),
            ErrorCase("[1", .unexpectedEnd(expected: .commaOrArrayEnd), at: 2),
            ErrorCase("[1, ", .unexpectedEnd(expected: .valueAfterComma), at: 4),
            ErrorCase("{", .unexpectedEnd(expected: .keyOrObjectEnd), at: 1),
            ErrorCase(#"{"a""#, .unexpectedEnd(expected: .colon), at: 4),
            ErrorCase(#"{"a":"#, .unexpectedEnd(expected: .valueAfterColon), at: 5),
            ErrorCase(#"{"a":1"#, .unexpectedEnd(expected: .commaOrObjectEnd), at: 6),
            ErrorCase(#"{"a":1,"#, .unexpectedEnd(expected: .keyAfterComma), at: 7),
            ErrorCase(#""abc"#, .unexpectedEnd(expected: .stringEnd), at: 4),
            ErrorCase(#""a\"#, .unexpectedEnd(expected: .escapedCharacter), at: 3),
            ErrorCase(#""\u12"#, .unexpectedEnd(expected: .hexDigit), at: 5),
            ErrorCase(#""\uD800"#, .unexpectedEnd(expected: .lowSurrogate), at: 7),
            ErrorCase(#""\uD800\"#, .unexpectedEnd(expected: .lowSurrogate), at: 8),
            ErrorCase(#""\uD800\uDC"#, .unexpectedEnd(expected: .hexDigit), at: 11),
            ErrorCase([0x22, 0xC3], .unexpectedEnd(expected: .utf8Continuation), at: 2),
            ErrorCase([0x22, 0xE2, 0x82], .unexpectedEnd(expected: .utf8Continuation), at: 3),
            ErrorCase([0x22, 0xF0, 0x9F, 0x98], .unexpectedEnd(expected: .utf8Continuation), at: 4),
            ErrorCase("-", .unexpectedEnd(expected: .digit), at: 1),
            ErrorCase("1.", .unexpectedEnd(expected: .digit), at: 2),
            ErrorCase("1e", .unexpectedEnd(expected: .digit), at: 2),
            ErrorCase("1E+", .unexpectedEnd(expected: .digit), at: 3),
            ErrorCase("tr", .unexpectedEnd(expected: .literal(.true)), at: 2),
            ErrorCase("[fals", .unexpectedEnd(expected: .literal(.false)), at: 5),
            ErrorCase("nul", .unexpectedEnd(expected: .literal(.null)), at: 3),
        ]
        static let strings: [ErrorCase] = [
            ErrorCase([0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], .invalidUTF8(0xC0), at: 2),  // overlong '/'
            ErrorCase([0x5B, 0x22, 0xC1, 0xBF, 0x22, 0x5D], .invalidUTF8(0xC1), at: 2),  // overlong 2-byte
            ErrorCase([0x5B, 0x22, 0xE0, 0x9F, 0xBF, 0x22, 0x5D], .invalidUTF8(0x9F), at: 3),  // overlong 3-byte
            ErrorCase([0x5B, 0x22, 0xF0, 0x8F, 0xBF, 0xBF, 0x22, 0x5D], .invalidUTF8(0x8F), at: 3),  // overlong 4-byte
            ErrorCase([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], .invalidUTF8(0xA0), at: 3),  // U+D800 in UTF-8
            ErrorCase([0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], .invalidUTF8(0x90), at: 3),  // U+110000
            ErrorCase([0x5B, 0x22, 0xF5, 0x80, 0x80, 0x80, 0x22, 0x5D], .invalidUTF8(0xF5), at: 2),
            ErrorCase([0x5B, 0x22, 0x80, 0x22, 0x5D], .invalidUTF8(0x80), at: 2),  // lone continuation
            ErrorCase([0x5B, 0x22, 0x61, 0x62, 0xE6, 0x97, 0x22, 0x5D], .invalidUTF8(0x22), at: 6),  // truncated
            ErrorCase([0x5B, 0x22, 0xF0, 0x9F, 0x98, 0x41, 0x22, 0x5D], .invalidUTF8(0x41), at: 5),  // truncated
            ErrorCase([0x22, 0xFF, 0x22], .invalidUTF8(0xFF), at: 1),
            ErrorCase(#"["\x"]"#, .invalidEscape(byte("x")), at: 3),
            ErrorCase(#"["\'"]"#, .invalidEscape(byte("'")), at: 3),
            ErrorCase(#"["ab\U0041"]"#, .invalidEscape(byte("U")), at: 5),
            ErrorCase([0x22, 0x5C, 0xC3, 0xA9, 0x22], .invalidEscape(0xC3), at: 2),
            ErrorCase(#""\u00G0""#, .invalidUnicodeEscape(byte("G")), at: 5),
            ErrorCase(#""\uD800\u12x4""#, .invalidUnicodeEscape(byte("x")), at: 11),
            ErrorCase(#"["\uD800"]"#, .loneSurrogate(0xD800), at: 2),
            ErrorCase(#"["\udc00"]"#, .loneSurrogate(0xDC00), at: 2),
            ErrorCase(#"["a\uD800\u0041"]"#, .loneSurrogate(0xD800), at: 3),
            ErrorCase(#"["\uD800\n"]"#, .loneSurrogate(0xD800), at: 2),
            ErrorCase(#"["\uDBFF\uDBFF"]"#, .loneSurrogate(0xDBFF), at: 2),
            ErrorCase(#"["\uD800x"]"#, .loneSurrogate(0xD800), at: 2),
            ErrorCase(#"["\uD834\uDD1E\uDD1E"]"#, .loneSurrogate(0xDD1E), at: 14),
            ErrorCase(#"{"\uDFFF":1}"#, .loneSurrogate(0xDFFF), at: 2),
            ErrorCase("[\"a\tb\"]", .controlCharacterInString(0x09), at: 3),
            ErrorCase("[\"\u{0}\"]", .controlCharacterInString(0x00), at: 2),
            ErrorCase("\"\n\"", .controlCharacterInString(0x0A), at: 1),
            ErrorCase("\"0123456789\u{1F}\"", .controlCharacterInString(0x1F), at: 11),
        ]
        static let numbers: [ErrorCase] = [
            ErrorCase("01", .invalidNumber(.leadingZero), at: 1),
            ErrorCase("[-01]", .invalidNumber(.leadingZero), at: 3),
            ErrorCase("-00", .invalidNumber(.leadingZero), at: 2),
            ErrorCase("+1", .invalidNumber(.invalidStart), at: 0),
            ErrorCase("[.5]", .invalidNumber(.invalidStart), at: 1),
            ErrorCase("-x", .invalidNumber(.missingIntegerDigit), at: 1),
            ErrorCase("[-]", .invalidNumber(.missingIntegerDigit), at: 2),
            ErrorCase("[-Infinity]", .invalidNumber(.missingIntegerDigit), at: 2),
            ErrorCase("[1.]", .invalidNumber(.missingFractionDigit), at: 3),
            ErrorCase("2.e3", .invalidNumber(.missingFractionDigit), at: 2),
            ErrorCase("[1e]", .invalidNumber(.missingExponentDigit), at: 3),
            ErrorCase("1e+x", .invalidNumber(.missingExponentDigit), at: 3),
            ErrorCase("1eE2", .invalidNumber(.missingExponentDigit), at: 2),
            ErrorCase("1.5.3", .trailingContent(byte(".")), at: 3),
            ErrorCase("[1.5.3]", .unexpectedByte(byte("."), expected: .commaOrArrayEnd), at: 4),
            ErrorCase("0x1A", .trailingContent(byte("x")), at: 1),
            ErrorCase("NaN", .unexpectedByte(byte("N"), expected: .value), at: 0),
        ]
        static let literals: [ErrorCase] = [
            ErrorCase("trux", .invalidLiteral(.true), at: 3),
            ErrorCase("[nulL]", .invalidLiteral(.null), at: 4),
            ErrorCase("fals e", .invalidLiteral(.false), at: 4),
            ErrorCase("[tru]", .invalidLiteral(.true), at: 4),
            ErrorCase("True", .unexpectedByte(byte("T"), expected: .value), at: 0),
            ErrorCase("truex", .trailingContent(byte("x")), at: 4),
        ]
        static let multiline: [ErrorCase] = [
            ErrorCase(
                Array("[\n  1,\n  ]".utf8), .unexpectedByte(byte("]"), expected: .valueAfterComma), at: 9, line: 3,
                column: 3),
            ErrorCase(Array("{\r\n\"a\": tru\r\n}".utf8), .invalidLiteral(.true), at: 11, line: 2, column: 9),
            ErrorCase(Array("[1,\n".utf8), .unexpectedEnd(expected: .valueAfterComma), at: 4, line: 2, column: 1),
            ErrorCase(Array("\n\n\"é\u{1}\"".utf8), .controlCharacterInString(0x01), at: 5, line: 3, column: 4),
        ]
    }
}

// MARK: - Fixtures

extension JSONTape {
    /// Scans `bytes` into a fresh tape at the tests' usual depth limit.
    static func scanning(_ bytes: [UInt8]) -> Result<JSONTape, JSONSyntaxError> {
        scanning(bytes, maxDepth: 512)
    }

    static func scanning(_ text: String, maxDepth: Int = 512) -> Result<JSONTape, JSONSyntaxError> {
        scanning(Array(text.utf8), maxDepth: maxDepth)
    }

    /// Checks the tape's invariants: the top-level value spans the tape, each container's children are reached by
    /// `next` hops and number `count` (two tokens per member in objects, keys being strings).
    func expectWellFormed(sourceLocation: SourceLocation = #_sourceLocation) {
        guard let first = tokens.first else {
            Issue.record("empty tape", sourceLocation: sourceLocation)
            return
        }
        #expect(first.next == tokens.count, sourceLocation: sourceLocation)
        for (index, token) in tokens.enumerated() {
            #expect(token.next > index && token.next <= tokens.count, sourceLocation: sourceLocation)
            #expect(token.start <= token.end, sourceLocation: sourceLocation)
            guard token.kind == .array || token.kind == .object else {
                #expect(token.next == index + 1 && token.count == 0, sourceLocation: sourceLocation)
                continue
            }
            var child = index + 1
            var children = 0
            while child < token.next {
                if token.kind == .object && children % 2 == 0 {
                    #expect(tokens[child].kind == .string, sourceLocation: sourceLocation)
                }
                child = tokens[child].next
                children += 1
            }
            #expect(child == token.next, sourceLocation: sourceLocation)
            #expect(children == (token.kind == .object ? 2 * token.count : token.count), sourceLocation: sourceLocation)
        }
    }
}
