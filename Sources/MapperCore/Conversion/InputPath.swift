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

    private(set) var segments: [Segment] = []

    mutating func push(_ segment: Segment) { segments.append(segment) }
    mutating func pop() { segments.removeLast() }
    var depth: Int { segments.count }
    mutating func truncate(to depth: Int) { segments.removeSubrange(depth...) }

    /// The pointer of the first `depth` segments.
    func render(_ documents: DocumentStack, depth: Int) -> String {
        var prefix = self
        prefix.truncate(to: depth)
        return prefix.render(documents)
    }

    /// Renders the pointer, resolving key tokens through `documents`.
    func render(_ documents: DocumentStack, appending extra: [UInt8]? = nil) -> String {
        var start = 0
        for (i, segment) in segments.enumerated().reversed() {
            if case .reset = segment { start = i; break }
        }
        var out = ""
        for segment in segments[start...] {
            switch segment {
            case .reset(let pointer): out = pointer
            case .index(let i): out += "/" + String(i)
            case .literal(let key): out += "/" + JSONPointer.escape(key)
            case .key(let document, let token): out += "/" + JSONPointer.escape(documents.decodedKey(document, token))
            }
        }
        if let extra { out += "/" + JSONPointer.escape(extra) }
        return out
    }
}
