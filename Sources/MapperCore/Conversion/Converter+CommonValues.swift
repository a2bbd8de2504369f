// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// What `writeCommonValue` did.
    enum CommonWrite {
        /// The prefix and the value are written.
        case value
        /// The value is `null`, which for a string, URL or date is no value and no entry: nothing is written.
        case noValue
        /// Nothing is written: the value is not a common case, and `convert` must take it.
        case notCommon
    }

    /// Writes `prefix` (the property's key fragment) and the value at `ref` when the value is one of the common,
    /// unremarkable cases — a string for a `string`, a boolean for a `bool`, a canonical in-range integer for an
    /// integer type, a plain `http(s)` URL for a `url`, a built-in date string for a default `date` — or settles
    /// a `null` string, URL or date (no value); otherwise writes nothing and leaves the value to `convert`. The
    /// prefix and a string value are written in one append.
    ///
    /// Each case writes exactly the bytes `convert` would and records what `convert` would. All but one record
    /// nothing, and so need no input path; a canonical in-range integer sent as a string for an integer type
    /// (`"11"`, a Weibo user's province) records its `coerced` warning at the member's path
    /// (ConversionOptions.commonValueShortcuts turns the shortcuts off; a test converts the same inputs both ways
    /// and compares). Values with constraints never get a `CommonForm`.
    mutating func writeCommonValue(
        _ ref: ValueRef, as form: PropertyPlan.CommonForm,
        after prefix: UnsafeRawBufferPointer
    ) -> CommonWrite {
        let document = documents[ref.document]
        let token = document.tokens[ref.index]
        switch (form, token.kind) {
        case (.string, .string):
            JSONStrings.writeQuoted(token, in: document.bytes, after: prefix, into: &out)
            return .value
        case (.bool, .true), (.bool, .false):
            let text: StaticString = token.kind == .true ? "true" : "false"
            out.append(bytes: prefix, UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            return .value
        case (.integer(let bounds, _), .number):
            // Canonical digits that fit an Int64 are copied as they are; anything else takes the full reading.
            let text = UnsafeRawBufferPointer(rebasing: document.bytes[token.start..<token.end])
            guard TypeCoercion.isCanonicalInteger(text, within: bounds) else { return .notCommon }
            out.append(bytes: prefix, text)
            return .value
        case (.integer(let bounds, let value), .string) where !token.hasEscapes:
            // `convert` reads the same digits the same way (no null spelling or whitespace starts with a digit or
            // `-`), writes them as they are, and warns.
            let text = UnsafeRawBufferPointer(rebasing: document.bytes[token.start..<token.end])
            guard TypeCoercion.isCanonicalInteger(text, within: bounds) else { return .notCommon }
            out.append(bytes: prefix, text)
            warnCoerced(ref, as: value)
            return .value
        case (.url, .string) where !token.hasEscapes:
            let text = UnsafeRawBufferPointer(rebasing: document.bytes[token.start..<token.end])
            guard URIReference.isPlainHTTP(text) else { return .notCommon }
            JSONStrings.writeQuoted(token, in: document.bytes, after: prefix, into: &out)
            return .value
        case (.isoDate, .string) where !token.hasEscapes && !fromModel:
            let text = UnsafeRawBufferPointer(rebasing: document.bytes[token.start..<token.end])
            // The parsed fields go to UTC directly (`DateFields.inUTC`), not through an `Instant` and back.
            guard let (fields, truncated) = BuiltinDateParser.fields(text), !truncated, let utc = fields.inUTC() else {
                return .notCommon
            }
            if DateFormatting.isWrittenForm(text) {
                // Already the bytes the writer makes.
                JSONStrings.writeQuoted(token, in: document.bytes, after: prefix, into: &out)
            } else {
                out.append(bytes: prefix)
                out.append(.quote)
                DateFormatting.writeISO8601(utc, into: &out)
                out.append(.quote)
            }
            return .value
        case (.string, .null), (.url, .null), (.isoDate, .null):
            return .noValue
        default:
            return .notCommon
        }
    }

    /// Records the `coerced` warning of the string at `ref`, whose content ends `out`, at the path of its member,
    /// as `convert` does. Out of line, as warnings are rare.
    @inline(never)
    private mutating func warnCoerced(_ ref: ValueRef, as value: Unmanaged<CompiledValue>) {
        let depth = path.depth
        pushMember(document: ref.document, keyToken: ref.index - 1)
        let document = documents[ref.document]
        let token = document.tokens[ref.index]
        value.borrowed { value in
            warnCoerced(
                token, document.bytes, as: value, writtenFrom: out.count - (token.end - token.start),
                fractionTruncated: false)
        }
        path.truncate(to: depth)
    }
}
