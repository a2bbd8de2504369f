// SPDX-License-Identifier: Apache-2.0

/// A converter's scratch stack of per-object frames (key slots, hold flags, unread keys). Each object pushes a
/// frame on entry and pops it on exit, and nested objects push theirs on top.
///
/// The storage only grows: popping moves `top` back and leaves the elements in place, and pushing overwrites them.
/// So a frame costs one fill and no change of the array's count (an array's `removeLast(_:)` and
/// `append(repeating:count:)` were each about 100 instructions, paid three times per object).
struct FrameStack<Element: BitwiseCopyable> {
    private var storage: [Element] = []
    /// Elements below `top` are in use; those above it are left over from popped frames.
    private(set) var top = 0

    /// Pushes `count` elements set to `value`; returns the frame's first index (pass it to `pop(to:)`).
    @inline(__always)
    mutating func push(_ count: Int, filledWith value: Element) -> Int {
        let base = top
        let end = base + count
        // Leftovers from popped frames are overwritten; any room still missing is appended already filled.
        let reused = min(end, storage.count) - base
        if reused > 0 {
            storage.withUnsafeMutableBufferPointer { buffer in
                (buffer.baseAddress! + base).update(repeating: value, count: reused)
            }
        }
        if storage.count < end { storage.append(repeating: value, count: end - storage.count) }
        top = end
        return base
    }

    /// Pushes one element.
    @inline(__always)
    mutating func append(_ value: Element) {
        if top < storage.count { storage[top] = value } else { storage.append(value) }
        top += 1
    }

    /// Drops every element from `base` on (the frame pushed at `base`, and any above it).
    @inline(__always)
    mutating func pop(to base: Int) {
        top = min(top, base)
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            precondition(index < top, "FrameStack index above the top")
            return storage[index]
        }
        set {
            precondition(index < top, "FrameStack index above the top")
            storage[index] = newValue
        }
    }

    /// The elements from `base` to the top.
    subscript(from base: Int) -> ArraySlice<Element> { storage[base..<top] }

    /// The elements the storage holds, in use or not.
    var capacity: Int { storage.count }
}

extension FrameStack: Sendable where Element: Sendable {}
