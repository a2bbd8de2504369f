// SPDX-License-Identifier: Apache-2.0

// PatternMatcher runs a `PatternProgram` over UTF-8 text by Thompson's simulation: it keeps the set of
// consuming instructions alive at the current position and advances all of them together, one code point
// at a time. An instruction enters a set at most once per position (a generation stamp per instruction marks
// membership), so each position costs O(instructions) and the whole search O(text × instructions), whatever
// the pattern's nesting. Searching "anywhere" adds the start instruction's closure again at every position.
//
// Scratch (two lists, the closure stack, the stamps) is sized by the program, taken per call from
// `withUnsafeTemporaryAllocation`, so concurrent calls on one pattern share nothing mutable.

enum PatternMatcher {
    static func matches(_ program: PatternProgram, _ text: UnsafeRawBufferPointer) -> Bool {
        let count = program.instructions.count
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * count) { lists in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { stamps in
                stamps.initialize(repeating: 0)
                return program.instructions.withUnsafeBufferPointer { code in
                    program.ranges.withUnsafeBufferPointer { ranges in
                        var simulation = Simulation(
                            code: code, ranges: ranges, stamps: stamps,
                            current: lists.baseAddress!, following: lists.baseAddress! + count,
                            stack: lists.baseAddress! + 2 * count)
                        return simulation.run(program, text)
                    }
                }
            }
        }
    }
}

extension PatternMatcher {
    private struct Simulation {
        let code: UnsafeBufferPointer<PatternProgram.Instruction>
        let ranges: UnsafeBufferPointer<UInt32>
        /// `stamps[i] == generation` ⇔ instruction `i` was already reached at the current position.
        let stamps: UnsafeMutableBufferPointer<Int>
        /// The consuming instructions alive before the current code point.
        var current: UnsafeMutablePointer<Int32>
        /// The consuming instructions alive after it, being filled.
        var following: UnsafeMutablePointer<Int32>
        /// Pending instructions of a closure; each is pushed at most once per generation.
        let stack: UnsafeMutablePointer<Int32>
        var generation = 1
        var currentCount = 0
        var followingCount = 0

        init(
            code: UnsafeBufferPointer<PatternProgram.Instruction>, ranges: UnsafeBufferPointer<UInt32>,
            stamps: UnsafeMutableBufferPointer<Int>, current: UnsafeMutablePointer<Int32>,
            following: UnsafeMutablePointer<Int32>, stack: UnsafeMutablePointer<Int32>
        ) {
            self.code = code
            self.ranges = ranges
            self.stamps = stamps
            self.current = current
            self.following = following
            self.stack = stack
        }

        mutating func run(_ program: PatternProgram, _ text: UnsafeRawBufferPointer) -> Bool {
            if addClosure(of: program.start, atStart: true, atEnd: text.isEmpty) { return true }
            swap(&current, &following)
            (currentCount, followingCount) = (followingCount, 0)
            var index = 0
            while index < text.count {
                let codePoint = Self.decode(text, at: &index)
                let atEnd = index == text.count
                generation += 1
                for slot in 0..<currentCount {
                    let instruction = code[Int(current[slot])]
                    if consumes(instruction, codePoint),
                        addClosure(of: instruction.next, atStart: false, atEnd: atEnd)
                    {
                        return true
                    }
                }
                if program.canStartLater, addClosure(of: program.start, atStart: false, atEnd: atEnd) {
                    return true
                }
                swap(&current, &following)
                (currentCount, followingCount) = (followingCount, 0)
                if currentCount == 0, !program.canStartLater { return false }
            }
            return false
        }

        /// Adds every consuming instruction reachable from `origin` without consuming to `following`;
        /// true as soon as `accept` is reachable.
        private mutating func addClosure(of origin: Int32, atStart: Bool, atEnd: Bool) -> Bool {
            var depth = 0
            push(origin, &depth)
            while depth > 0 {
                depth -= 1
                let index = stack[depth]
                let instruction = code[Int(index)]
                switch instruction.kind {
                case .codePoint, .set:
                    following[followingCount] = index
                    followingCount += 1
                case .split:
                    push(instruction.other, &depth)
                    push(instruction.next, &depth)
                case .nop:
                    push(instruction.next, &depth)
                case .assertStart:
                    if atStart { push(instruction.next, &depth) }
                case .assertEnd:
                    if atEnd { push(instruction.next, &depth) }
                case .accept:
                    return true
                }
            }
            return false
        }

        private func push(_ index: Int32, _ depth: inout Int) {
            guard stamps[Int(index)] != generation else { return }
            stamps[Int(index)] = generation
            stack[depth] = index
            depth += 1
        }

        private func consumes(_ instruction: PatternProgram.Instruction, _ codePoint: UInt32) -> Bool {
            if instruction.kind == .codePoint { return instruction.value == codePoint }
            // Binary search for the last pair whose low bound is ≤ codePoint.
            var low = Int(instruction.value)
            var high = low + Int(instruction.other)
            while low < high {
                let middle = (low + high) / 2
                if ranges[2 * middle] <= codePoint { low = middle + 1 } else { high = middle }
            }
            return low > Int(instruction.value) && codePoint <= ranges[2 * (low - 1) + 1]
        }

        /// Decodes the code point at `index` and moves past it. The text is valid UTF-8; a stray or truncated
        /// sequence (which validation rules out) decodes as U+FFFD rather than reading out of bounds.
        static func decode(_ text: UnsafeRawBufferPointer, at index: inout Int) -> UInt32 {
            let lead = UInt32(text[index])
            let length: Int
            var value: UInt32
            switch lead {
            case 0..<0x80:
                index += 1
                return lead
            case 0xC0..<0xE0: (length, value) = (2, lead & 0x1F)
            case 0xE0..<0xF0: (length, value) = (3, lead & 0x0F)
            case 0xF0..<0xF8: (length, value) = (4, lead & 0x07)
            default:
                index += 1
                return 0xFFFD
            }
            guard index + length <= text.count else {
                index = text.count
                return 0xFFFD
            }
            for offset in 1..<length {
                value = value << 6 | UInt32(text[index + offset] & 0x3F)
            }
            index += length
            return value
        }
    }
}
