// SPDX-License-Identifier: Apache-2.0

extension Unmanaged {
    /// Runs `body` with the instance, neither retained nor released around the call. The caller must keep the
    /// instance alive for the whole call some other way (a `let` of an object it holds). The converter borrows
    /// the schema objects it reads for every object and element this way: they are shared by every worker, and
    /// each retain and release is an atomic operation on them.
    ///
    /// The one place that calls the standard library's underscored `_withUnsafeGuaranteedRef`, so that a change
    /// to it touches one line.
    @inline(__always)
    func borrowed<Result>(_ body: (Instance) throws -> Result) rethrows -> Result {
        try _withUnsafeGuaranteedRef(body)
    }
}
