// SPDX-License-Identifier: Apache-2.0

/// Converts tape values into canonical output bytes, property slot by property slot.
///
/// One `Converter` serves one conversion (one body or one NDJSON line), or every element of one batch; it is a
/// value type confined to the calling thread. It reads documents through `DocumentStack`, writes into `out`, and
/// records every problem in `diagnostics` while carrying on (lax mode); only the caller decides what failure
/// means. A batch calls `startObject` before each element: the element gets an empty report and no rebuilt
/// documents, and the scratch stacks are empty again because every object pops the frames it pushed (`rootBuilt`
/// and `builtAt` carry over, but only single conversions and `/compare` read them).
/// Recursion follows the data and is bounded by the nesting limit that the scanner already enforced.
struct Converter {
    let snapshot: RegistrySnapshot
    let options: ConversionOptions
    var documents: DocumentStack
    /// The output (see `OutputBuffer`: no uniqueness check per append), pooled with the frame stacks: the caller
    /// takes its bytes (`out.array`) before `recycleScratch`.
    var out: OutputBuffer
    var diagnostics: Diagnostics
    /// Where in the input the conversion is (pooled with the frame stacks below, so that the first member a
    /// conversion enters does not allocate).
    let path: InputPath
    /// Per-object key slots (a stack of frames, one per model object being converted).
    let slots: FrameStack<Int>
    /// The model built for each model object written, by the output offset of its `{` (for `compare`, which
    /// sets `recordsBuilt`).
    var builtAt: [Int: Int] = [:]
    var recordsBuilt = false
    /// Per-object flags: whether each property holds a value (a stack of frames, as `slots`). Only the flags of
    /// properties that `validate` reads are kept on the common-value path (`PropertyPlan.ruled`).
    let holds: FrameStack<Bool>
    /// Per-object key tokens that no property read (a stack of frames, as `slots`).
    let unread: FrameStack<Int>
    /// The model actually built for the root object, when `classForDictionary` picked another.
    var rootBuilt: CompiledModel?
    /// Whether the root object is built as the model asked for whatever its `classForDictionary` says (the patch
    /// and the result of a merge, whose target has already chosen). Read only where a model has such rules.
    var keepsRootModel = false

    /// `outputCapacity`: the bytes `out` holds before it grows (the caller's estimate of the output).
    init(
        snapshot: RegistrySnapshot, options: ConversionOptions, input: UnsafeRawBufferPointer,
        tokens: UnsafeBufferPointer<JSONToken>, outputCapacity: Int = 256
    ) {
        self.snapshot = snapshot
        self.options = options
        self.documents = DocumentStack(input: input, tokens: tokens)
        self.diagnostics = Diagnostics(strict: options.mode == .strict)
        (slots, holds, unread, path, out) =
            Self.scratchPool.take()
            ?? (FrameStack(), FrameStack(), FrameStack(), InputPath(), OutputBuffer(capacity: outputCapacity))
        out.removeAll(reservingCapacity: outputCapacity)
    }

    /// Frame stacks, paths and output buffers of finished conversions (`ScratchPool`); a set with a stack grown past
    /// 4,096 elements is not kept, and an output buffer grown past 256 KiB is replaced by a new one
    /// (`recycleScratch`).
    private static let scratchPool = ScratchPool<
        (
            FrameStack<Int>, FrameStack<Bool>, FrameStack<Int>, InputPath,
            OutputBuffer
        )
    >(limit: 8) {
        $0.0.capacity <= 4096 && $0.1.capacity <= 4096 && $0.2.capacity <= 4096 && $0.3.capacity <= 4096
    }

    /// The largest output buffer the pool keeps.
    static let largestKeptOutput = 256 * 1024

    /// Hands the frame stacks, the path and the output buffer to the next converter; call once the conversion is
    /// done and its bytes are taken (`out.array`), as the converter's last use of them (another converter may
    /// take them at once; `diagnostics` stays readable). Every place that makes a converter calls it (a converter
    /// that does not just frees its scratch, and the pool is one set short).
    func recycleScratch() {
        slots.pop(to: 0)
        holds.pop(to: 0)
        unread.pop(to: 0)
        path.removeAll()
        let kept = out.capacity <= Self.largestKeptOutput ? out : OutputBuffer()
        Self.scratchPool.give((slots, holds, unread, path, kept))
    }

    /// Whether warnings are errors by the request's mode (`diagnostics.strict` also follows `strict` models and
    /// properties).
    var modeIsStrict: Bool { options.mode == .strict }

    /// Readies the converter for another object of the same input (the next batch element): an empty report and
    /// no rebuilt documents. `out` and the scratch stacks keep their contents and capacity.
    mutating func startObject() {
        diagnostics.removeAll()
        documents.removeRebuilt()
    }

    var fromModel: Bool { options.input == .model }
    var writesWire: Bool { options.output == .wire }

    func token(_ ref: ValueRef) -> JSONToken { documents[ref.document].tokens[ref.index] }

    mutating func warn(_ issue: Issue, extra: [UInt8]? = nil) {
        issue.utf8.withUnsafeBytes {
            diagnostics.record(
                issue.code, $0, isError: issue.isError ?? diagnostics.strict, at: path, in: documents,
                appending: extra)
        }
    }

    /// Records `coerced` for the value at `token`, written from `from` on: `<found> converted to <type>
    /// <written>`, the message written straight into the report (the most frequent warning, so it gets no array
    /// of its own).
    mutating func warnCoerced(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, as value: CompiledValue,
        writtenFrom from: Int, fractionTruncated: Bool
    ) {
        // The written bytes are read in place: nothing writes to `out` while the warning is recorded, so the
        // pointer stays valid. The type's part of the message is opened here rather than in the closure, whose
        // capture of it would cost an atomic retain and release per warning.
        let written = out.bytes(from..<out.count)
        value.coercedInfix.withUnsafeBytes { infix in
            diagnostics.record(.coerced, isError: diagnostics.strict, at: path, in: documents) { message in
                Self.writeCoercedMessage(
                    token, bytes, infix: infix, written: written,
                    fractionTruncated: fractionTruncated, into: &message)
            }
        }
    }

    /// `<found> converted to <type> <written>`, and ` (fraction truncated)` when it was. A short string without
    /// escapes, the common case, is shown as `string "<its raw bytes>"`, and then the whole message is one append;
    /// any other value is shown as `ValueDescription` describes it.
    private static func writeCoercedMessage(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer,
        infix: UnsafeRawBufferPointer, written: UnsafeRawBufferPointer,
        fractionTruncated: Bool, into message: inout [UInt8]
    ) {
        let truncated: StaticString = " (fraction truncated)"
        let suffix = UnsafeRawBufferPointer(
            start: truncated.utf8Start,
            count: fractionTruncated ? truncated.utf8CodeUnitCount : 0)
        guard let shown = ValueDescription.plainShortString(token, in: bytes) else {
            message.append(utf8: ValueDescription.describe(token, in: bytes))
            message.append(bytes: infix, written)
            message.append(bytes: suffix)
            return
        }
        let opening = ValueDescription.stringOpening
        let length = opening.utf8CodeUnitCount + shown.count + 1 + infix.count + written.count + suffix.count
        message.append(count: length) { buffer in
            var target = UnsafeMutableRawPointer(buffer.baseAddress!)
            func copy(_ part: UnsafeRawBufferPointer) {
                if let source = part.baseAddress { copyBytes(to: target, from: source, count: part.count) }
                target += part.count
            }
            copy(UnsafeRawBufferPointer(start: opening.utf8Start, count: opening.utf8CodeUnitCount))
            copy(shown)
            target.storeBytes(of: .quote, as: UInt8.self)
            target += 1
            copy(infix)
            copy(written)
            copy(suffix)
        }
    }

    mutating func fail(_ code: DiagnosticCode, _ message: String, extra: [UInt8]? = nil) {
        diagnostics.record(code, message, isError: true, at: path, in: documents, appending: extra)
    }

    // MARK: - Values

    /// Converts the value at `ref` as `value`, writing its bytes. Issues of scalars are returned, not recorded:
    /// the caller records them, or replaces them with `element_dropped`. Two exceptions are recorded here: a kept
    /// value's issue when it has constraints (before what they say), and `coerced`, which is always kept, its
    /// message written straight into the report. Only this function calls `TypeCoercion`'s conversions.
    mutating func convert(_ ref: ValueRef, as value: CompiledValue) -> TypeCoercion.Result {
        let document = documents[ref.document]
        let token = document.tokens[ref.index]
        let bytes = document.bytes
        let start = out.count
        var instant = Instant(microseconds: 0)
        var result: TypeCoercion.Result
        switch value.kind {
        case .model(let id):
            guard token.kind == .object else { return Self.mismatch(token, bytes, value) }
            // Borrowed: the snapshot holds its models for the whole conversion, so the model needs no retain and
            // release (both atomic, on an object every worker shares) for each object converted.
            Unmanaged.passUnretained(snapshot.model(id)).borrowed { convertObject(ref, as: $0) }
            return .value
        case .array(let element):
            guard token.kind == .array else { return Self.mismatch(token, bytes, value) }
            result = convertArray(ref, element: element, deduplicate: false)
        case .set(let element):
            guard token.kind == .array else { return Self.mismatch(token, bytes, value) }
            result = convertSet(ref, element: element)
        case .dictionary(let element):
            guard token.kind == .object else { return Self.mismatch(token, bytes, value) }
            result = convertDictionary(ref, element: element)
        case .withOptions(let plain):
            return convertWithOptions(ref, value, plain)
        case .any:
            if token.kind == .null { return .noValue }
            writeAny(ref)
            result = .value
        default:
            let fromModel = fromModel
            result = Converter.withText(token, bytes, into: &out) { text, out in
                switch value.kind {
                case .bool, .integer, .float, .double:
                    TypeCoercion.numeric(token, bytes, text: text, as: value, into: &out)
                case .number: TypeCoercion.numberText(token, bytes, text: text, into: &out)
                case .decimal: TypeCoercion.decimal(token, bytes, text: text, into: &out)
                case .string: TypeCoercion.string(token, bytes, into: &out)
                case .url: TypeCoercion.url(token, bytes, text: text, into: &out)
                case .data: TypeCoercion.data(token, bytes, text: text, as: value, into: &out)
                case .date:
                    TypeCoercion.date(
                        token, bytes, text: text, as: value, fromModel: fromModel,
                        instant: &instant, into: &out)
                case .uuid: TypeCoercion.uuid(token, bytes, text: text, into: &out)
                case .calendarDate: TypeCoercion.calendarDate(token, bytes, text: text, into: &out)
                default: preconditionFailure("unreachable")
                }
            }
            if let from = result.coercedFrom {
                warnCoerced(token, bytes, as: value, writtenFrom: from, fractionTruncated: result.fractionTruncated)
                result.coercedFrom = nil
                result.fractionTruncated = false
            }
        }
        if result.outcome == .value, let constraints = value.constraints {
            // A kept value's warning comes first, then what its constraints say about it.
            if let issue = result.issue {
                warn(issue)
                result.issue = nil
            }
            checkConstraints(constraints, value: value, token: token, bytes: bytes, written: start, instant: instant)
        }
        assert(result.coercedFrom == nil, "a coerced value's warning must be recorded here")
        return result
    }

    /// Calls `body` with a string token's decoded bytes (the raw slice when it has no escapes; empty for others).
    private static func withText(
        _ token: JSONToken, _ bytes: UnsafeRawBufferPointer, into out: inout OutputBuffer,
        _ body: (UnsafeRawBufferPointer, inout OutputBuffer) -> TypeCoercion.Result
    )
        -> TypeCoercion.Result
    {
        guard token.kind == .string else { return body(UnsafeRawBufferPointer(start: nil, count: 0), &out) }
        guard token.hasEscapes else {
            return body(UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end]), &out)
        }
        return JSONStrings.decoded(token, in: bytes).withUnsafeBytes { body($0, &out) }
    }
}

extension Converter {
    /// A container or model value of the wrong JSON kind: `null` is no value, anything else is dropped.
    static func mismatch(_ token: JSONToken, _ bytes: UnsafeRawBufferPointer, _ value: CompiledValue)
        -> TypeCoercion.Result
    {
        token.kind == .null
            ? .noValue
            : TypeCoercion.dropped(
                .wrongType, "expected \(value.typeName), got \(ValueDescription.describe(token, in: bytes))")
    }
}
