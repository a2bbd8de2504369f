// SPDX-License-Identifier: Apache-2.0

/// Working memory of finished conversions, kept for the next ones: a conversion takes its tape (and a converter
/// its frame stacks) from a pool and gives them back when it ends, so their arrays are allocated once per
/// concurrent conversion rather than once per request (a measurable share of a small conversion's cost:
/// docs/performance.md, "Design decisions taken on measurements").
///
/// A pool keeps at most `limit` values, and none that `keeps` refuses (a tape grown by one huge body is freed, not
/// held for the life of the process). Taking and giving each hold a pthread mutex for a few instructions; the
/// values themselves are only ever used by the one conversion that took them.
final class ScratchPool<Value: Sendable>: Sendable {
    private let stock: Locked<[Value]>
    private let limit: Int
    private let keeps: @Sendable (Value) -> Bool

    init(limit: Int, keeps: @escaping @Sendable (Value) -> Bool) {
        stock = Locked([])
        self.limit = limit
        self.keeps = keeps
    }

    /// A kept value, or nil when there is none.
    func take() -> Value? {
        stock.withLock { $0.popLast() }
    }

    /// Keeps `value` for a later `take`, unless the pool is full or `keeps` refuses it.
    func give(_ value: consuming Value) {
        guard keeps(value) else { return }
        var value: Value? = consume value
        stock.withLock { stock in
            if stock.count < limit { stock.append(value.take()!) }
        }
    }

    /// How many values are kept (for tests).
    var count: Int { stock.withLock { $0.count } }
}
