// SPDX-License-Identifier: Apache-2.0

/// A read-only map from key bytes to small integer ids, built once per model.
///
/// Keys live back to back in one arena; an open-addressing table of FNV-1a hashes points at them. Looking up an
/// input key hashes and compares its bytes in place: no `String`, no allocation.
///
///     keys ["login", "id"]  →  arena "loginid", entries [(0, 5), (5, 2)], table [-1, 1, -1, 0, …]
struct KeyIndex: Sendable {
    /// All keys' bytes, concatenated in id order.
    private let arena: [UInt8]
    /// `(offset, length)` of key `id` in `arena`.
    private let entries: [(offset: Int, length: Int)]
    /// Open-addressing slots holding an id, or -1; the count is a power of two at least twice the key count.
    private let table: [Int32]

    var count: Int { entries.count }

    /// Builds the index; `keys` must be distinct, and key `i` gets id `i`.
    init(_ keys: [[UInt8]]) {
        var arena: [UInt8] = []
        var entries: [(Int, Int)] = []
        for key in keys {
            entries.append((arena.count, key.count))
            arena.append(contentsOf: key)
        }
        var size = 8
        while size < keys.count * 2 { size *= 2 }
        var table = [Int32](repeating: -1, count: size)
        for (id, key) in keys.enumerated() {
            var slot = key.withUnsafeBytes { KeyIndex.hash($0) } & (size - 1)
            while table[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            table[slot] = Int32(id)
        }
        self.arena = arena
        self.entries = entries
        self.table = table
    }

    /// The id of `key`, or nil.
    func id(of key: UnsafeRawBufferPointer) -> Int? {
        let mask = table.count - 1
        var slot = KeyIndex.hash(key) & mask
        return arena.withUnsafeBytes { arena in
            while true {
                let id = Int(table[slot])
                if id < 0 { return nil }
                let entry = entries[id]
                if entry.length == key.count,
                    key.count == 0 || memcmpEqual(arena.baseAddress! + entry.offset, key.baseAddress!, key.count)
                {
                    return id
                }
                slot = (slot + 1) & mask
            }
        }
    }

    func id(of key: [UInt8]) -> Int? { key.withUnsafeBytes { id(of: $0) } }

    func key(_ id: Int) -> ArraySlice<UInt8> {
        let entry = entries[id]
        return arena[entry.offset..<entry.offset + entry.length]
    }

    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}

@inline(__always)
func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    var i = 0
    while i + 8 <= count {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
            return false
        }
        i += 8
    }
    while i < count {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}
