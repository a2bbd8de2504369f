// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// The converter's scratch stacks: a pushed frame is filled even where a popped frame left other values.
struct FrameStackTests {
    @Test func framesAreFilledOverLeftovers() {
        let stack = FrameStack<Int>()
        let outer = stack.push(3, filledWith: -1)
        #expect(outer == 0)
        stack[1] = 7
        let inner = stack.push(4, filledWith: -1)
        #expect(inner == 3)
        for i in 3..<7 { stack[i] = i }
        stack.pop(to: inner)
        #expect(stack.top == 3)
        #expect(elements(of: stack, from: 0) == [-1, 7, -1])
        // The next frame reuses the popped storage and must not see its old values, and may be larger.
        let next = stack.push(6, filledWith: -1)
        #expect(next == 3)
        #expect(elements(of: stack, from: next) == [Int](repeating: -1, count: 6))
        stack.pop(to: outer)
        #expect(stack.top == 0)
        #expect(elements(of: stack, from: 0).isEmpty)
    }

    /// The unchecked subscript, which the property loop uses within frames it holds, addresses the same elements
    /// as the checked one, including after a frame above it made the stack grow.
    @Test func uncheckedAccessAddressesTheSameElements() {
        let stack = FrameStack<Int>(capacity: 2)
        let outer = stack.push(3, filledWith: -1)
        stack[unchecked: outer + 2] = 42
        let inner = stack.push(100, filledWith: 0)  // grows the buffer
        stack[unchecked: inner + 99] = 7
        #expect(stack[outer + 2] == 42 && stack[unchecked: outer + 2] == 42 && stack[inner + 99] == 7)
        stack.pop(to: inner)
        stack[unchecked: outer] = 5
        #expect(elements(of: stack, from: outer) == [5, -1, 42])
    }

    @Test func appendsReuseAndGrow() {
        let stack = FrameStack<Int>()
        for i in 0..<5 { stack.append(i) }
        stack.pop(to: 2)
        stack.append(20)
        #expect(elements(of: stack, from: 0) == [0, 1, 20])
        for i in 0..<4 { stack.append(30 + i) }
        #expect(elements(of: stack, from: 2) == [20, 30, 31, 32, 33])
        let frame = stack.push(2, filledWith: 0)
        #expect(elements(of: stack, from: frame) == [0, 0])
        stack.pop(to: 10)  // above the top: nothing happens
        #expect(stack.top == 9)
    }

    @Test func boolFramesStartFalse() {
        let stack = FrameStack<Bool>()
        let first = stack.push(5, filledWith: true)
        stack.pop(to: first)
        let second = stack.push(8, filledWith: false)
        #expect(!elements(of: stack, from: second).contains(true))
    }

    /// Growing past the capacity keeps every element below the top, at every size on the way.
    @Test func growingKeepsTheFrames() {
        let stack = FrameStack<Int>(capacity: 1)
        var expected: [Int] = []
        for size in 1...70 {
            let frame = stack.push(size, filledWith: size)
            #expect(frame == expected.count)
            expected += [Int](repeating: size, count: size)
            stack[frame] = -size
            expected[frame] = -size
        }
        for i in 0..<40 { stack.append(1_000 + i) }
        expected += (0..<40).map { 1_000 + $0 }
        #expect(stack.top == expected.count)
        #expect(elements(of: stack, from: 0) == expected)
        #expect(stack.capacity >= expected.count)
    }

    /// The elements from `base` to the top.
    private func elements<Element>(of stack: FrameStack<Element>, from base: Int) -> [Element] {
        (base..<stack.top).map { stack[$0] }
    }
}
