// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// A map from key bytes to small integer ids, built once per model.
///
/// Keys live back to back in one arena; an open-addressing table of hashes points at them. Looking up an input key
/// hashes and compares its bytes in place: no `String`, no allocation. A caller walking an object's keys compares
/// each first with the key after the previous one in the schema, then with the key that followed the previous one
/// in the last input that did not follow the schema's order, and hashes only when both fail.
///
///     keys ["login", "id"]  →  arena "loginid", entries [(0, 5), (5, 2)], table [-1, 1, -1, 0, …]
final class KeyIndex: Sendable {
    /// All keys' bytes, concatenated in id order.
    private let arena: [UInt8]
    /// `(offset, length)` of key `id` in `arena`.
    private let entries: [(offset: Int, length: Int)]
    /// Open-addressing slots holding an id, or -1; the count is a power of two at least twice the key count.
    private let table: [Int32]
    /// Bit `min(n, 63)` is set when some key is `n` bytes long: most unknown keys are refused by this alone.
    private let lengths: UInt64
    /// Slot `previous + 1`: the id that followed key `previous` (-1: an object's start) when an input last listed
    /// keys out of the schema's order, or -1. Clients list keys in one order of their own (`created_at` first, say,
    /// where the schema starts with `id`), so after one such object the next ones are matched without hashing.
    /// Every conversion of the model shares these hints and updates them without ordering: a stale one costs only
    /// a comparison, never a wrong id, since every hint is compared before it is used. (`nonisolated(unsafe)`: the
    /// pointer never changes, and what it points at is atomic.)
    nonisolated(unsafe) private let learned: UnsafeMutablePointer<Atomic<Int32>>

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
        lengths = keys.reduce(0) { $0 | 1 << UInt64(min($1.count, 63)) }
        learned = .allocate(capacity: keys.count + 1)
        for slot in 0...keys.count { (learned + slot).initialize(to: Atomic(-1)) }
    }

    deinit {
        learned.deinitialize(count: count + 1)
        learned.deallocate()
    }

    /// The id of `key`, or nil.
    func id(of key: UnsafeRawBufferPointer) -> Int? {
        guard lengths & 1 << UInt64(min(key.count, 63)) != 0 else { return nil }
        let mask = table.count - 1
        var slot = KeyIndex.hash(key) & mask
        while true {
            let id = Int(table[slot])
            if id < 0 { return nil }
            if holds(key, at: id) { return id }
            slot = (slot + 1) & mask
        }
    }

    /// The id of `key`, the member after one whose id was `previous` (-1 for an object's first member, or when no
    /// earlier member was a known key; `previous` must be -1 or an id of this index). Ids follow the schema's order,
    /// so an input in that order pays one comparison per key; an input in another order, once this index has seen
    /// it, two.
    @inline(__always)
    func id(of key: UnsafeRawBufferPointer, after previous: Int) -> Int? {
        let next = previous &+ 1
        if next < entries.count, holds(key, at: next) { return next }
        return id(of: key, outOfOrderAfter: previous)
    }

    /// `id(of:after:)` when the key is not the schema's next: tries the learned successor, then the hash, and
    /// learns what it finds.
    @inline(never)
    private func id(of key: UnsafeRawBufferPointer, outOfOrderAfter previous: Int) -> Int? {
        if let hint = learnedSuccessor(of: previous), holds(key, at: hint) { return hint }
        guard let id = id(of: key) else { return nil }
        learned[previous &+ 1].store(Int32(id), ordering: .relaxed)
        return id
    }

    /// The id learned to follow key `previous` (-1: an object's start), or nil.
    @inline(__always)
    func learnedSuccessor(of previous: Int) -> Int? {
        precondition(UInt(bitPattern: previous &+ 1) <= UInt(count), "KeyIndex: no such key to follow")
        let hint = Int(learned[previous &+ 1].load(ordering: .relaxed))
        return hint >= 0 ? hint : nil
    }

    /// Whether key `id` is exactly `key`.
    @inline(__always)
    private func holds(_ key: UnsafeRawBufferPointer, at id: Int) -> Bool {
        let entry = entries[id]
        guard entry.length == key.count else { return false }
        return key.isEmpty
            || arena.withUnsafeBytes { memcmpEqual($0.baseAddress! + entry.offset, key.baseAddress!, key.count) }
    }

    func id(of key: [UInt8]) -> Int? { key.withUnsafeBytes { id(of: $0) } }

    func key(_ id: Int) -> ArraySlice<UInt8> {
        let entry = entries[id]
        return arena[entry.offset..<entry.offset + entry.length]
    }

    /// Mixes the length and the first and last eight bytes (all of a shorter key): constant work per key, and keys
    /// of one model rarely agree on all three. A collision only costs a probe, never a wrong id.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if bytes.count >= 8 {
            head = bytes.loadUnaligned(as: UInt64.self)
            tail = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        } else {
            for byte in bytes { head = head << 8 | UInt64(byte) }
        }
        var h = (UInt64(bytes.count) ^ head) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ tail) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= h >> 32
        return Int(truncatingIfNeeded: h ^ (h >> 17))
    }
}

/// Whether `count` bytes at `a` and `b` are equal: eight bytes per load, and the last (partial) word read as the
/// word that ends at the last byte, overlapping the one before it, so no byte is compared one at a time unless
/// `count` is below 4.
@inline(__always)
func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    if count >= 8 {
        var i = 0
        while i + 8 < count {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            {
                return false
            }
            i += 8
        }
        return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
    if count >= 4 {
        return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
            && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    }
    var i = 0
    while i < count {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}
