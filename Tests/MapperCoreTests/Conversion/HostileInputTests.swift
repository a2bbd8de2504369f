// SPDX-License-Identifier: Apache-2.0

import Glibc
import MapperCore
import Testing

/// Inputs built to hurt (docs/semantics.md, "JSON input"; docs/coercion-rules.md, "Numbers in strings"; docs/api.md,
/// "Limits"): deep nesting, huge numbers, broken UTF-8, huge strings, keys and objects, and a pattern that backtracking
/// engines choke on. Each must get its documented answer — never a crash or a hang. Sizes are just large enough to make
/// a quadratic or recursive implementation fail visibly; there are no timing assertions. Serialised to keep memory
/// bounded.
@Suite(.serialized)
struct HostileInputTests {
    static let types = ["number", "string", "int64", "uint64", "decimal", "double", "float", "bool"]

    static let registry: SchemaRegistry = {
        var documents = [
            #"{"name":"Any","properties":{"a":"any"}}"#,
            #"{"name":"Node","properties":{"a":"Node"}}"#,
            #"{"name":"Text","properties":{"s":"string"}}"#,
            #"{"name":"Strict","properties":{"a":"int32"},"unknownKeys":"reject"}"#,
            #"{"name":"Loose","properties":{"a":"int32"}}"#,
            #"{"name":"Dict","properties":{"d":{"type":"dictionary","of":"int32"}}}"#,
            #"{"name":"Free","properties":{"d":"dictionary"}}"#,
            #"{"name":"Wide","properties":{"x":{"type":"int32","key":"k99999"},"y":{"type":"int32","key":"k0"}}}"#,
            #"{"name":"Nested","properties":{"a":{"type":"string","pattern":"^(a+)+$"},"b":{"type":"string","pattern":"(a|a)*b"},"c":{"type":"string","pattern":"(x+x+)+y"}}}"#,
        ]
        documents += types.map { #"{"name":"T_\#($0)","properties":{"v":"\#($0)"}}"# }
        let registry = SchemaRegistry()
        try! registry.load(documents.enumerated().map { SchemaFile(name: "h\($0).json", bytes: Array($1.utf8)) })
        return registry
    }()

    static func convert(_ model: String, _ body: [UInt8], maxDepth: Int = 512, output: ConversionOptions.Form = .model)
        -> Result<Converted, MappingError>
    {
        var options = ConversionOptions()
        options.maxDepth = maxDepth
        options.output = output
        let chosen = options
        return onLargeStack {
            body.withUnsafeBytes { body in
                Result { () throws(MappingError) in try registry.current.convert(body, model: model, options: chosen) }
            }
        }
    }

    static func run(_ model: String, _ input: String) -> Outcome { onLargeStack { registry.current.run(model, input) } }

    /// Runs `body` on a thread of its own with a 64 MiB stack. The conversion recurses once per nesting level, and
    /// a debug build's frames are many times a release build's: the 512 nested objects the default limit allows
    /// take about 8 MiB of stack in a debug build, all of a test thread's, while a release build converts the
    /// deepest nesting allowed (1,024) in about 2.3 MiB (operations.md, "Limits"). These tests are about the
    /// answers; `scripts/stack-check.sh` checks the release build's stack.
    static func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = ResultBox<T>()
        pthread_join(startThread(stackSize: 64 << 20) { box.value = body() }, nil)
        return box.value!
    }

    /// The location of a JSON failure with `code`, or nil (with a recorded issue) for any other result.
    static func location(
        _ result: Result<Converted, MappingError>, code: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> JSONErrorLocation? {
        switch result {
        case .failure(let error):
            #expect(error.code == code, sourceLocation: sourceLocation)
            #expect(error.status == 400, sourceLocation: sourceLocation)
            switch error {
            case .invalidJSON(let at), .nestingTooDeep(let at):
                let body = String(decoding: error.body(requestId: nil), as: UTF8.self)
                #expect(
                    body.hasSuffix(#","offset":\#(at.offset),"line":\#(at.line),"column":\#(at.column)}}"#),
                    "\(body)", sourceLocation: sourceLocation)
                return at
            default: Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            }
        case .success(let converted):
            Issue.record("expected \(code), converted to \(converted.body.count) bytes", sourceLocation: sourceLocation)
        }
        return nil
    }

    // MARK: - Nesting

    @Test
    func aMillionOpenBracketsAreTooDeepAtTheFirstBracketPastTheLimit() {
        let body = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let at = Self.location(Self.convert("Any", body), code: "nesting_too_deep")
        #expect(at.map { [$0.offset, $0.line, $0.column] } == [512, 1, 513])
    }

    @Test
    func aMillionNestedObjectsAreTooDeepAtTheFirstObjectPastTheLimit() {
        let body = Array(String(repeating: #"{"a":"#, count: 1_000_000).utf8)
        let at = Self.location(Self.convert("Node", body), code: "nesting_too_deep")
        #expect(at.map { [$0.offset, $0.line, $0.column] } == [512 * 5, 1, 512 * 5 + 1])
    }

    @Test
    func nestingPositionsCountLines() {
        let body = Array(String(repeating: "[\n", count: 1_000_000).utf8)
        let at = Self.location(Self.convert("Any", body), code: "nesting_too_deep")
        #expect(at.map { [$0.offset, $0.line, $0.column] } == [1_024, 513, 1])
    }

    /// `{"a":` + `depth - 1` arrays: the object is depth 1.
    static func arrays(depth: Int) -> String {
        #"{"a":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
    }

    static func objects(depth: Int) -> String {
        String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
    }

    @Test
    func acceptsExactlyTheNestingLimit() {
        for input in [Self.arrays(depth: 512), Self.objects(depth: 512)] {
            let outcome = Self.run(input.hasPrefix(#"{"a":["#) ? "Any" : "Node", input)
            #expect(outcome == Outcome(status: 200, body: input, entries: []))
        }
    }

    @Test
    func rejectsOneLevelPastTheNestingLimit() {
        let at = Self.location(Self.convert("Any", Array(Self.arrays(depth: 513).utf8)), code: "nesting_too_deep")
        #expect(at?.offset == 5 + 511)
        let nested = Self.location(Self.convert("Node", Array(Self.objects(depth: 513).utf8)), code: "nesting_too_deep")
        #expect(nested?.offset == 512 * 5)
    }

    @Test(arguments: [1, 2, 1_024])
    func honoursAConfiguredLimit(_ limit: Int) throws {
        let fits = Array(Self.arrays(depth: max(limit, 1)).utf8)
        if limit >= 2 {
            let converted = try Self.convert("Any", fits, maxDepth: limit).get()
            #expect(converted.body == fits)
        }
        let over = Array(Self.arrays(depth: limit + 1).utf8)
        let at = Self.location(Self.convert("Any", over, maxDepth: limit), code: "nesting_too_deep")
        #expect(at?.offset == 4 + limit)
    }

    @Test
    func bracketsInsideStringsAreNotNesting() {
        let text = String(repeating: "[{", count: 500_000)
        #expect(Self.run("Text", #"{"s":"\#(text)"}"#) == Outcome(status: 200, body: #"{"s":"\#(text)"}"#, entries: []))
    }

    // MARK: - Huge numbers

    struct Number: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        /// Expected model-form body and entries per target type.
        let results: [String: (body: String, entries: [String])]
        var testDescription: String { name }
    }

    static let digits = String(repeating: "1234567890", count: 1_000)
    static let nines = String(repeating: "9", count: 10_000)

    static let numbers: [Number] = [
        .init(
            name: "10,000-digit integer", text: digits,
            results: [
                "number": (#"{"v":\#(digits)}"#, []), "string": (#"{"v":"\#(digits)"}"#, ["/v coerced"]),
                "int64": (#"{"v":0}"#, ["/v out_of_range"]), "uint64": (#"{"v":0}"#, ["/v out_of_range"]),
                "decimal": ("{}", ["/v out_of_range"]), "double": (#"{"v":0}"#, ["/v out_of_range"]),
                "float": (#"{"v":0}"#, ["/v out_of_range"]), "bool": (#"{"v":true}"#, ["/v coerced"]),
            ]),
        .init(
            name: "one and 9,999 zeros", text: "1" + String(repeating: "0", count: 9_999),
            results: [
                "int64": (#"{"v":0}"#, ["/v out_of_range"]), "decimal": (#"{"v":1e+9999}"#, []),
                "double": (#"{"v":0}"#, ["/v out_of_range"]), "float": (#"{"v":0}"#, ["/v out_of_range"]),
            ]),
        .init(
            name: "one, a point and 10,000 digits", text: "1." + String(repeating: "0", count: 9_999) + "1",
            results: [
                "number": (#"{"v":1.\#(String(repeating: "0", count: 9_999))1}"#, []),
                "int64": (#"{"v":1}"#, ["/v fraction_truncated"]), "decimal": ("{}", ["/v out_of_range"]),
                "double": (#"{"v":1}"#, ["/v precision_lost"]), "float": (#"{"v":1}"#, ["/v precision_lost"]),
                "bool": (#"{"v":true}"#, ["/v coerced"]),
            ]),
        .init(
            name: "10,000-digit fraction below one", text: "0." + String(repeating: "0", count: 9_999) + "1",
            results: [
                "int64": (#"{"v":0}"#, ["/v fraction_truncated"]), "decimal": (#"{"v":1e-10000}"#, []),
                "double": (#"{"v":0}"#, ["/v precision_lost"]), "float": (#"{"v":0}"#, ["/v precision_lost"]),
            ]),
        .init(
            name: "10,000-digit exponent", text: "1e" + nines,
            results: [
                "number": (#"{"v":1e\#(nines)}"#, []), "string": (#"{"v":"1e\#(nines)"}"#, ["/v coerced"]),
                "int64": (#"{"v":0}"#, ["/v out_of_range"]), "uint64": (#"{"v":0}"#, ["/v out_of_range"]),
                "decimal": (#"{"v":1e+\#(nines)}"#, []), "double": (#"{"v":0}"#, ["/v out_of_range"]),
                "float": (#"{"v":0}"#, ["/v out_of_range"]), "bool": (#"{"v":true}"#, ["/v coerced"]),
            ]),
        .init(
            name: "10,000-digit negative exponent", text: "-1.5E-" + nines,
            results: [
                "number": (#"{"v":-1.5E-\#(nines)}"#, []), "int64": (#"{"v":0}"#, ["/v fraction_truncated"]),
                "decimal": (#"{"v":-1.5e-\#(nines)}"#, []), "double": (#"{"v":0}"#, ["/v precision_lost"]),
                "float": (#"{"v":0}"#, ["/v precision_lost"]),
            ]),
        .init(
            name: "zero with a 10,000-digit exponent", text: "0e" + nines,
            results: [
                "int64": (#"{"v":0}"#, []), "decimal": (#"{"v":0}"#, []), "double": (#"{"v":0}"#, []),
                "bool": (#"{"v":false}"#, []),
            ]),
    ]

    @Test(arguments: numbers)
    func convertsHugeNumbersExactlyOrReportsThem(_ number: Number) {
        for (type, expected) in number.results.sorted(by: { $0.key < $1.key }) {
            let outcome = Self.run("T_" + type, #"{"v":\#(number.text)}"#)
            #expect(outcome.status == 200, "\(type)")
            #expect(outcome.body == expected.body, "\(type): \(outcome.body.prefix(80))")
            #expect(outcome.entries == expected.entries, "\(type)")
        }
    }

    @Test(arguments: types)
    func readsAMillionDigitNumberInOnePass(_ type: String) {
        let text = String(repeating: "7", count: 1_000_000)
        let outcome = Self.run("T_" + type, #"{"v":\#(text)}"#)
        #expect(outcome.status == 200)
        switch type {
        case "number": #expect(outcome.body == #"{"v":\#(text)}"#)
        case "string": #expect(outcome.body == #"{"v":"\#(text)"}"#)
        case "decimal": #expect(outcome.entries == ["/v out_of_range"])
        case "bool": #expect(outcome.body == #"{"v":true}"#)
        default: #expect(outcome.entries == ["/v out_of_range"])
        }
    }

    // MARK: - Broken UTF-8 and surrogates

    struct Broken: Sendable, CustomTestStringConvertible {
        let name: String
        let before: String
        let bytes: [UInt8]
        let after: String
        /// The byte that cannot be accepted, counted from the start of `bytes`.
        let bad: Int
        var testDescription: String { name }
    }

    static let brokenUTF8: [Broken] = [
        .init(name: "FF", before: #"{"s":""#, bytes: [0xFF], after: #""}"#, bad: 0),
        .init(name: "overlong C0 AF", before: #"{"s":""#, bytes: [0xC0, 0xAF], after: #""}"#, bad: 0),
        .init(name: "lone continuation", before: #"{"s":"a"#, bytes: [0x80], after: #""}"#, bad: 0),
        .init(name: "encoded surrogate", before: #"{"s":""#, bytes: [0xED, 0xA0, 0x80], after: #""}"#, bad: 1),
        .init(name: "overlong E0 80 80", before: #"{"s":""#, bytes: [0xE0, 0x80, 0x80], after: #""}"#, bad: 1),
        .init(name: "above U+10FFFF", before: #"{"s":""#, bytes: [0xF4, 0x90, 0x80, 0x80], after: #""}"#, bad: 1),
        .init(name: "F5 lead", before: #"{"s":""#, bytes: [0xF5, 0x80, 0x80, 0x80], after: #""}"#, bad: 0),
        .init(name: "truncated sequence", before: #"{"s":""#, bytes: [0xE2, 0x82], after: #""}"#, bad: 2),
        .init(name: "in a key", before: #"{""#, bytes: [0xFE], after: #"":1}"#, bad: 0),
        .init(name: "on line 3", before: "{\n  \"s\":\n  \"ab", bytes: [0xFF], after: #""}"#, bad: 0),
        .init(name: "outside a string", before: #"{"s":"x"}"#, bytes: [0xFF], after: "", bad: 0),
    ]

    @Test(arguments: brokenUTF8)
    func rejectsInvalidUTF8WithItsPosition(_ broken: Broken) {
        let body = Array(broken.before.utf8) + broken.bytes + Array(broken.after.utf8)
        let offset = broken.before.utf8.count + broken.bad
        let lineStart = (body[..<offset].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        let line = body[..<offset].count { $0 == UInt8(ascii: "\n") } + 1
        let at = Self.location(Self.convert("Text", body), code: "invalid_json")
        #expect(at.map { [$0.offset, $0.line, $0.column] } == [offset, line, offset - lineStart + 1])
    }

    @Test
    func skipsAByteOrderMarkOnlyAtTheStart() {
        #expect(throws: Never.self) { try Self.convert("Text", [0xEF, 0xBB, 0xBF] + Array(#"{"s":"x"}"#.utf8)).get() }
        let at = Self.location(
            Self.convert("Text", Array(" ".utf8) + [0xEF, 0xBB, 0xBF] + Array(#"{"s":"x"}"#.utf8)),
            code: "invalid_json")
        #expect(at?.offset == 1)
    }

    @Test(arguments: [
        #"{"s":"\ud800"}"#, #"{"s":"\udc00"}"#, #"{"s":"\uD800x"}"#, #"{"s":"\ud800\u0041"}"#,
        #"{"s":"\udbff\udbff"}"#, #"{"s":"\udc00\ud800"}"#, #"{"s":"a\ud800\n"}"#, #"{"\ud800":1}"#,
    ])
    func rejectsLoneSurrogateEscapes(_ input: String) {
        let at = Self.location(Self.convert("Text", Array(input.utf8)), code: "invalid_json")
        #expect(at?.line == 1)
    }

    @Test
    func acceptsSurrogatePairs() {
        #expect(
            Self.run("Text", #"{"s":"\ud83d\ude00\uDBFF\uDFFF"}"#)
                == Outcome(status: 200, body: "{\"s\":\"😀\u{10FFFF}\"}", entries: []))
    }

    // MARK: - Huge strings, keys and objects

    /// `count` bytes of a 10-byte UTF-8 pattern holding a two-byte character, built with a few large copies.
    static func text(count: Int) -> [UInt8] {
        let chunk = Array("abcdé1234".utf8)
        precondition(chunk.count == 10 && count % 10 == 0)
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            _ = buffer.initialize(from: chunk)
            var filled = chunk.count
            while filled < count {
                let n = min(filled, count - filled)
                memcpy(buffer.baseAddress! + filled, buffer.baseAddress!, n)
                filled += n
            }
            initialized = count
        }
    }

    @Test
    func writesA100MBStringBackIntact() throws {
        let size = 100_000_000
        var body = Array(#"{"s":""#.utf8)
        body.reserveCapacity(size + 8)
        body += Self.text(count: size)
        body += Array(#""}"#.utf8)
        for form in [ConversionOptions.Form.model, .wire] {
            let converted = try Self.convert("Text", body, output: form).get()
            #expect(converted.body.count == size + 8)
            #expect(converted.body == body)
            #expect(Array(converted.body[6..<16]) == Array("abcdé1234".utf8))
            #expect(Array(converted.body[(size - 4)...]) == Array("abcdé1234\"}".utf8))
            #expect(converted.diagnostics.isEmpty)
        }
    }

    static let megabyteKey = String(repeating: "k", count: 1_000_000)

    @Test
    func handlesAOneMegabyteKey() {
        let key = Self.megabyteKey
        #expect(Self.run("Loose", #"{"\#(key)":1,"a":2}"#) == Outcome(status: 200, body: #"{"a":2}"#, entries: []))
        #expect(Self.run("Strict", #"{"\#(key)":1,"a":2}"#).entries == ["!/\(key) unknown_key"])
        #expect(
            Self.run("Dict", #"{"d":{"\#(key)":3,"b":"4"}}"#)
                == Outcome(status: 200, body: #"{"d":{"\#(key)":3,"b":4}}"#, entries: ["/d/b coerced"]))
    }

    @Test
    func readsAPropertyWhoseKeyIsAlmostAMegabyte() throws {
        let key = String(repeating: "k", count: 1_000_000)
        let registry = try SchemaRegistry.make(#"{"name":"K","properties":{"v":{"type":"int32","key":"\#(key)"}}}"#)
        #expect(
            registry.current.run("K", #"{"\#(key)x":1,"\#(key)":2}"#)
                == Outcome(status: 200, body: #"{"v":2}"#, entries: []))
        #expect(
            registry.current.run("K", #"{"\#(key)":3}"#, output: .wire)
                == Outcome(status: 200, body: #"{"\#(key)":3}"#, entries: []))
    }

    static let wideMembers = (0..<100_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")

    @Test
    func handlesA100000MemberObject() {
        let object = "{" + Self.wideMembers + "}"
        #expect(Self.run("Dict", #"{"d":\#(object)}"#) == Outcome(status: 200, body: #"{"d":\#(object)}"#, entries: []))
        #expect(Self.run("Free", #"{"d":\#(object)}"#) == Outcome(status: 200, body: #"{"d":\#(object)}"#, entries: []))
        #expect(Self.run("Wide", object) == Outcome(status: 200, body: #"{"x":99999,"y":0}"#, entries: []))
    }

    @Test
    func reportsA100000TimesDuplicatedKeyOnce() {
        let input = "{" + (0..<100_000).map { #""a":\#($0)"# }.joined(separator: ",") + "}"
        #expect(Self.run("Loose", input) == Outcome(status: 200, body: #"{"a":99999}"#, entries: ["/a duplicate_key"]))
    }

    @Test
    func truncatesTheReportOf100000UnknownKeys() {
        let outcome = Self.run("Strict", "{" + Self.wideMembers + "}")
        #expect(outcome.status == 422)
        #expect(outcome.body.contains(#""truncated":true"#))
    }

    // MARK: - Patterns

    @Test(arguments: [("a", "a"), ("b", "a"), ("c", "x")])
    func answersCatastrophicBacktrackingPatterns(_ property: String, _ letter: String) {
        let run = String(repeating: letter, count: 100_000)
        let failing = Self.run("Nested", #"{"\#(property)":"\#(run)!"}"#)
        #expect(failing.status == 422)
        #expect(failing.entries == ["!/\(property) constraint_failed"])
        if property == "a" {
            #expect(
                Self.run("Nested", #"{"a":"\#(run)"}"#) == Outcome(status: 200, body: #"{"a":"\#(run)"}"#, entries: []))
        }
    }
}

/// A large-stack thread's result, written by the thread and read after it is joined.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
