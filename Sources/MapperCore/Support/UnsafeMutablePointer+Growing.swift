// SPDX-License-Identifier: Apache-2.0

extension UnsafeMutablePointer where Pointee: BitwiseCopyable {
    /// Memory for at least `needed` elements (and at least twice `capacity`) holding a copy of the first `count`
    /// here, which is freed: the growth step of the buffers that manage their own memory (`FrameStack`,
    /// `OutputBuffer`).
    func grown(keeping count: Int, capacity: Int, toHold needed: Int) -> (base: Self, capacity: Int) {
        let grown = Swift.max(needed, capacity * 2)
        let larger = Self.allocate(capacity: grown)
        larger.initialize(from: self, count: count)
        deallocate()
        return (larger, grown)
    }
}
