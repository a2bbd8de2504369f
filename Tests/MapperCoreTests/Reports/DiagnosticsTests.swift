// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// The report collector: entries kept as bytes, made into strings on read, identical entries kept once.
struct DiagnosticsTests {
    @Test func entriesReadBackAsRecordedInOrder() {
        var diagnostics = Diagnostics(strict: false)
        diagnostics.record("/a", .coerced, "string \"1\" converted to int8 1", isError: false)
        diagnostics.record("/b/~1c", .missingRequired, "c is required", isError: true)
        diagnostics.record("", .ruleFailed, "caf\u{e9} \u{1F600}", isError: true)
        #expect(diagnostics.count == 3)
        #expect(diagnostics.errorCount == 2)
        #expect(diagnostics.codes == [.coerced, .missingRequired, .ruleFailed])
        #expect(
            diagnostics.entries == [
                Diagnostic(path: "/a", code: .coerced, message: "string \"1\" converted to int8 1", isError: false),
                Diagnostic(path: "/b/~1c", code: .missingRequired, message: "c is required", isError: true),
                Diagnostic(path: "", code: .ruleFailed, message: "caf\u{e9} \u{1F600}", isError: true),
            ])
    }

    @Test func warningsAreErrorsInStrictMode() {
        var diagnostics = Diagnostics(strict: true)
        diagnostics.warn("/x", Issue(code: .coerced, message: "m"))
        #expect(diagnostics.entries == [Diagnostic(path: "/x", code: .coerced, message: "m", isError: true)])
        #expect(diagnostics.errorCount == 1)
    }

    /// Only an entry equal in every part is a repeat. The boundary between path and message counts: `/ab` + `c`
    /// is not `/a` + `bc`.
    @Test func identicalEntriesAreKeptOnce() {
        var diagnostics = Diagnostics(strict: false)
        let recorded: [(String, DiagnosticCode, String, Bool)] = [
            ("/a", .coerced, "m", false),
            ("/a", .coerced, "m", false),  // repeat
            ("/a", .coerced, "n", false),
            ("/a", .outOfRange, "m", false),
            ("/a", .coerced, "m", true),
            ("/ab", .coerced, "c", false),
            ("/a", .coerced, "bc", false),
            ("/ab", .coerced, "c", false),  // repeat
        ]
        for (path, code, message, isError) in recorded { diagnostics.record(path, code, message, isError: isError) }
        #expect(
            diagnostics.entries.map { "\($0.path) \($0.code.rawValue) \($0.message) \($0.isError)" } == [
                "/a coerced m false", "/a coerced n false", "/a out_of_range m false", "/a coerced m true",
                "/ab coerced c false", "/a coerced bc false",
            ])
        #expect(diagnostics.errorCount == 1)
    }

    /// Identical means the same bytes: no Unicode normalisation (docs/semantics.md, "Bytes"), so a precomposed `é` and
    /// `e` + U+0301 are two paths, as they are two keys.
    @Test func unicodeEquivalentPathsAreDifferentEntries() {
        var diagnostics = Diagnostics(strict: false)
        diagnostics.record("/caf\u{e9}", .coerced, "m", isError: false)
        diagnostics.record("/cafe\u{301}", .coerced, "m", isError: false)
        diagnostics.record("/caf\u{e9}", .coerced, "m", isError: false)
        #expect(
            diagnostics.entries.map { Array($0.path.utf8) } == [Array("/caf\u{e9}".utf8), Array("/cafe\u{301}".utf8)])
    }

    /// A path is written from its last `reset` segment on, after the entries already in the buffer.
    @Test func pathsAreWrittenFromTheirLastReset() {
        withNoDocument { documents in
            var diagnostics = Diagnostics(strict: false)
            diagnostics.record("/first", .coerced, "one", isError: false)
            let path = InputPath()
            path.push(.index(3))
            path.push(.reset("/a~1b"))
            path.push(.literal(Array("c/d~".utf8)))
            path.push(.index(7))
            diagnostics.record(
                .outOfRange, "two", isError: false, at: path, in: documents,
                appending: Array("x".utf8))
            path.truncate(to: 1)
            diagnostics.record(.outOfRange, "three", isError: true, at: path, in: documents)
            #expect(
                diagnostics.entries.map { "\($0.path) \($0.message)" } == [
                    "/first one", "/a~1b/c~1d~0/7/x two", "/3 three",
                ])
        }
    }

    /// A path handed to the next conversion (the converter's scratch pool) starts empty, side tables included,
    /// and keeps its stack's capacity.
    @Test func emptiedPathKeepsItsCapacityOnly() {
        withNoDocument { documents in
            let path = InputPath()
            for i in 0..<20 { path.push(.index(i)) }
            path.push(.reset("/renamed"))
            path.push(.literal(Array("absent".utf8)))
            let capacity = path.capacity
            path.removeAll()
            #expect(path.depth == 0)
            #expect(path.capacity == capacity)
            #expect(path.render(documents) == "")
            path.push(.literal(Array("k".utf8)))
            path.push(.index(2))
            #expect(path.render(documents) == "/k/2")
        }
    }

    /// Runs `body` with the documents of an empty input: paths made of literal, index and reset segments only.
    private func withNoDocument(_ body: (DocumentStack) -> Void) {
        let bytes: [UInt8] = []
        let tokens: [JSONToken] = []
        bytes.withUnsafeBytes { raw in
            tokens.withUnsafeBufferPointer { tokens in body(DocumentStack(input: raw, tokens: tokens)) }
        }
    }

    /// Repeats are found through a table that doubles as entries arrive (64, 128, … slots): every entry must stay
    /// findable across each growth, and a collector emptied for the next batch element must find none of the old
    /// ones.
    @Test func repeatsAreFoundAsTheTableGrows() {
        var diagnostics = Diagnostics(strict: false)
        for round in 0..<2 {
            for i in 0..<600 { diagnostics.record("/\(i)", .coerced, "m\(i % 7)", isError: i % 2 == 0) }
            #expect(diagnostics.count == 600, "round \(round)")
        }
        diagnostics.record("/599", .coerced, "another", isError: false)
        #expect(diagnostics.count == 601)
        #expect(diagnostics.errorCount == 300)
        #expect(diagnostics.entries[599] == Diagnostic(path: "/599", code: .coerced, message: "m4", isError: false))

        diagnostics.removeAll()
        #expect(diagnostics.isEmpty && diagnostics.errorCount == 0)
        for i in [5, 1, 5, 598, 1] { diagnostics.record("/\(i)", .coerced, "m\(i % 7)", isError: i % 2 == 0) }
        #expect(diagnostics.entries.map(\.path) == ["/5", "/1", "/598"])
        #expect(diagnostics.errorCount == 1)
    }

    /// Probes wrap past the table's end: `/73`, `/112` and `/219` have the last of 64 slots as their first, and
    /// `/219` and `/376` the last of 128 (after the growth at 33 entries). Found by trying paths against
    /// `Entries.home`; if the fingerprint changes, pick new ones the same way.
    @Test func probesWrapPastTheTablesEnd() {
        var diagnostics = Diagnostics(strict: false)
        let paths = [73, 112, 219, 376] + Array(0..<29)
        for _ in 0..<2 {
            for round in 0..<2 {
                for i in paths { diagnostics.record("/\(i)", .coerced, "m", isError: false) }
                #expect(diagnostics.count == 33, "round \(round)")
            }
            diagnostics.removeAll()
        }
    }

    @Test func appendPrefixesPathsAndDropsRepeats() {
        var element = Diagnostics(strict: false)
        element.record("/uid", .coerced, "m", isError: false)
        element.record("", .missingRequired, "uid is required", isError: true)
        var all = Diagnostics(strict: false)
        all.record("/0/uid", .coerced, "m", isError: false)
        all.append(element, prefix: "/0")
        all.append(element, prefix: "/a~1b")
        #expect(
            all.entries.map { "\($0.path) \($0.code.rawValue)" } == [
                "/0/uid coerced", "/0 missing_required", "/a~1b/uid coerced", "/a~1b missing_required",
            ])
        #expect(all.errorCount == 2)
    }

    /// The buffers are shared by copies until one of them records: each copy keeps exactly its own entries (a
    /// `Run` or a `Converted` holds a copy while a batch's converter goes on recording).
    @Test func copiesKeepTheirOwnEntries() {
        var original = Diagnostics(strict: false)
        let empty = original
        original.record("/a", .coerced, "m", isError: false)
        var copy = original
        copy.record("/b", .outOfRange, "n", isError: true)
        original.record("/c", .coerced, "o", isError: false)
        #expect(empty.isEmpty && empty.entries.isEmpty && empty.codes.isEmpty)
        #expect(original.entries.map(\.path) == ["/a", "/c"])
        #expect(original.errorCount == 0)
        #expect(copy.entries.map(\.path) == ["/a", "/b"])
        #expect(copy.errorCount == 1)
    }

    /// `removeAll` (a batch's next element) empties this collector only: a copy taken before keeps its entries,
    /// and repeats are judged against the new entries alone.
    @Test func removeAllLeavesCopiesAlone() {
        var diagnostics = Diagnostics(strict: false)
        diagnostics.record("/a", .coerced, "m", isError: true)
        let kept = diagnostics
        diagnostics.removeAll()
        #expect(diagnostics.isEmpty && diagnostics.errorCount == 0)
        #expect(kept.entries.map(\.path) == ["/a"] && kept.errorCount == 1)
        diagnostics.record("/a", .coerced, "m", isError: true)
        diagnostics.removeAll()  // unshared now: cleared in place
        diagnostics.record("/a", .coerced, "m", isError: true)
        diagnostics.record("/a", .coerced, "m", isError: true)
        #expect(diagnostics.entries.map(\.path) == ["/a"] && diagnostics.errorCount == 1)
        #expect(kept.entries.map(\.path) == ["/a"])
    }
}
