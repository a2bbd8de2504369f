// SPDX-License-Identifier: Apache-2.0

/// Converts an NDJSON stream line by line as chunks arrive, in memory bounded by the line limit (docs/api.md, "NDJSON
/// streams").
///
/// Each non-blank line (blank: only SP, HTAB, CR) gives one output line: the result, a validation report line, or
/// an error record `{"error":{"status":…,"code":…,"message":…,"line":N,…}}`. Line numbers are 1-based and count
/// blank lines. A line over the limit is skipped up to its LF (`413 line_too_long`) and the stream goes on. In
/// strict mode the first failing line ends a conversion stream (`isFinished`); a validation stream reports every
/// line in either mode (docs/api.md, `/validate/{Model}/array`).
public struct NDJSONConverter {
    /// What each line produces.
    public enum Kind: Sendable { case convert, validate }

    let snapshot: RegistrySnapshot
    let model: String
    let options: ConversionOptions
    let kind: Kind
    let maxLineBytes: Int
    private var pending: [UInt8] = []
    private var skipping = false
    private var lineNumber = 0
    /// `X-Transform-Warnings`: converted lines' warnings plus one per error record.
    public private(set) var warnings = 0
    /// Error records written (the CLI exits 1 when any).
    public private(set) var errorLines = 0
    /// True once strict mode stopped a conversion stream at a failing line; later input is ignored.
    public private(set) var isFinished = false
    /// Strict conversion ends at its first failing line; validation never ends early.
    private var endsAtFirstFailure: Bool { options.mode == .strict && kind == .convert }

    /// A converter for `model`; `maxLineBytes` is the per-line limit (default 1 MiB).
    public init(snapshot: RegistrySnapshot, model: String, options: ConversionOptions, kind: Kind = .convert,
                maxLineBytes: Int = 1_048_576) {
        self.snapshot = snapshot
        self.model = model
        self.options = options
        self.kind = kind
        self.maxLineBytes = maxLineBytes
    }

    /// Feeds the next chunk; returns the output of every line it completed.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < chunk.count, !isFinished {
            let rest = UnsafeRawBufferPointer(rebasing: chunk[start...])
            let newline = rest.firstIndex(of: .lineFeed).map { $0 + start }
            let end = newline ?? chunk.count
            if !skipping {
                if pending.count + (end - start) > maxLineBytes {
                    skipping = true
                    pending.removeAll(keepingCapacity: false)
                } else {
                    pending.append(contentsOf: chunk[start..<end])
                }
            }
            guard let newline else { break }
            completeLine(into: &out)
            start = newline + 1
        }
        return out
    }

    /// Ends the stream: converts a last line that has no newline.
    public mutating func finish() -> [UInt8] {
        var out: [UInt8] = []
        if !isFinished, skipping || !pending.isEmpty { completeLine(into: &out) }
        return out
    }

    private mutating func completeLine(into out: inout [UInt8]) {
        lineNumber += 1
        defer {
            pending.removeAll(keepingCapacity: true)
            skipping = false
        }
        if skipping {
            record(status: 413, code: "line_too_long",
                   message: "line \(lineNumber) is longer than the limit of \(maxLineBytes) bytes", into: &out) { _ in }
            return
        }
        var line = pending[...]
        if line.last == .carriageReturn { line = line.dropLast() }
        if line.allSatisfy({ $0 == .space || $0 == .tab || $0 == .carriageReturn }) { return }
        let number = lineNumber
        let result: Result<(body: [UInt8], warnings: Int), MappingError> = line.withUnsafeBytes { body in
            Result { () throws(MappingError) in
                switch kind {
                case .convert:
                    let converted = try snapshot.convert(body, model: model, options: options)
                    return (converted.body, converted.warnings)
                case .validate:
                    let valid = try snapshot.validate(body, model: model, options: options)
                    return (Self.reportLine(valid.report, line: number), valid.report.entries.count)
                }
            }
        }
        switch result {
        case .success(let converted):
            out.append(contentsOf: converted.body)
            out.append(.lineFeed)
            warnings += converted.warnings
        case .failure(.validationFailed(let report)) where kind == .validate:
            out.append(contentsOf: Self.reportLine(report, line: number))
            out.append(.lineFeed)
            warnings += 1
            if endsAtFirstFailure { isFinished = true }
        case .failure(let error):
            writeRecord(error, into: &out)
        }
    }

    private static func reportLine(_ report: ValidationReport, line: Int) -> [UInt8] {
        var out: [UInt8] = Array("{\"line\":\(line),".utf8)
        report.writeMembers(into: &out)
        out.append(.closeBrace)
        return out
    }

    private mutating func writeRecord(_ error: MappingError, into out: inout [UInt8]) {
        switch error {
        case .invalidJSON(let at), .nestingTooDeep(let at):
            record(status: error.status, code: error.code, message: at.message, into: &out) {
                $0.append(contentsOf: ",\"column\":\(at.column)".utf8)
            }
        case .validationFailed(let report):
            record(status: 422, code: "validation_failed", message: report.summary, into: &out) { body in
                report.writeEntries(into: &body)
            }
        case .notAnObject(let message), .notAnArray(let message):
            record(status: error.status, code: error.code, message: message, into: &out) { _ in }
        case .unknownModel:
            record(status: error.status, code: error.code, message: error.description, into: &out) { _ in }
        }
    }

    private mutating func record(status: Int, code: String, message: String, into out: inout [UInt8],
                                 extra: (inout [UInt8]) -> Void) {
        let number = lineNumber
        out.append(contentsOf: "{\"error\":".utf8)
        ErrorBody.writeErrorObject(status: status, code: code, message: message, requestId: nil, into: &out) { body in
            body.append(contentsOf: ",\"line\":\(number)".utf8)
            extra(&body)
        }
        out.append(.closeBrace)
        out.append(.lineFeed)
        warnings += 1
        errorLines += 1
        if endsAtFirstFailure { isFinished = true }
    }
}

extension RegistrySnapshot {
    /// A whole NDJSON body at once (the CLI); the server feeds chunks to `NDJSONConverter` instead.
    public func convertNDJSON(_ body: UnsafeRawBufferPointer, model: String, options: ConversionOptions,
                              kind: NDJSONConverter.Kind = .convert, maxLineBytes: Int = 1_048_576)
        -> (converted: Converted, errorLines: Int)
    {
        var converter = NDJSONConverter(snapshot: self, model: model, options: options, kind: kind, maxLineBytes: maxLineBytes)
        var out = converter.feed(body)
        out += converter.finish()
        return (Converted(body: out, warnings: converter.warnings, modelHash: nil, report: Diagnostics(strict: false)), converter.errorLines)
    }
}
