// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

/// A connection's unread input: consuming moves nothing, a body is handed over in place, and consumed bytes do
/// not pile up.
@Suite struct PendingInputTests {
    static func input(_ text: String) -> PendingInput {
        var input = PendingInput()
        Array(text.utf8).withUnsafeBytes { input.append($0) }
        return input
    }

    func unread(_ input: PendingInput) -> String {
        input.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    func address(_ input: PendingInput) -> UnsafeRawPointer? {
        input.withUnsafeBytes { $0.baseAddress }
    }

    @Test func aTakenBodyIsTheReceivedBytesThemselves() throws {
        var input = Self.input("HEAD|body|next")
        input.consume(5)
        let before = try #require(address(input))
        let body = input.take(4)
        #expect(String(decoding: body, as: UTF8.self) == "body")
        #expect(body.withUnsafeBytes { $0.baseAddress } == before, "handed over without a copy")
        #expect(unread(input) == "|next", "the bytes after the body stay unread")
    }

    @Test func takingEverythingLeavesNothingHeld() {
        var input = Self.input("HEADbody")
        input.consume(4)
        #expect(input.take(4) == ArraySlice("body".utf8))
        #expect(input.isEmpty)
        #expect(input.heldCount == 0, "the storage went with the body")
        #expect(input.take(0).isEmpty)
    }

    @Test func consumingEverythingEmptiesTheStorage() {
        var input = Self.input("GET")
        input.consume(2)
        #expect(input.heldCount == 3, "a partial consume moves nothing")
        input.consume(1)
        #expect(input.isEmpty)
        #expect(input.heldCount == 0)
    }

    @Test func theConsumedPrefixIsDroppedWhenBytesArrive() {
        var input = Self.input("donepartial")
        input.consume(4)
        Array("+more".utf8).withUnsafeBytes { input.append($0) }
        #expect(unread(input) == "partial+more")
        #expect(input.heldCount == input.count, "consumed bytes do not pile up")
    }

    @Test func aBodyGatheredInPlaceKeepsItsPrefix() {
        var input = Self.input("HEADbo")
        input.consume(4)
        Array("dy".utf8).withUnsafeBytes { input.append($0, keepingPrefix: true) }
        #expect(input.heldCount == 8, "the consumed head stays in front: the body's first bytes did not move")
        #expect(input.take(4) == ArraySlice("body".utf8))
    }

    @Test func piecesAreCopiedAndConsumed() {
        var input = Self.input("abcdef")
        #expect(input.copy(2) == Array("ab".utf8))
        #expect(unread(input) == "cdef")
        #expect(!input.isLineEnding)
        #expect(Self.input("\r\n").isLineEnding)
    }
}
