// SPDX-License-Identifier: Apache-2.0

/// A key in YYModel's key syntax, split once at registration.
///
/// `"a.b.c"` → `["a", "b", "c"]` (a key path that walks nested objects); `"id"` → `["id"]`; `".ext"` and `"a."` have
/// fewer than two non-empty components, so they stay the literal keys `[".ext"]` and `["a."]`.
struct MappedKey: Sendable, Hashable, CustomStringConvertible {
    /// The components as UTF-8 bytes, compared byte for byte with decoded input keys.
    let components: [[UInt8]]
    /// The key exactly as written in the schema.
    let source: String

    init(_ source: String) {
        self.source = source
        let parts = source.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: true)
        components = parts.count >= 2 ? parts.map { Array($0) } : [Array(source.utf8)]
    }

    /// A key that is never split (a property name read in model form).
    init(literal: String) {
        source = literal
        components = [Array(literal.utf8)]
    }

    var isPath: Bool { components.count > 1 }
    var description: String { source }

    /// The RFC 6901 pointer of this key below `prefix` (`/a/b~1c`).
    func pointer(under prefix: String = "") -> String {
        components.reduce(prefix) { $0 + "/" + JSONPointer.escape($1) }
    }
}
