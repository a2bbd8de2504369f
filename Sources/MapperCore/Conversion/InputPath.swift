// SPDX-License-Identifier: Apache-2.0

/// The path from the input's root to the value being converted, kept as a stack of cheap segments and rendered
/// into an RFC 6901 pointer only when a diagnostic is recorded.
///
/// A key segment points at a key token of a document (no copy); `reset` replaces everything before it, used where
/// a value's input position is not where the conversion found it (a key renamed by `willTransform`).
struct InputPath {
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

    private var segments: [Stored] = []
    private var literals: [[UInt8]] = []
    private var resets: [String] = []

    mutating func push(_ segment: Segment) {
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

    mutating func pop() { segments.removeLast() }
    var depth: Int { segments.count }

    /// The most segments the path holds without growing.
    var capacity: Int { segments.capacity }

    /// Empties the path, keeping the stack's capacity for the next conversion (the side tables are dropped).
    mutating func removeAll() {
        segments.removeAll(keepingCapacity: true)
        literals = []
        resets = []
    }

    mutating func truncate(to depth: Int) {
        while segments.count > depth { segments.removeLast() }
    }

    /// The pointer of the first `depth` segments.
    func render(_ documents: DocumentStack, depth: Int) -> String {
        var prefix = self
        prefix.truncate(to: depth)
        return prefix.render(documents)
    }

    /// Renders the pointer, resolving key tokens through `documents` (raw key bytes unless a key has escapes).
    func render(_ documents: DocumentStack) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(documents, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the pointer (and then `extra` as one more token) to `out`.
    func write(_ documents: DocumentStack, appending extra: [UInt8]? = nil, into out: inout [UInt8]) {
        var start = segments.count
        while start > 0 {
            start -= 1
            if case .reset = segments[start] { break }
        }
        for segment in segments[start...] {
            switch segment {
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
                let key = document.tokens[token]
                if key.hasEscapes {
                    documents.decodedKey(index, token).withUnsafeBytes { JSONPointer.appendEscaped($0, to: &out) }
                } else {
                    JSONPointer.appendEscaped(UnsafeRawBufferPointer(rebasing: document.bytes[key.start..<key.end]),
                                              to: &out)
                }
            }
        }
        if let extra {
            out.append(UInt8(ascii: "/"))
            extra.withUnsafeBytes { JSONPointer.appendEscaped($0, to: &out) }
        }
    }
}
