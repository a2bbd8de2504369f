// SPDX-License-Identifier: Apache-2.0

/// The path from the input's root to the value being converted, kept as a stack of cheap segments and rendered
/// into an RFC 6901 pointer only when a diagnostic is recorded.
///
/// A key segment points at a key token of a document (no copy); `reset` replaces everything before it, used where
/// a value's input position is not where the conversion found it (a key renamed by `willTransform`).
///
/// A class over a `FrameStack`, like the converter's other scratch stacks, and for the same reason: a push and a
/// pop happen for every member and element converted, and an array would check that its buffer is uniquely
/// referenced (a runtime call) on each. One converter uses a path at a time (they are pooled with the frame
/// stacks), and nothing copies one.
final class InputPath {
    enum Segment {
        case key(document: Int, token: Int)
        case literal([UInt8])
        case index(Int)
        case reset(String)
    }

    /// What the stack holds: plain values only, so pushing and truncating copy no references. Literal keys and
    /// reset pointers live in side tables, which only grow (they are rare: keys of absent values, renamed keys).
    private enum Stored {
        case key(document: Int, token: Int)
        case literal(Int)
        case index(Int)
        case reset(Int)
    }

    private let segments = FrameStack<Stored>(capacity: 32)
    @exclusivity(unchecked) private var literals: [[UInt8]] = []
    @exclusivity(unchecked) private var resets: [String] = []

    func push(_ segment: Segment) {
        switch segment {
        case .key(let document, let token): segments.append(.key(document: document, token: token))
        case .index(let i): segments.append(.index(i))
        case .literal(let key):
            literals.append(key)
            segments.append(.literal(literals.count - 1))
        case .reset(let pointer):
            resets.append(pointer)
            segments.append(.reset(resets.count - 1))
        }
    }

    func pop() {
        precondition(segments.top > 0, "InputPath.pop on an empty path")
        segments.pop(to: segments.top - 1)
    }

    var depth: Int { segments.top }

    /// The most segments the path holds without growing.
    var capacity: Int { segments.capacity }

    /// Empties the path, keeping the stack's capacity for the next conversion (the side tables are dropped).
    func removeAll() {
        segments.pop(to: 0)
        literals = []
        resets = []
    }

    func truncate(to depth: Int) { segments.pop(to: depth) }

    /// The pointer of the first `depth` segments.
    func render(_ documents: DocumentStack, depth: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(documents, depth: depth, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Renders the pointer, resolving key tokens through `documents` (raw key bytes unless a key has escapes).
    func render(_ documents: DocumentStack) -> String { render(documents, depth: depth) }

    /// Appends the path in coded form and returns true when every segment is a key of the input (document 0) or
    /// an index: one word per segment, a key as its token's index times two, an index as twice it plus one.
    /// Otherwise (a renamed key, an absent one, a rebuilt document) appends nothing and returns false.
    ///
    /// Two coded paths are equal exactly when their segments are. Within objects without repeated keys, that
    /// is exactly when their pointers are: segments that differ first at a key name different members of one
    /// object, and at an index different elements of one array (the segments before them, being equal, lead to
    /// the same container, so a key cannot meet an index there). `Diagnostics.deferPointers` says why the paths
    /// it codes never run through an object with a repeated key.
    func writeCoded(into out: inout [UInt8]) -> Bool {
        let count = segments.top
        guard count > 0 else { return true }
        // The words are made on the stack in one pass and appended in one copy; a closure that wrote them into
        // `out` would hold a reference to the segments (a retain and a release per warning).
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { words in
            for index in 0..<count {
                switch segments[index] {
                case .key(let document, let token) where document == 0: words[index] = UInt64(token) &* 2
                case .index(let i): words[index] = UInt64(i) &* 2 &+ 1
                default: return false
                }
            }
            out.append(bytes: UnsafeRawBufferPointer(words))
            return true
        }
    }

    /// Appends the pointer of a path in coded form (`writeCoded`), its keys read from `document` (the input).
    static func writePointer(
        coded: UnsafeRawBufferPointer, in document: DocumentStack.Document,
        into out: inout [UInt8]
    ) {
        for offset in stride(from: 0, to: coded.count, by: 8) {
            let word = coded.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            out.append(UInt8(ascii: "/"))
            if word & 1 == 1 {
                out.append(decimal: Int(word >> 1))
                continue
            }
            appendKey(document.tokens[Int(word >> 1)], of: document, to: &out)
        }
    }

    /// Appends a key token as a pointer's reference token: its decoded bytes, escaped (the raw bytes unless the key
    /// has escapes).
    private static func appendKey(_ key: JSONToken, of document: DocumentStack.Document, to out: inout [UInt8]) {
        guard key.hasEscapes else {
            JSONPointer.appendEscaped(UnsafeRawBufferPointer(rebasing: document.bytes[key.start..<key.end]), to: &out)
            return
        }
        JSONStrings.decoded(key, in: document.bytes).withUnsafeBytes { JSONPointer.appendEscaped($0, to: &out) }
    }

    /// Appends the pointer (and then `extra` as one more token) to `out`.
    func write(_ documents: DocumentStack, appending extra: [UInt8]? = nil, into out: inout [UInt8]) {
        write(documents, depth: depth, appending: extra, into: &out)
    }

    /// Appends the pointer of the first `depth` segments (and then `extra` as one more token) to `out`.
    func write(_ documents: DocumentStack, depth: Int, appending extra: [UInt8]? = nil, into out: inout [UInt8]) {
        var start = min(depth, segments.top)
        let end = start
        while start > 0 {
            start -= 1
            if case .reset = segments[start] { break }
        }
        for index in start..<end {
            switch segments[index] {
            case .reset(let pointer):
                out.append(utf8: resets[pointer])  // only the first segment of the loop can be a reset
            case .index(let i):
                out.append(UInt8(ascii: "/"))
                FloatFormatting.writeInteger(Int128(i), into: &out)
            case .literal(let key):
                out.append(UInt8(ascii: "/"))
                literals[key].withUnsafeBytes { JSONPointer.appendEscaped($0, to: &out) }
            case .key(let index, let token):
                out.append(UInt8(ascii: "/"))
                let document = documents[index]
                Self.appendKey(document.tokens[token], of: document, to: &out)
            }
        }
        if let extra {
            out.append(UInt8(ascii: "/"))
            extra.withUnsafeBytes { JSONPointer.appendEscaped($0, to: &out) }
        }
    }
}

/// Handed from converter to converter through a locked pool with the frame stacks, never used by two at once.
extension InputPath: @unchecked Sendable {}
