// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// The pool of finished conversions' working memory (concurrent use: RegistryConcurrencyTests).
struct ScratchPoolTests {
    @Test func givesBackWhatWasKeptUpToTheLimit() {
        let pool = ScratchPool<[Int]>(limit: 2) { $0.count <= 3 }
        #expect(pool.take() == nil)
        pool.give([1])
        pool.give([1, 2, 3, 4])  // refused: too large
        pool.give([2])
        pool.give([3])  // refused: the pool is full
        #expect(pool.count == 2)
        #expect(pool.take() == [2])
        #expect(pool.take() == [1])
        #expect(pool.take() == nil)
    }

    /// A tape from the pool scans the next body as if it were new: shorter bodies leave no tokens behind.
    @Test func aPooledTapeHoldsOnlyTheNextBody() throws {
        var tape = JSONTape()
        Array(#"{"a":[1,2,3],"b":{"c":"d"}}"#.utf8).withUnsafeBytes {
            try? JSONScanner.scan($0, into: &tape, maxDepth: 8)
        }
        #expect(tape.tokens.count == 10)
        Array("[true]".utf8).withUnsafeBytes { try? JSONScanner.scan($0, into: &tape, maxDepth: 8) }
        #expect(tape.tokens.map(\.kind) == [.array, .true])
        #expect(tape.tokens.map(\.next) == [2, 2])
    }

    /// Conversions one after another on one thread reuse the pooled scratch and give the same answers as the
    /// first time, whatever size came before.
    @Test func conversionsInTurnGiveTheirOwnResults() throws {
        let snapshot = try SchemaRegistry.make(
            #"{"name":"N","properties":{"v":"int32","kids":{"type":"array","of":"N"},"s":"string"}}"#
        ).current
        let bodies = [
            #"{"v":"1","kids":[{"v":2,"kids":[{"v":3}]},{"s":"x","v":4}]}"#,
            #"{"s":"only"}"#,
            #"{"v":1,"kids":[]}"#,
        ]
        let first = bodies.map { snapshot.run("N", $0) }
        for _ in 0..<3 {
            for (body, expected) in zip(bodies.reversed(), first.reversed()) {
                #expect(snapshot.run("N", body) == expected)
            }
        }
        #expect(first[0].entries == ["/v coerced"])
    }

    /// A conversion whose output grows its buffer past the largest kept size gives back a new, small buffer with
    /// its frame stacks and path (the pool keeps at most eight sets, so memory kept stays bounded), and the next
    /// conversion gets its own answer.
    @Test func anOutputBufferGrownPastTheLimitIsReplacedInThePool() throws {
        let snapshot = try SchemaRegistry.make(#"{"name":"T","properties":{"s":"string"}}"#).current
        let large = String(repeating: "x", count: Converter.largestKeptOutput + 1_000)
        #expect(
            snapshot.run("T", #"{"s":"\#(large)"}"#) == Outcome(status: 200, body: #"{"s":"\#(large)"}"#, entries: []))
        // The next converter on this thread takes the set just given back (the pool hands out its last one).
        let converter = Converter(
            snapshot: snapshot, options: ConversionOptions(),
            input: UnsafeRawBufferPointer(start: nil, count: 0),
            tokens: UnsafeBufferPointer(start: nil, count: 0), outputCapacity: 16)
        #expect(converter.out.capacity <= Converter.largestKeptOutput)
        converter.recycleScratch()
        #expect(snapshot.run("T", #"{"s":"y"}"#) == Outcome(status: 200, body: #"{"s":"y"}"#, entries: []))
    }
}
