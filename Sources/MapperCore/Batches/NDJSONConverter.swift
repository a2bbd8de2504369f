// SPDX-License-Identifier: Apache-2.0

/// Converts an NDJSON stream line by line as chunks arrive, in memory bounded by the line limit (docs/api.md, "NDJSON
/// streams").
///
/// Each non-blank line (blank: only SP, HTAB, CR) gives one output line: the result, a validation report line, or
/// an error record, which the caller writes (`RecordWriter`: the server renders its records with its error bodies).
/// Line numbers are 1-based and count blank lines. A line over the limit is skipped up to its LF (`tooLong`) and
/// the stream goes on. In strict mode the first failing line ends a conversion stream (`isFinished`); a validation
/// stream reports every line in either mode.
public struct NDJSONConverter {
    /// What each line produces.
    public enum Kind: Sendable { case convert, validate }

    /// Why a line gives an error record.
    public enum LineFailure {
        /// The line is longer than `limit` bytes; it was skipped up to its LF.
        case tooLong(limit: Int)
        /// The line did not convert.
        case failed(MappingError)
    }

    /// Appends the error record of the failing line numbered `line` to `out`, without its LF.
    public typealias RecordWriter = (_ failure: LineFailure, _ line: Int, _ out: inout [UInt8]) -> Void

    let snapshot: RegistrySnapshot
    let model: String
    let options: ConversionOptions
    let kind: Kind
    let maxLineBytes: Int
    let writeRecord: RecordWriter
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

    /// A converter for `model`; `maxLineBytes` is the per-line limit (default 1 MiB); `records` writes the error
    /// records.
    public init(
        snapshot: RegistrySnapshot, model: String, options: ConversionOptions, kind: Kind = .convert,
        maxLineBytes: Int = 1_048_576, records: @escaping RecordWriter
    ) {
        self.snapshot = snapshot
        self.model = model
        self.options = options
        self.kind = kind
        self.maxLineBytes = maxLineBytes
        writeRecord = records
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
            record(.tooLong(limit: maxLineBytes), into: &out)
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
            record(.failed(error), into: &out)
        }
    }

    private static func reportLine(_ report: ValidationReport, line: Int) -> [UInt8] {
        var out: [UInt8] = Array("{\"line\":\(line),".utf8)
        report.writeMembers(into: &out)
        out.append(.closeBrace)
        return out
    }

    private mutating func record(_ failure: LineFailure, into out: inout [UInt8]) {
        writeRecord(failure, lineNumber, &out)
        out.append(.lineFeed)
        warnings += 1
        errorLines += 1
        if endsAtFirstFailure { isFinished = true }
    }
}

extension RegistrySnapshot {
    /// A whole NDJSON body at once (the CLI); the server feeds chunks to `NDJSONConverter` instead.
    public func convertNDJSON(
        _ body: UnsafeRawBufferPointer, model: String, options: ConversionOptions,
        kind: NDJSONConverter.Kind = .convert, maxLineBytes: Int = 1_048_576,
        records: @escaping NDJSONConverter.RecordWriter
    ) -> (converted: Converted, errorLines: Int) {
        var converter = NDJSONConverter(
            snapshot: self, model: model, options: options, kind: kind,
            maxLineBytes: maxLineBytes, records: records)
        var out = converter.feed(body)
        out += converter.finish()
        return (
            Converted(body: out, warnings: converter.warnings, modelHash: nil, report: Diagnostics(strict: false)),
            converter.errorLines
        )
    }
}
