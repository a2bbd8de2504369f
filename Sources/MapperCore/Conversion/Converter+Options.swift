// SPDX-License-Identifier: Apache-2.0

extension Converter {
    /// A value with `nullable`, `optional`, `acceptSingle` or `strict` (docs/schema.md, "Null, absence and
    /// strictness"), read as `plain` around them. Only values that declare one of them come here (their kind is
    /// `.withOptions`), so the others pay nothing for them.
    ///
    ///     nullable      null (and, for numeric types and number, a null spelling such as "<null>") → null
    ///     acceptSingle  a value that is no array → a one-element array, with wrapped_in_array
    ///     optional      a numeric or bool property's implicit 0 / false → no value (warnings kept)
    ///     strict        the property's warnings, and its elements', are errors (false: as the mode says)
    @inline(never)
    mutating func convertWithOptions(_ ref: ValueRef, _ value: CompiledValue, _ plain: CompiledValue)
        -> TypeCoercion.Result
    {
        let token = token(ref)
        if value.nullable, isNull(token, in: documents[ref.document].bytes, as: plain) {
            out.append(contentsOf: "null".utf8)
            return .value
        }
        let outerStrict = diagnostics.strict
        if let strict = value.strict { diagnostics.strict = strict || modeIsStrict }
        defer { diagnostics.strict = outerStrict }
        let start = out.count
        var result: TypeCoercion.Result
        switch plain.kind {
        case .model(let id) where value.objectOptions:
            if token.kind == .object {
                Unmanaged.passUnretained(snapshot.model(id)).borrowed { convertObjectWithOptions(ref, as: $0) }
                result = .value
            } else {
                result = Self.mismatch(token, documents[ref.document].bytes, plain)
            }
        case .array(let element) where value.acceptSingle && token.kind != .array && token.kind != .null,
            .set(let element) where value.acceptSingle && token.kind != .array && token.kind != .null:
            result = convertSingle(ref, element: element, as: plain)
        default:
            result = convert(ref, as: plain)
        }
        if value.optional, result.outcome == .implicitDefault {
            out.truncate(to: start)
            result.outcome = .noValue
        }
        if value.strict != nil { result.issue?.isError = diagnostics.strict }
        return result
    }

    /// Whether `token` is null for a `nullable` value of type `plain`: JSON `null`, and for numeric types and
    /// `number` also the null spellings of the string table (a `string` keeps `"nil"` as text).
    private func isNull(_ token: JSONToken, in bytes: UnsafeRawBufferPointer, as plain: CompiledValue) -> Bool {
        switch token.kind {
        case .null: return true
        case .string:
            switch plain.kind {
            case .bool, .integer, .float, .double, .number:
                let text = JSONStrings.decoded(token, in: bytes)
                return text.withUnsafeBytes { TypeCoercion.tableEntry($0) } == .null
            default: return false
            }
        default: return false
        }
    }

    /// `acceptSingle`: the value at `ref`, which is no array, as a one-element array of `container` (whose `of` is
    /// `element`), with `wrapped_in_array` at the property's path; `[]` when the element is then dropped.
    private mutating func convertSingle(_ ref: ValueRef, element: CompiledValue?, as container: CompiledValue)
        -> TypeCoercion.Result
    {
        let document = documents[ref.document]
        let token = document.tokens[ref.index]
        warn(
            Issue(
                code: .wrappedInArray,
                message:
                    "\(ValueDescription.describe(token, in: document.bytes)) read as a one-element \(container.typeName)"
            ))
        let start = out.count
        out.append(.openBracket)
        let valueStart = out.count
        if let element {
            let result = convert(ref, as: element)
            if result.outcome != .value {
                out.truncate(to: valueStart)
                warn(.elementDropped(cause: result.issue, noValue: result.outcome == .noValue))
            } else if let issue = result.issue {
                warn(issue)
            }
        } else {
            writeAny(ref)
        }
        out.append(.closeBracket)
        if let constraints = container.constraints {
            checkConstraints(
                constraints, value: container, token: token, bytes: document.bytes, written: start,
                instant: Instant(microseconds: 0))
        }
        return .value
    }
}
