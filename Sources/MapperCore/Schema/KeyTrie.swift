// SPDX-License-Identifier: Apache-2.0

/// The set of key paths a model reads, for `unknownKeys: reject`.
final class KeyTrie: Sendable {
    /// True when some reader takes the whole value here (its contents are then not checked).
    let isTerminal: Bool
    let children: [[UInt8]: KeyTrie]

    init(isTerminal: Bool, children: [[UInt8]: KeyTrie]) {
        self.isTerminal = isTerminal
        self.children = children
    }

    static func build(_ paths: [[[UInt8]]]) -> KeyTrie {
        let terminal = paths.contains { $0.isEmpty }
        var groups: [[UInt8]: [[[UInt8]]]] = [:]
        for path in paths where !path.isEmpty { groups[path[0], default: []].append(Array(path.dropFirst())) }
        return KeyTrie(isTerminal: terminal, children: groups.mapValues { build($0) })
    }
}
