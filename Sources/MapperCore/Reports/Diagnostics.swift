// SPDX-License-Identifier: Apache-2.0

/// One report entry: where in the input, what code, and a sentence.
public struct Diagnostic: Sendable, Equatable, Hashable {
    /// RFC 6901 JSON Pointer into the input.
    public var path: String
    /// The stable code.
    public var code: DiagnosticCode
    /// One sentence for people.
    public var message: String
    /// Errors fail the model; warnings do not.
    public var isError: Bool
}

/// The collector threaded through a conversion: lax mode records every problem and carries on.
///
/// Entries arrive in report order (depth-first, docs/semantics.md, "Reports"); identical entries are kept once. In
/// strict mode every warning is recorded as an error with the same code and path.
///
/// Entries are kept as bytes, every path and message back to back in one buffer, and become `Diagnostic` values
/// only when `entries` is read. A `/convert` that answers 200 reads only the count and the codes, so its
/// warnings (a lax conversion of messy input can have dozens) make no path or entry strings: the converter writes
/// each path straight into the buffer, writes a `coerced` message there from its parts (`Converter.warnCoerced`),
/// and hands other messages over as bytes (`Issue.utf8`).
///
/// Identical means equal bytes of path and message, and the same code (docs/semantics.md, "Reports"; "Bytes": no
/// Unicode normalisation, so a key spelled with a precomposed `é` and one with `e` + U+0301 are different paths). The
/// severity is compared too: within one conversion it follows from the code and the mode, so this changes nothing
/// except that an error can never be dropped as the repeat of a warning.
///
/// The buffers live in one copy-on-write box that exists only once an entry is recorded: most conversions record
/// nothing, and then making, copying (into a `Run`, a `Converted`) and dropping the collector touches no reference
/// count.
struct Diagnostics: Sendable {
    /// Whether warnings are recorded as errors: the mode's, raised while a `strict` model or property is read.
    var strict: Bool
    /// The entries, once there is one.
    private var box: CopyOnWriteBox<Entries>?
    private(set) var errorCount = 0
    /// The input while paths are kept coded (`deferPointers(to:)`): what they are rendered from when an entry
    /// arrives whose path cannot be coded. Only read during the conversion that set it.
    nonisolated(unsafe) private var deferring: DocumentStack.Document?
    /// Whether any kept entry's path is still coded, so that `entries` cannot be read.
    private(set) var hasCodedPaths = false

    private struct Record: Sendable {
        var code: DiagnosticCode
        var isError: Bool
        /// The path is in coded form (`InputPath.writeCoded`), not a pointer.
        var coded = false
        /// `text[pathStart..<messageStart]` is the path, `text[messageStart..<end]` the message.
        var pathStart: Int
        var messageStart: Int
        var end: Int
        /// The path's fingerprint, compared before the bytes, and read again to place the record when the table
        /// grows (set when the record is kept).
        var fingerprint: UInt64 = 0
    }

    /// The buffers, boxed so that a collector without entries holds only a nil reference.
    private struct Entries {
        /// The paths and messages of every entry, back to back.
        var text: [UInt8] = []
        var records: [Record] = []
        /// An open-addressing table of the records by fingerprint: `slots[i]` is a record's index plus one, or 0
        /// when empty. Its size is a power of two at least twice the number of records, so a lookup probes a few
        /// slots on average whatever the number of entries.
        var slots: [Int32] = []

        /// Made for a conversion's first entry: room for 64 entries, so a lax conversion of messy input (a
        /// timeline's 55 warnings) neither grows the buffers nor rehashes the table.
        init() {
            text.reserveCapacity(4096)
            records.reserveCapacity(64)
            slots = Array(repeating: 0, count: 128)
        }

        /// Keeps the entry whose bytes end `text` and returns true, or drops those bytes and returns false when an
        /// identical entry is kept already.
        mutating func keepUnlessRepeated(_ new: Record) -> Bool {
            var new = new
            let fingerprint = fingerprint(new)
            new.fingerprint = fingerprint
            let mask = slots.count - 1
            var slot = Self.home(fingerprint, mask)
            while slots[slot] != 0 {
                let old = Int(slots[slot]) - 1
                if records[old].fingerprint == fingerprint, same(records[old], new) {
                    text.truncate(to: new.pathStart)
                    return false
                }
                slot = (slot + 1) & mask
            }
            records.append(new)
            slots[slot] = Int32(records.count)
            if records.count * 2 > slots.count { rehash(size: slots.count * 2) }
            return true
        }

        /// Forgets every entry, keeping the buffers' capacity and the table's size. Only the occupied slots are
        /// cleared, so a batch element after one with many entries does not pay for the whole table: every
        /// occupied slot lies in a run that starts at the home of one of the records, so walking from each
        /// record's home to the next empty slot clears them all.
        mutating func removeAll() {
            let mask = slots.count - 1
            for record in records {
                var slot = Self.home(record.fingerprint, mask)
                while slots[slot] != 0 {
                    slots[slot] = 0
                    slot = (slot + 1) & mask
                }
            }
            text.removeAll(keepingCapacity: true)
            records.removeAll(keepingCapacity: true)
        }

        private mutating func rehash(size: Int) {
            slots = Array(repeating: 0, count: size)
            let mask = size - 1
            for (index, record) in records.enumerated() {
                var slot = Self.home(record.fingerprint, mask)
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(index + 1)
            }
        }

        /// A fingerprint's first slot. FNV-1a's low bits depend only on the low bits of the bytes, so the high half
        /// is folded in.
        private static func home(_ fingerprint: UInt64, _ mask: Int) -> Int {
            Int(truncatingIfNeeded: fingerprint ^ fingerprint >> 32) & mask
        }

        private func fingerprint(_ record: Record) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            if record.coded {
                // Whole words: each is a segment.
                return text.withUnsafeBytes { text in
                    for offset in stride(from: record.pathStart, to: record.messageStart, by: 8) {
                        hash =
                            (hash ^ text.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                            &* 0x9e37_79b9_7f4a_7c15
                    }
                    return hash ^ hash >> 29
                }
            }
            text.withUnsafeBytes { text in
                for byte in text[record.pathStart..<record.messageStart] {
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                }
            }
            return hash
        }

        private func same(_ a: Record, _ b: Record) -> Bool {
            guard a.code == b.code, a.isError == b.isError, a.coded == b.coded,
                a.messageStart - a.pathStart == b.messageStart - b.pathStart,
                a.end - a.messageStart == b.end - b.messageStart
            else { return false }
            return text.withUnsafeBytes { text in
                text[a.pathStart..<a.end].elementsEqual(text[b.pathStart..<b.end])
            }
        }
    }

    init(strict: Bool) { self.strict = strict }

    var isEmpty: Bool { box?.value.records.isEmpty ?? true }
    var count: Int { box?.value.records.count ?? 0 }
    /// The entries' codes, in report order.
    var codes: [DiagnosticCode] { box?.value.records.map(\.code) ?? [] }

    /// Every entry, its path and message made into strings now. Not for a collector whose paths are still coded.
    var entries: [Diagnostic] {
        precondition(!hasCodedPaths, "entries read while paths are coded")
        guard let box else { return [] }
        return box.value.text.withUnsafeBytes { text in
            box.value.records.map { record in
                Diagnostic(
                    path: String(decoding: text[record.pathStart..<record.messageStart], as: UTF8.self),
                    code: record.code,
                    message: String(decoding: text[record.messageStart..<record.end], as: UTF8.self),
                    isError: record.isError)
            }
        }
    }

    /// The entries' box, made for the first entry and copied first when another collector shares it.
    private mutating func writable() -> CopyOnWriteBox<Entries> { box.writableBox { Entries() } }

    /// Forgets every entry, keeping the buffers' capacity when no other collector shares them (a batch's next
    /// element).
    mutating func removeAll() {
        errorCount = 0
        hasCodedPaths = false
        guard isKnownUniquelyReferenced(&box), let box else {
            box = nil
            return
        }
        box.value.removeAll()
    }

    mutating func warn(_ path: String, _ issue: Issue) {
        issue.utf8.withUnsafeBytes { record(path, issue.code, $0, isError: strict) }
    }

    mutating func record(_ path: String, _ code: DiagnosticCode, _ message: String, isError: Bool) {
        message.withUTF8Bytes { record(path, code, UnsafeRawBufferPointer($0), isError: isError) }
    }

    /// `message` is UTF-8, and must not point into this collector's own buffer (appending may move it).
    private mutating func record(
        _ path: String, _ code: DiagnosticCode, _ message: UnsafeRawBufferPointer,
        isError: Bool
    ) {
        if let document = deferring { renderCodedPaths(from: document) }
        let box = writable()
        let start = box.value.text.count
        box.value.text.append(utf8: path)
        finish(box, code, message, isError: isError, pathStart: start)
    }

    /// Records an entry whose path is the converter's current input position (see below).
    mutating func record(
        _ code: DiagnosticCode, _ message: String, isError: Bool,
        at path: InputPath, in documents: DocumentStack, appending extra: [UInt8]? = nil
    ) {
        message.withUTF8Bytes {
            record(code, UnsafeRawBufferPointer($0), isError: isError, at: path, in: documents, appending: extra)
        }
    }

    /// Records an entry whose path is the converter's current input position (`path` rendered through
    /// `documents`, then `extra`), written straight into the buffer; `message` is UTF-8 and must not point into
    /// this collector's own buffer (appending may move it).
    mutating func record(
        _ code: DiagnosticCode, _ message: UnsafeRawBufferPointer, isError: Bool,
        at path: InputPath, in documents: DocumentStack, appending extra: [UInt8]? = nil
    ) {
        record(code, isError: isError, at: path, in: documents, appending: extra) { $0.append(bytes: message) }
    }

    /// As above, with the message written by `message` straight into the buffer, after the path (a `coerced`
    /// warning's parts, `Converter.warnCoerced`).
    mutating func record(
        _ code: DiagnosticCode, isError: Bool, at path: InputPath, in documents: DocumentStack,
        appending extra: [UInt8]? = nil, message: (inout [UInt8]) -> Void
    ) {
        if let document = deferring {
            if !isError, extra == nil {
                // The box made writable, then borrowed from `box`, which holds it throughout and which nothing
                // below replaces: keeping the reference `writable()` returns would cost an atomic retain and release
                // per warning.
                _ = writable()
                let coded = Unmanaged.passUnretained(box.unsafelyUnwrapped).borrowed { box in
                    let start = box.value.text.count
                    guard path.writeCoded(into: &box.value.text) else { return false }
                    finish(box, code, isError: false, pathStart: start, coded: true, message: message)
                    return true
                }
                if coded { return }
            }
            renderCodedPaths(from: document)
        }
        let box = writable()
        let start = box.value.text.count
        path.write(documents, appending: extra, into: &box.value.text)
        finish(box, code, isError: isError, pathStart: start, message: message)
    }

    // MARK: - Coded paths

    /// Keeps the paths of warnings coded (`InputPath.writeCoded`: a word per segment) instead of rendering each
    /// JSON Pointer, until an entry arrives whose path cannot be coded (an error, a renamed or absent key, a key
    /// of a rebuilt document even when not renamed, a pointer given as a string such as `duplicate_key`'s); then
    /// every coded path is rendered from `input` and the kept entries are repeat-checked as pointers, and the
    /// collector goes on as usual. For a conversion whose caller reads only the count and the codes of a success
    /// (`ConversionOptions.keepsEntries` off); an error always renders every path.
    ///
    /// The count stays exact. Repeats are found among coded paths by their words and message, and two coded
    /// paths name the same value exactly when their words are equal, for two reasons:
    /// - every lookup that pushes a coded segment (key slots, key paths, `unwrap`, dictionary members) resolves a
    ///   key to its last occurrence by decoded name, so two members it visits in one object have different names;
    /// - a repeated key the converter meets is always reported as `duplicate_key` with a pointer given as a
    ///   string, which ends the coding, so paths that are still coded never ran through an object with one.
    mutating func deferPointers(to input: DocumentStack.Document) {
        deferring = input
    }

    /// Stops coding paths and forgets the input (a finished conversion's document is gone); coded paths stay
    /// coded, so `count` and `codes` still answer and `entries` may not be read.
    mutating func stopDeferring() {
        deferring = nil
    }

    /// Renders every coded path from `input` and keeps the entries again, dropping any that now repeat an
    /// earlier one as pointers; paths are not coded from here on.
    private mutating func renderCodedPaths(from input: DocumentStack.Document) {
        deferring = nil
        guard hasCodedPaths, let old = box?.value else { return }
        hasCodedPaths = false
        let box = writable()
        box.value.removeAll()
        errorCount = 0
        old.text.withUnsafeBytes { text in
            for record in old.records {
                let start = box.value.text.count
                let path = UnsafeRawBufferPointer(rebasing: text[record.pathStart..<record.messageStart])
                if record.coded {
                    InputPath.writePointer(coded: path, in: input, into: &box.value.text)
                } else {
                    box.value.text.append(bytes: path)
                }
                finish(
                    box, record.code, UnsafeRawBufferPointer(rebasing: text[record.messageStart..<record.end]),
                    isError: record.isError, pathStart: start)
            }
        }
    }

    /// Adds another collector's entries with `prefix` in front of each path (batch elements, compare sides).
    mutating func append(_ other: Diagnostics, prefix: String) {
        precondition(!other.hasCodedPaths && deferring == nil, "entries appended while paths are coded")
        guard let source = other.box else { return }
        let box = writable()
        source.value.text.withUnsafeBytes { sourceText in
            for entry in source.value.records {
                let start = box.value.text.count
                box.value.text.append(utf8: prefix)
                let path = sourceText[entry.pathStart..<entry.messageStart]
                box.value.text.append(bytes: UnsafeRawBufferPointer(rebasing: path))
                let messageStart = box.value.text.count
                box.value.text.append(
                    bytes: UnsafeRawBufferPointer(rebasing: sourceText[entry.messageStart..<entry.end]))
                keepUnlessRepeated(
                    Record(
                        code: entry.code, isError: entry.isError, pathStart: start,
                        messageStart: messageStart, end: box.value.text.count), in: box)
            }
        }
    }

    /// Appends the message after a path just written from `pathStart`, and keeps the entry unless it repeats one.
    private mutating func finish(
        _ box: CopyOnWriteBox<Entries>, _ code: DiagnosticCode,
        _ message: UnsafeRawBufferPointer, isError: Bool, pathStart: Int
    ) {
        finish(box, code, isError: isError, pathStart: pathStart) { $0.append(bytes: message) }
    }

    /// As above, the message written by `message`.
    private mutating func finish(
        _ box: CopyOnWriteBox<Entries>, _ code: DiagnosticCode, isError: Bool,
        pathStart: Int, coded: Bool = false, message: (inout [UInt8]) -> Void
    ) {
        let messageStart = box.value.text.count
        message(&box.value.text)
        keepUnlessRepeated(
            Record(
                code: code, isError: isError, coded: coded, pathStart: pathStart,
                messageStart: messageStart, end: box.value.text.count), in: box)
        if coded { hasCodedPaths = true }
    }

    /// Keeps the entry whose bytes end the buffer unless it repeats one, counting it when it is an error.
    private mutating func keepUnlessRepeated(_ new: Record, in box: CopyOnWriteBox<Entries>) {
        if box.value.keepUnlessRepeated(new), new.isError { errorCount += 1 }
    }
}
