// SPDX-License-Identifier: Apache-2.0

/// A value kept in a class, so that a struct can hold rarely used state behind one optional reference: nil until
/// first needed, so that making, copying and dropping the struct meanwhile touches no reference count, and copied
/// before a write when copies of the struct share it (`Optional.writableBox`). `Diagnostics` keeps its entries and
/// `DocumentStack` its rebuilt documents in one.
final class CopyOnWriteBox<Value>: @unchecked Sendable {
    /// Written only through a box that one holder references alone (`writableBox`), so the runtime's exclusivity
    /// checks are redundant; shared boxes are only read.
    @exclusivity(unchecked) var value: Value

    init(_ value: Value) { self.value = value }
}

extension Optional {
    /// The box to write to: made from `initial()` when there is none, and a copy when another holder shares it.
    mutating func writableBox<Value>(initial: () -> Value) -> CopyOnWriteBox<Value>
    where Wrapped == CopyOnWriteBox<Value> {
        if self == nil {
            self = CopyOnWriteBox(initial())
        } else if !isKnownUniquelyReferenced(&self) {
            self = CopyOnWriteBox(self!.value)
        }
        return self!
    }
}
