// SPDX-License-Identifier: Apache-2.0

/// A converter's scratch stack of per-object frames (key slots, hold flags, unread keys). Each object pushes a
/// frame on entry and pops it on exit, and nested objects push theirs on top.
///
/// A class over one buffer it manages itself, so that reading or writing an element is one load or store: an
/// array checks that its buffer is uniquely referenced before every write (a runtime call), which cost about a
/// tenth of a small object's conversion. A stack belongs to one converter at a time — converters hand them on
/// through `ScratchPool` when they finish — so it needs neither a lock nor copy-on-write. The buffer only grows:
/// popping moves `top` back, and pushing fills the frame again.
final class FrameStack<Element: BitwiseCopyable> {
    /// `capacity` elements, of which those below `top` are in use.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private(set) var capacity: Int
    @exclusivity(unchecked) private(set) var top = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Makes room for `count` elements, keeping those below the top.
    private func reserve(_ count: Int) {
        guard count > capacity else { return }
        (storage, capacity) = storage.grown(keeping: top, capacity: capacity, toHold: count)
    }

    /// Pushes `count` elements set to `value`; returns the frame's first index (pass it to `pop(to:)`).
    @inline(__always)
    func push(_ count: Int, filledWith value: Element) -> Int {
        let base = top
        if base + count > capacity { reserve(base + count) }
        (storage + base).initialize(repeating: value, count: count)
        top = base + count
        return base
    }

    /// Pushes one element.
    @inline(__always)
    func append(_ value: Element) {
        if top == capacity { reserve(top + 1) }
        (storage + top).initialize(to: value)
        top += 1
    }

    /// Drops every element from `base` on (the frame pushed at `base`, and any above it).
    @inline(__always)
    func pop(to base: Int) {
        top = min(top, base)
    }

    /// An element of a frame that stays pushed while the caller uses it, at an offset the frame's own size bounds
    /// by construction (a key id below the key count the frame was pushed with, say): read and written without
    /// the check against `top`, a load and a branch per access in the property loop. Debug builds, where every
    /// test runs, still check it against `top` (the same bound at those sites, whose frames are on top).
    @inline(__always)
    subscript(unchecked index: Int) -> Element {
        unsafeAddress {
            assert(holds(index), "FrameStack index outside the frames")
            return UnsafePointer(storage + index)
        }
        unsafeMutableAddress {
            assert(holds(index), "FrameStack index outside the frames")
            return storage + index
        }
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            precondition(holds(index), "FrameStack index outside the frames")
            return self[unchecked: index]
        }
        set {
            precondition(holds(index), "FrameStack index outside the frames")
            self[unchecked: index] = newValue
        }
    }

    /// Whether `index` addresses an element below the top.
    @inline(__always)
    private func holds(_ index: Int) -> Bool { index >= 0 && index < top }
}

/// Handed from converter to converter through a locked pool, never used by two at once.
extension FrameStack: @unchecked Sendable {}
