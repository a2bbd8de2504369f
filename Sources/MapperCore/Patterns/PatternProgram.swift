// SPDX-License-Identifier: Apache-2.0

// PatternProgram is the Thompson NFA of a pattern, built from `PatternParser`'s postfix with a stack of
// fragments (no recursion). Each instruction either consumes one code point (`codePoint`, `set`), branches
// without consuming (`split`, `nop`, the assertions), or accepts. For `^a(b|c)*`:
//
//     0 assertStart → 1       3 codePoint c → 5        5 split → 2 | 6        (start = 0)
//     1 codePoint a → 5       2 split → 4 | 3          6 accept
//     4 codePoint b → 5
//
// While building, a fragment's unconnected exits ("holes") form a linked list threaded through the very
// fields they will later fill (`next` = slot 0, `other` = slot 1), so joining and patching never allocate.

struct PatternProgram: Sendable {
    enum Kind: UInt8, Sendable {
        case codePoint, set, split, nop, assertStart, assertEnd, accept
    }

    struct Instruction: Sendable {
        var kind: Kind
        /// The following instruction (`split`: the first branch); unused by `accept`.
        var next: Int32
        /// `split`: the second branch; `set`: the number of range pairs.
        var other: Int32
        /// `codePoint`: the code point; `set`: the index of its first (low, high) pair in `ranges`.
        var value: UInt32
    }

    /// The automaton; every `next`/`other` target is a valid index.
    let instructions: [Instruction]
    /// The sets' members as (low, high) pairs, each set's pairs sorted and disjoint.
    let ranges: [UInt32]
    /// The instruction every attempt starts from.
    let start: Int32
    /// False when no match can begin after the first position (all ways forward start with `^`), which
    /// lets a search stop as soon as its live set is empty.
    let canStartLater: Bool

    init(_ postfix: PatternParser.Output) {
        var builder = Builder()
        builder.code.reserveCapacity(postfix.stateCount)
        for op in postfix.ops { builder.apply(op) }
        let whole = builder.fragments.removeLast()
        let accept = builder.add(.accept, value: 0)
        builder.patch(whole.holes, to: accept.start)
        instructions = builder.code
        ranges = postfix.ranges
        start = whole.start
        canStartLater = Self.consumesOrAccepts(builder.code, from: whole.start)
    }

    /// Whether, at a position that is not the first, `start` reaches a consuming or accepting instruction
    /// without consuming. `$` is taken as true there, which can only widen the answer.
    private static func consumesOrAccepts(_ code: [Instruction], from start: Int32) -> Bool {
        var seen = [Bool](repeating: false, count: code.count)
        var pending = [start]
        seen[Int(start)] = true
        while let index = pending.popLast() {
            let instruction = code[Int(index)]
            var targets: [Int32] = []
            switch instruction.kind {
            case .codePoint, .set, .accept: return true
            case .assertStart: break
            case .nop, .assertEnd: targets = [instruction.next]
            case .split: targets = [instruction.next, instruction.other]
            }
            for target in targets where !seen[Int(target)] {
                seen[Int(target)] = true
                pending.append(target)
            }
        }
        return false
    }
}

// MARK: - Thompson's construction

extension PatternProgram {
    /// A list of unfilled exits, each encoded `instruction * 2 + slot`; -1 ends the list.
    private struct Holes {
        var head: Int32
        var tail: Int32
    }

    /// A partial automaton: where it starts and the exits still to be connected.
    private struct Fragment {
        var start: Int32
        var holes: Holes
    }

    private struct Builder {
        var code: [Instruction] = []
        var fragments: [Fragment] = []

        mutating func apply(_ op: PatternParser.Op) {
            switch op {
            case .codePoint(let value): fragments.append(add(.codePoint, value: value))
            case .set(let start, let count): fragments.append(add(.set, value: UInt32(start), other: count))
            case .assertStart: fragments.append(add(.assertStart, value: 0))
            case .assertEnd: fragments.append(add(.assertEnd, value: 0))
            case .empty: fragments.append(add(.nop, value: 0))
            case .concat:
                let second = fragments.removeLast()
                let first = fragments.removeLast()
                patch(first.holes, to: second.start)
                fragments.append(Fragment(start: first.start, holes: second.holes))
            case .alternate:
                let second = fragments.removeLast()
                let first = fragments.removeLast()
                let split = addSplit(first: first.start, second: second.start)
                fragments.append(Fragment(start: split, holes: join(first.holes, second.holes)))
            case .star, .plus:
                let body = fragments.removeLast()
                let split = addSplit(first: body.start, second: -1)
                patch(body.holes, to: split)
                let exit = Holes(head: split * 2 + 1, tail: split * 2 + 1)
                fragments.append(Fragment(start: op == .star ? split : body.start, holes: exit))
            case .optional:
                let body = fragments.removeLast()
                let split = addSplit(first: body.start, second: -1)
                let exit = Holes(head: split * 2 + 1, tail: split * 2 + 1)
                fragments.append(Fragment(start: split, holes: join(body.holes, exit)))
            }
        }

        /// Adds an instruction with one open exit (`next`).
        mutating func add(_ kind: Kind, value: UInt32, other: Int32 = 0) -> Fragment {
            let index = Int32(code.count)
            code.append(Instruction(kind: kind, next: -1, other: other, value: value))
            return Fragment(start: index, holes: Holes(head: index * 2, tail: index * 2))
        }

        private mutating func addSplit(first: Int32, second: Int32) -> Int32 {
            code.append(Instruction(kind: .split, next: first, other: second, value: 0))
            return Int32(code.count - 1)
        }

        private mutating func join(_ first: Holes, _ second: Holes) -> Holes {
            setSlot(first.tail, to: second.head)
            return Holes(head: first.head, tail: second.tail)
        }

        mutating func patch(_ holes: Holes, to target: Int32) {
            var hole = holes.head
            while hole >= 0 {
                let following = slot(hole)
                setSlot(hole, to: target)
                hole = following
            }
        }

        private func slot(_ hole: Int32) -> Int32 {
            let instruction = code[Int(hole >> 1)]
            return hole & 1 == 0 ? instruction.next : instruction.other
        }

        private mutating func setSlot(_ hole: Int32, to value: Int32) {
            if hole & 1 == 0 { code[Int(hole >> 1)].next = value } else { code[Int(hole >> 1)].other = value }
        }
    }
}
