// SPDX-License-Identifier: Apache-2.0

/// The coercion matrix of docs/coercion-rules.md, "The matrix" — JSON kind × target type — and nothing else.
///
/// | target      | number                         | true/false     | string                                   | null                | array/object |
/// |-------------|--------------------------------|----------------|------------------------------------------|---------------------|--------------|
/// | bool        | ≠0 true (coerced unless 0/1)   | as is          | YYModel table; number string (coerced)   | false (null_to_default) | false (wrong_type) |
/// | integers    | exact; fraction truncated; range | 1/0 (coerced) | table; number string (coerced)          | 0 (null_to_default) | 0 (wrong_type) |
/// | float/double| nearest; ±inf → out_of_range; written ≠ input → precision_lost | 1/0 (coerced) | table; number string (coerced) | 0 (null_to_default) | 0 (wrong_type) |
/// | number      | text kept                      | kept           | table; number string → its text (coerced)| no value            | dropped (wrong_type) |
/// | decimal     | exact ≤ 38 digits              | 1/0 (coerced)  | number string (coerced); no table        | no value            | dropped (wrong_type) |
/// | string      | its text (coerced)             | "true"/"false" (coerced) | as is                          | no value            | dropped (wrong_type) |
/// | date, url, data | see their functions below; null → no value; other kinds → dropped (wrong_type)            |
///
/// Each function writes the canonical output bytes into `out` and returns what happened; it never records a
/// diagnostic itself (`Issue` goes back to the converter, which knows whether the value is an element; a
/// `coerced` value, always kept, says only where its bytes start, and the converter writes its message).
enum TypeCoercion {
    /// What one value's conversion gave.
    enum Outcome: Equatable {
        /// A value was written.
        case value
        /// Nothing was written (omitted; a declared default may apply when `issue` says it was dropped).
        case noValue
        /// A numeric type's implicit `0` / `false` was written: output, but not a value.
        case implicitDefault
    }

    struct Result {
        var outcome: Outcome
        var issue: Issue?
        /// A `coerced` value: where its written bytes start in `out`. Its warning, `<found> converted to <type>
        /// <written>`, is written by the converter straight into the report (`Converter.warnCoerced`), so no
        /// message is built here; `issue` is nil.
        var coercedFrom: Int?
        /// With `coercedFrom`: the message ends with " (fraction truncated)".
        var fractionTruncated = false
        static let value = Result(outcome: .value, issue: nil)
        static let noValue = Result(outcome: .noValue, issue: nil)
    }

    /// The YYModel string table: exact, case-sensitive, untrimmed.
    enum TableEntry { case yes, no, null }

    static func tableEntry(_ s: UnsafeRawBufferPointer) -> TableEntry? {
        // Every spelling starts with one of these bytes; number strings, the common case here, start with none.
        switch s.first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "t"),
            UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "("), UInt8(ascii: "<"):
            break
        default:
            return nil
        }
        switch s.count {
        case 2:
            return s.elementsEqual("no".utf8) || s.elementsEqual("No".utf8) || s.elementsEqual("NO".utf8) ? .no : nil
        case 3:
            if s.elementsEqual("yes".utf8) || s.elementsEqual("Yes".utf8) || s.elementsEqual("YES".utf8) { return .yes }
            if s.elementsEqual("nil".utf8) || s.elementsEqual("Nil".utf8) || s.elementsEqual("NIL".utf8) {
                return .null
            }
            return nil
        case 4:
            if s.elementsEqual("true".utf8) || s.elementsEqual("True".utf8) || s.elementsEqual("TRUE".utf8) {
                return .yes
            }
            if s.elementsEqual("null".utf8) || s.elementsEqual("Null".utf8) || s.elementsEqual("NULL".utf8) {
                return .null
            }
            return nil
        case 5:
            return s.elementsEqual("false".utf8) || s.elementsEqual("False".utf8) || s.elementsEqual("FALSE".utf8)
                ? .no : nil
        case 6:
            return ["(null)", "(Null)", "(NULL)", "<null>", "<Null>", "<NULL>"].contains { s.elementsEqual($0.utf8) }
                ? .null : nil
        default: return nil
        }
    }

    // MARK: - Numeric targets

    /// `bool`, integer types, `float` and `double`. `text` is the decoded string for string tokens.
    static func numeric(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer,
        as target: CompiledValue, into out: inout some ByteSink
    ) -> Result {
        let start = out.count
        func implicit(_ issue: Issue) -> Result {
            writeZero(target, into: &out)
            return Result(outcome: .implicitDefault, issue: issue)
        }
        func implicit(_ code: DiagnosticCode, _ message: String) -> Result {
            implicit(Issue(code: code, message: message))
        }
        let found = Found(token: token, bytes: bytes)
        switch token.kind {
        case .number:
            return number(
                UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end]), as: target,
                coerced: false, found: found, into: &out)
        case .true, .false:
            let isTrue = token.kind == .true
            if case .bool = target.kind {
                out.append(contentsOf: (isTrue ? "true" : "false").utf8)
                return .value
            }
            out.append(isTrue ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            return coerced(from: start)
        case .string:
            let entry = tableEntry(text)
            switch entry {
            case .yes?, .no?:
                let isTrue = entry == .yes
                if case .bool = target.kind {
                    out.append(contentsOf: (isTrue ? "true" : "false").utf8)
                } else {
                    out.append(isTrue ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                }
                return coerced(from: start)
            case .null?:
                return implicit(
                    .nullToDefault, "\(found.text) is a null spelling; \(target.typeName) left at its default")
            case nil:
                let trimmed = NumberText.trimmingJSONWhitespace(text)
                guard NumberText.isJSONNumber(trimmed) else {
                    return implicit(.notANumber, "expected \(target.typeName), got \(found.text)")
                }
                return number(trimmed, as: target, coerced: true, found: found, into: &out)
            }
        case .null:
            // The most frequent message after `coerced`, built as bytes (`Issue.utf8`).
            var message: [UInt8] = []
            message.append("null converted to the ")
            message.append(utf8: target.typeName)
            message.append(" default")
            return implicit(Issue(code: .nullToDefault, utf8: message))
        case .array, .object:
            return implicit(.wrongType, "expected \(target.typeName), got \(found.text)")
        }
    }

    /// A grammar-valid number text into a numeric target.
    private static func number(
        _ text: UnsafeRawBufferPointer, as target: CompiledValue, coerced isCoerced: Bool,
        found: Found, into out: inout some ByteSink
    ) -> Result {
        let start = out.count
        switch target.kind {
        case .bool:
            let isZero = NumberText.isZero(text)
            out.append(contentsOf: (isZero ? "false" : "true").utf8)
            return isCoerced || !(isZero || NumberText.isOne(text)) ? coerced(from: start) : .value
        case .integer(let range):
            if let value = canonicalInteger(text) {
                // The common case, in one pass: the text is already the canonical digits.
                guard range.contains(Int128(value)) else { return outOfRange(target, found.text, into: &out) }
                out.append(bytes: text)
                return isCoerced ? coerced(from: start) : .value
            }
            switch NumberText.readInteger(text, min: range.lowerBound, max: range.upperBound) {
            case .outOfRange:
                return outOfRange(target, found.text, into: &out)
            case .value(let value, let truncated):
                if !truncated, isCanonicalInteger(text) {
                    out.append(contentsOf: text)  // already the canonical digits: copy, don't reformat
                } else {
                    FloatFormatting.writeInteger(value, into: &out)
                }
                if isCoerced {
                    var result = coerced(from: start)
                    result.fractionTruncated = truncated
                    return result
                }
                if truncated {
                    return Result(
                        outcome: .value,
                        issue: Issue(
                            code: .fractionTruncated,
                            message:
                                "\(found.text) truncated to \(target.typeName) \(String(decoding: out.written(from: start), as: UTF8.self))"
                        ))
                }
                return .value
            }
        case .float, .double:
            return floatingPoint(text, as: target, coerced: isCoerced, found: found, into: &out)
        default:
            preconditionFailure("numeric coercion called for \(target.typeName)")
        }
    }

    /// A grammar-valid number text into `float` or `double`: the nearest value, `out_of_range` at ±infinity, and
    /// `precision_lost` when the written value differs from the text's. Out of line, so that the integer and
    /// bool paths of `number` stay as small as they were before this check.
    @inline(never)
    private static func floatingPoint(
        _ text: UnsafeRawBufferPointer, as target: CompiledValue, coerced isCoerced: Bool,
        found: Found, into out: inout some ByteSink
    ) -> Result {
        let start = out.count
        let surelyExact: Bool
        if case .float = target.kind {
            let (value, exact) = FloatFormatting.readFloatNotingExactness(text)
            guard value.isFinite else { return outOfRange(target, found.text, into: &out) }
            FloatFormatting.write(value, into: &out)
            surelyExact = exact
        } else {
            let (value, exact) = FloatFormatting.readDoubleNotingExactness(text)
            guard value.isFinite else { return outOfRange(target, found.text, into: &out) }
            FloatFormatting.write(value, into: &out)
            surelyExact = exact
        }
        if !surelyExact { return checkingPrecision(text, written: start, target, found, coerced: isCoerced, in: out) }
        return isCoerced ? coerced(from: start) : .value
    }

    /// A `float` or `double` written from `start` on whose text may not denote the input's exact value: the value is
    /// kept, with `precision_lost` when the two differ numerically (`16777217` as float writes `16777216`, `1e-400`
    /// writes `0`). Out of line: only numbers that the fast reading path did not settle get here.
    @inline(never)
    private static func checkingPrecision(
        _ text: UnsafeRawBufferPointer, written start: Int, _ target: CompiledValue,
        _ found: Found, coerced isCoerced: Bool, in out: some ByteSink
    ) -> Result {
        var result = isCoerced ? coerced(from: start) : .value
        let written = out.written(from: start)
        if written.withUnsafeBytes({ NumberText.compare($0, text) }) != 0 {
            result.issue = Issue(
                code: .precisionLost,
                message:
                    "\(found.text) cannot be held exactly by \(target.typeName): written as \(String(decoding: written, as: UTF8.self))"
            )
        }
        return result
    }

    /// The value of `text` when it is an integer exactly as the canonical writer spells it (`isCanonicalInteger`)
    /// with at most 18 digits, which always fit an `Int64`; nil otherwise. Checks and reads in one pass.
    static func canonicalInteger(_ text: UnsafeRawBufferPointer) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        guard (1...18).contains(text.count - index) else { return nil }
        if text[index] == UInt8(ascii: "0") { return text.count == 1 ? 0 : nil }
        var magnitude: Int64 = 0
        while index < text.count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            magnitude = magnitude &* 10 &+ Int64(digit)
            index += 1
        }
        return negative ? -magnitude : magnitude
    }

    /// Whether `text` is an integer as `canonicalInteger` reads one, within `bounds`. Most are settled by their
    /// number of digits (`IntegerBounds`), so their value is not read: checking the digits is independent work per
    /// byte, while reading the value chains a multiply and an add per digit (a 16-digit id waits on 16 links).
    static func isCanonicalInteger(_ text: UnsafeRawBufferPointer, within bounds: IntegerBounds) -> Bool {
        let negative = text.first == UInt8(ascii: "-")
        let start = negative ? 1 : 0
        let digits = text.count - start
        guard digits >= 1, digits <= 18 else { return false }
        if text[start] == UInt8(ascii: "0") { return text.count == 1 && bounds.range.contains(0) }
        for index in start..<text.count where text[index] &- UInt8(ascii: "0") >= 10 { return false }
        if digits <= (negative ? bounds.negativeDigits : bounds.positiveDigits) { return true }
        guard let value = canonicalInteger(text) else { return false }
        return bounds.range.contains(value)
    }

    /// Whether `text` is an integer exactly as the canonical writer would spell it: an optional `-`, then `0`
    /// alone or digits without a leading zero (and not `-0`).
    static func isCanonicalInteger(_ text: UnsafeRawBufferPointer) -> Bool {
        var index = text.first == UInt8(ascii: "-") ? 1 : 0
        guard index < text.count else { return false }
        if text[index] == UInt8(ascii: "0") { return text.count == 1 }
        while index < text.count {
            guard text[index] &- UInt8(ascii: "0") < 10 else { return false }
            index += 1
        }
        return true
    }

    private static func outOfRange(_ target: CompiledValue, _ found: String, into out: inout some ByteSink) -> Result {
        writeZero(target, into: &out)
        return Result(
            outcome: .implicitDefault,
            issue: Issue(code: .outOfRange, message: "\(found) is out of range for \(target.typeName)"))
    }

    /// A value written from `start` on, converted from another kind or spelling: the converter records its
    /// `coerced` warning (`Result.coercedFrom`). Only `Converter.convert` calls the conversions here, so that no
    /// such warning is lost.
    static func coerced(from start: Int) -> Result {
        Result(outcome: .value, issue: nil, coercedFrom: start)
    }

    /// The input value as messages show it (`ValueDescription`), described only when a message is written.
    struct Found {
        let token: JSONToken
        let bytes: UnsafeRawBufferPointer
        var text: String { ValueDescription.describe(token, in: bytes) }
    }

    static func writeZero(_ target: CompiledValue, into out: inout some ByteSink) {
        if case .bool = target.kind {
            writeZero(isBool: true, into: &out)
        } else {
            writeZero(isBool: false, into: &out)
        }
    }

    /// `false` for a `bool`, else `0`.
    static func writeZero(isBool: Bool, into out: inout some ByteSink) {
        if isBool { writeBool(false, into: &out) } else { out.append(UInt8(ascii: "0")) }
    }

    /// `true` or `false`, in one copy.
    static func writeBool(_ value: Bool, into out: inout some ByteSink) {
        out.append(value ? "true" : "false")
    }

    // MARK: - number, decimal, string

    static func numberText(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer,
        into out: inout some ByteSink
    ) -> Result {
        let start = out.count
        switch token.kind {
        case .number:
            out.append(contentsOf: bytes[token.start..<token.end])
            return .value
        case .true: writeBool(true, into: &out); return .value
        case .false: writeBool(false, into: &out); return .value
        case .null: return .noValue
        case .array, .object:
            return dropped(.wrongType, "expected number, got \(ValueDescription.describe(token, in: bytes))")
        case .string:
            switch tableEntry(text) {
            case .yes?: writeBool(true, into: &out)
            case .no?: writeBool(false, into: &out)
            case .null?: return .noValue
            case nil:
                let trimmed = NumberText.trimmingJSONWhitespace(text)
                guard NumberText.isJSONNumber(trimmed) else {
                    return dropped(.notANumber, "expected number, got \(ValueDescription.describe(token, in: bytes))")
                }
                out.append(contentsOf: trimmed)
            }
            return coerced(from: start)
        }
    }

    static func decimal(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer,
        into out: inout some ByteSink
    ) -> Result {
        let start = out.count
        let found = Found(token: token, bytes: bytes)
        switch token.kind {
        case .number:
            let text = UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end])
            guard let value = DecimalValue(jsonNumber: text) else {
                return DecimalValue.writeHugeExponent(text, into: &out) ? .value : decimalOutOfRange(found.text)
            }
            value.write(into: &out)
            return .value
        case .true, .false:
            out.append(token.kind == .true ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            return coerced(from: start)
        case .null: return .noValue
        case .array, .object: return dropped(.wrongType, "expected decimal, got \(found.text)")
        case .string:
            let trimmed = NumberText.trimmingJSONWhitespace(text)
            guard NumberText.isJSONNumber(trimmed) else {
                return dropped(.notANumber, "expected decimal, got \(found.text)")
            }
            if let value = DecimalValue(jsonNumber: trimmed) {
                value.write(into: &out)
            } else if !DecimalValue.writeHugeExponent(trimmed, into: &out) {
                return decimalOutOfRange(found.text)
            }
            return coerced(from: start)
        }
    }

    /// A number that `decimal` cannot hold: more than 38 significant digits.
    private static func decimalOutOfRange(_ found: String) -> Result {
        return dropped(.outOfRange, "\(found) has more than 38 significant digits")
    }

    static func string(_ token: JSONToken, _ bytes: UnsafeRawBufferPointer, into out: inout some ByteSink) -> Result {
        let start = out.count
        switch token.kind {
        case .string:
            JSONStrings.writeQuoted(token, in: bytes, into: &out)
            return .value
        case .number:
            out.append(.quote)
            out.append(contentsOf: bytes[token.start..<token.end])
            out.append(.quote)
        case .true: out.append(contentsOf: "\"true\"".utf8)
        case .false: out.append(contentsOf: "\"false\"".utf8)
        case .null: return .noValue
        case .array, .object:
            return dropped(.wrongType, "expected string, got \(ValueDescription.describe(token, in: bytes))")
        }
        return coerced(from: start)
    }

    static func dropped(_ code: DiagnosticCode, _ message: String) -> Result {
        Result(outcome: .noValue, issue: Issue(code: code, message: message))
    }

    // MARK: - url, data

    static func url(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer,
        into out: inout some ByteSink
    ) -> Result {
        switch token.kind {
        case .null: return .noValue
        case .string:
            let trimmed = NumberText.trimmingJSONWhitespace(text)
            if trimmed.isEmpty { return .noValue }
            guard URIReference.isValid(trimmed) else {
                return dropped(.invalidURL, "\(ValueDescription.describe(token, in: bytes)) is not a valid URL")
            }
            JSONStrings.writeQuoted(trimmed, into: &out)
            return .value
        default: return dropped(.wrongType, "expected url, got \(ValueDescription.describe(token, in: bytes))")
        }
    }

    static func data(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer,
        as target: CompiledValue, into out: inout some ByteSink
    ) -> Result {
        switch token.kind {
        case .null: return .noValue
        case .string where !target.base64:
            JSONStrings.writeQuoted(token, in: bytes, into: &out)
            return .value
        case .string:
            guard let decoded = Base64.decode(text) else {
                return dropped(.invalidBase64, "\(ValueDescription.describe(token, in: bytes)) is not valid base64")
            }
            out.append(.quote)
            Base64.encode(decoded, into: &out)
            out.append(.quote)
            return .value
        default: return dropped(.wrongType, "expected data, got \(ValueDescription.describe(token, in: bytes))")
        }
    }
}
