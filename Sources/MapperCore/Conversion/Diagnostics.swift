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
struct Diagnostics {
    let strict: Bool
    private(set) var entries: [Diagnostic] = []
    /// A cheap hash of each entry's path, so that finding a repeat compares whole entries only on a match.
    private var fingerprints: [UInt64] = []
    /// Every entry, for finding repeats once there are too many to compare one by one (built on first need).
    private var seen = Set<Diagnostic>()
    private(set) var errorCount = 0
    /// Up to this many entries, a repeat is found by scanning the fingerprints (cheaper than hashing two strings).
    private static let linearLimit = 256

    init(strict: Bool) { self.strict = strict }

    var isEmpty: Bool { entries.isEmpty }

    mutating func warn(_ path: String, _ issue: Issue) { record(path, issue.code, issue.message, isError: strict) }

    mutating func record(_ path: String, _ code: DiagnosticCode, _ message: String, isError: Bool) {
        let entry = Diagnostic(path: path, code: code, message: message, isError: isError)
        let fingerprint = Self.fingerprint(path)
        if entries.count < Self.linearLimit {
            for (i, other) in fingerprints.enumerated() where other == fingerprint && entries[i] == entry { return }
        } else {
            if seen.isEmpty { seen = Set(entries) }
            guard seen.insert(entry).inserted else { return }
        }
        entries.append(entry)
        fingerprints.append(fingerprint)
        if isError { errorCount += 1 }
    }

    /// FNV-1a over the path's bytes.
    private static func fingerprint(_ path: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var path = path
        path.withUTF8 { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return hash
    }

    /// Adds another collector's entries with `prefix` in front of each path (batch elements, compare sides).
    mutating func append(_ other: Diagnostics, prefix: String) {
        for entry in other.entries { record(prefix + entry.path, entry.code, entry.message, isError: entry.isError) }
    }
}
