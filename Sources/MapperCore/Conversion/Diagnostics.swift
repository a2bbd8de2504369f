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
/// Entries arrive in report order (depth-first, SEMANTICS.md "Reports"); identical entries are kept once. In strict
/// mode every warning is recorded as an error with the same code and path.
///
/// Entries are kept as bytes, every path and message back to back in one buffer, and become `Diagnostic` values
/// only when `entries` is read. A `/convert` that answers 200 reads only the count and the codes, so its
/// warnings (a lax conversion of messy input can have dozens) make no path or entry strings: the converter writes
/// each path straight into the buffer. (A coercion's message is still a `String` until it is copied in.)
///
/// Identical means equal bytes of path and message, and the same code (SEMANTICS.md "Reports"; "Bytes": no Unicode
/// normalisation, so a key spelled with a precomposed `é` and one with `e` + U+0301 are different paths). The
/// severity is compared too: within one conversion it follows from the code and the mode, so this changes nothing
/// except that an error can never be dropped as the repeat of a warning.
struct Diagnostics: Sendable {
    let strict: Bool
    /// The paths and messages of every entry, back to back.
    private var text: [UInt8] = []
    private var records: [Record] = []
    /// FNV-1a over each record's path, apart from the records so that looking for a repeat reads only these.
    private var fingerprints: [UInt64] = []
    /// Records by fingerprint, for finding repeats once there are too many to compare one by one (built on first
    /// need).
    private var byFingerprint: [UInt64: [Int]] = [:]
    private(set) var errorCount = 0
    /// Up to this many entries, a repeat is found by scanning the fingerprints.
    private static let linearLimit = 256

    private struct Record: Sendable {
        var code: DiagnosticCode
        var isError: Bool
        /// `text[pathStart..<messageStart]` is the path, `text[messageStart..<end]` the message.
        var pathStart: Int
        var messageStart: Int
        var end: Int
    }

    init(strict: Bool) { self.strict = strict }

    var isEmpty: Bool { records.isEmpty }
    var count: Int { records.count }
    /// The entries' codes, in report order.
    var codes: [DiagnosticCode] { records.map(\.code) }

    /// Every entry, its path and message made into strings now.
    var entries: [Diagnostic] {
        text.withUnsafeBytes { text in
            records.map { record in
                Diagnostic(path: String(decoding: text[record.pathStart..<record.messageStart], as: UTF8.self),
                           code: record.code,
                           message: String(decoding: text[record.messageStart..<record.end], as: UTF8.self),
                           isError: record.isError)
            }
        }
    }

    mutating func warn(_ path: String, _ issue: Issue) { record(path, issue.code, issue.message, isError: strict) }

    mutating func record(_ path: String, _ code: DiagnosticCode, _ message: String, isError: Bool) {
        let start = text.count
        text.append(utf8: path)
        finish(code, message, isError: isError, pathStart: start)
    }

    /// Records an entry whose path is the converter's current input position (`path` rendered through
    /// `documents`, then `extra`), written straight into the buffer.
    mutating func record(_ code: DiagnosticCode, _ message: String, isError: Bool,
                         at path: InputPath, in documents: DocumentStack, appending extra: [UInt8]? = nil) {
        let start = text.count
        path.write(documents, appending: extra, into: &text)
        finish(code, message, isError: isError, pathStart: start)
    }

    /// Adds another collector's entries with `prefix` in front of each path (batch elements, compare sides).
    mutating func append(_ other: Diagnostics, prefix: String) {
        other.text.withUnsafeBytes { source in
            for entry in other.records {
                let start = text.count
                text.append(utf8: prefix)
                text.append(bytes: UnsafeRawBufferPointer(rebasing: source[entry.pathStart..<entry.messageStart]))
                let messageStart = text.count
                text.append(bytes: UnsafeRawBufferPointer(rebasing: source[entry.messageStart..<entry.end]))
                keepUnlessRepeated(Record(code: entry.code, isError: entry.isError, pathStart: start,
                                          messageStart: messageStart, end: text.count))
            }
        }
    }

    /// Appends the message after a path just written from `pathStart`, and keeps the entry unless it repeats one.
    private mutating func finish(_ code: DiagnosticCode, _ message: String, isError: Bool, pathStart: Int) {
        let messageStart = text.count
        text.append(utf8: message)
        keepUnlessRepeated(Record(code: code, isError: isError, pathStart: pathStart, messageStart: messageStart,
                                  end: text.count))
    }

    /// Keeps the entry whose bytes end the buffer, or drops those bytes when an identical entry is already kept.
    private mutating func keepUnlessRepeated(_ new: Record) {
        let fingerprint = fingerprint(new)
        if records.count < Self.linearLimit {
            for (index, old) in fingerprints.enumerated() where old == fingerprint && same(records[index], new) {
                text.truncate(to: new.pathStart)
                return
            }
        } else {
            if byFingerprint.isEmpty {
                for (index, old) in fingerprints.enumerated() { byFingerprint[old, default: []].append(index) }
            }
            if let candidates = byFingerprint[fingerprint], candidates.contains(where: { same(records[$0], new) }) {
                text.truncate(to: new.pathStart)
                return
            }
            byFingerprint[fingerprint, default: []].append(records.count)
        }
        records.append(new)
        fingerprints.append(fingerprint)
        if new.isError { errorCount += 1 }
    }

    private func fingerprint(_ record: Record) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        text.withUnsafeBytes { text in
            for byte in text[record.pathStart..<record.messageStart] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return hash
    }

    private func same(_ a: Record, _ b: Record) -> Bool {
        guard a.code == b.code, a.isError == b.isError, a.messageStart - a.pathStart == b.messageStart - b.pathStart,
              a.end - a.messageStart == b.end - b.messageStart else { return false }
        return text.withUnsafeBytes { text in
            text[a.pathStart..<a.end].elementsEqual(text[b.pathStart..<b.end])
        }
    }
}
