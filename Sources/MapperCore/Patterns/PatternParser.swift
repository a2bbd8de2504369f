// SPDX-License-Identifier: Apache-2.0

// PatternParser reads a pattern's source (as Unicode scalars) and writes it in postfix form, the input of
// Thompson's construction in `PatternProgram`. It never recurses: every open group is a `Frame` on an explicit
// stack, so a source of 100,000 `(` costs memory, not the thread's stack.
//
//     source   a(?:b|c)*d        ops   a  b  c  |  *  ·  d  ·        (· = .concat)
//
// A term (atom plus quantifier) is always a contiguous run at the end of `ops` when its quantifier is read:
// the `.concat` joining it to the previous term is written only after the quantifier. That makes counted
// repetition a copy of that run (`x{2,3}` → `x x · x ? ·`), and the 10,000-state limit is checked on every
// write, so `(a{1000}){1000}` stops after the first few copies instead of expanding a million states.
// Errors carry the offset of the construct, in Unicode scalars.

struct PatternParser {
    /// One postfix operation. Every case except `.concat` becomes one NFA instruction.
    enum Op: Equatable {
        case codePoint(UInt32)
        /// A set stored in `ranges` as `count` (low, high) pairs from pair index `start`.
        case set(start: Int32, count: Int32)
        case assertStart, assertEnd, empty
        case concat, alternate, star, plus, optional
    }

    /// What the parser hands to `PatternProgram`.
    struct Output {
        /// The pattern in postfix form; it describes exactly one expression.
        var ops: [Op]
        /// The sets' ranges as flattened (low, high) pairs, each set sorted and merged.
        var ranges: [UInt32]
        /// The number of NFA instructions `ops` compiles to, the final `accept` included.
        var stateCount: Int
    }

    /// The most NFA instructions a pattern may compile to (docs/schema.md, "Constraints").
    static let stateLimit = 10_000
    /// The largest `n` or `m` in `{n}`, `{n,}`, `{n,m}` (docs/schema.md, "Constraints").
    static let repeatLimit = 1_000

    /// An open group (or the whole pattern, at the bottom of the stack).
    private struct Frame {
        /// Index in `ops` where the group's expression begins.
        var start: Int
        /// Offset of the `(`, for "never closed".
        var openOffset: Int
        /// Terms written so far in the current alternative.
        var terms = 0
        /// `|` seen so far in this group.
        var bars = 0
    }

    let scalars: [Unicode.Scalar]
    var position = 0
    private(set) var ops: [Op] = []
    private(set) var ranges: [UInt32] = []
    private(set) var stateCount = 1
    private var frames: [Frame] = [Frame(start: 0, openOffset: 0)]

    init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    mutating func parse() throws(PatternError) -> Output {
        while position < scalars.count {
            let offset = position
            let scalar = scalars[position]
            switch scalar {
            case "|":
                try endAlternative(at: offset)
                frames[frames.count - 1].bars += 1
                frames[frames.count - 1].terms = 0
                position += 1
            case "(":
                try openGroup()
            case ")":
                guard frames.count > 1 else { throw fail("The ')' has no matching '('.", at: offset) }
                try endAlternative(at: offset)
                let group = frames.removeLast()
                position += 1
                try finishAtom(startingAt: group.start)
            case "^", "$":
                try emit(scalar == "^" ? .assertStart : .assertEnd, at: offset)
                position += 1
                finishTerm()
            case "*", "+", "?":
                throw fail("The quantifier '\(scalar)' has nothing to repeat.", at: offset)
            case "{":
                if scanBraces(at: offset) != nil {
                    throw fail("The quantifier '{' has nothing to repeat.", at: offset)
                }
                throw loneBrace(at: offset)
            case "}":
                throw fail("A literal '}' must be escaped as '\\}'.", at: offset)
            case "]":
                throw fail("A literal ']' must be escaped as '\\]'.", at: offset)
            case ".":
                position += 1
                try emitAtom(.set(.dot), at: offset)
            case "[":
                try emitAtom(.set(try parseClass()), at: offset)
            case "\\":
                try emitAtom(try parseEscape(inClass: false), at: offset)
            default:
                position += 1
                try emitAtom(.codePoint(scalar.value), at: offset)
            }
        }
        try endAlternative(at: position)
        if frames.count > 1 {
            throw fail("The group opened here is never closed.", at: frames[frames.count - 1].openOffset)
        }
        return Output(ops: ops, ranges: ranges, stateCount: stateCount)
    }

    func fail(_ message: String, at offset: Int) -> PatternError {
        PatternError(offset: offset, message: message)
    }

    // MARK: - Groups and sequences

    private mutating func openGroup() throws(PatternError) {
        let offset = position
        if position + 1 < scalars.count, scalars[position + 1] == "?" {
            let next = scalar(at: position + 2)
            switch next {
            case ":":
                position += 3
            case "=", "!":
                throw fail("Lookahead assertions (?= and (?! are not supported.", at: offset)
            case "<" where scalar(at: position + 3) == "=" || scalar(at: position + 3) == "!":
                throw fail("Lookbehind assertions (?<= and (?<! are not supported.", at: offset)
            case "<", "P":
                throw fail("Named groups (?<name>…) are not supported; use (…) or (?:…).", at: offset)
            case let letter? where letter == "-" || letter.properties.isAlphabetic:
                throw fail("Inline flags and modifiers such as (?i) are not supported.", at: offset)
            default:
                throw fail("'(?' must be followed by ':'; the only group forms are (…) and (?:…).", at: offset)
            }
        } else {
            position += 1
        }
        frames.append(Frame(start: ops.count, openOffset: offset))
    }

    func scalar(at index: Int) -> Unicode.Scalar? {
        index < scalars.count ? scalars[index] : nil
    }

    /// Closes the current alternative: an empty one matches the empty string; a later one joins the earlier.
    private mutating func endAlternative(at offset: Int) throws(PatternError) {
        let frame = frames[frames.count - 1]
        if frame.terms == 0 { try emit(.empty, at: offset) }
        if frame.bars > 0 { try emit(.alternate, at: offset) }
    }

    /// Writes an atom, then its quantifier if one follows, then joins it to the sequence.
    private mutating func emitAtom(_ atom: Atom, at offset: Int) throws(PatternError) {
        let start = ops.count
        switch atom {
        case .codePoint(let value):
            try emit(.codePoint(value), at: offset)
        case .set(let set):
            let normalized = set.normalized()
            let pairStart = Int32(ranges.count / 2)
            for range in normalized.ranges {
                ranges.append(range.lowerBound)
                ranges.append(range.upperBound)
            }
            try emit(.set(start: pairStart, count: Int32(normalized.ranges.count)), at: offset)
        }
        try finishAtom(startingAt: start)
    }

    private mutating func finishAtom(startingAt start: Int) throws(PatternError) {
        try parseQuantifier(applyingTo: start)
        finishTerm()
    }

    private mutating func finishTerm() {
        frames[frames.count - 1].terms += 1
        if frames[frames.count - 1].terms > 1 { ops.append(.concat) }
    }

    /// Appends one operation, enforcing the state limit as it goes.
    mutating func emit(_ op: Op, at offset: Int) throws(PatternError) {
        if op != .concat {
            stateCount += 1
            if stateCount > Self.stateLimit {
                throw fail("The pattern compiles to more than 10,000 states.", at: offset)
            }
        }
        ops.append(op)
    }

    /// Removes the run `ops[start...]`, returning it and giving back its states.
    mutating func takeOps(from start: Int) -> [Op] {
        let run = Array(ops[start...])
        ops.removeSubrange(start...)
        stateCount -= run.count(where: { $0 != .concat })
        return run
    }
}

extension PatternParser {
    /// A single-position item: one code point or a set of them.
    enum Atom {
        case codePoint(UInt32)
        case set(PatternCharacterSet)
    }
}
