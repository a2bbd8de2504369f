// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// Warnings with coded paths (`ConversionOptions.keepsEntries` off, the server's setting): the count and codes of
/// a success are those of the full report, and a failure's report is complete, whatever came before its first
/// error. `produce` converts both ways and compares them too; these cases name what they reach.
struct CodedPathTests {
    static let registry = ConversionFixture.snapshot([
        #"{"name":"CP_Item","properties":{"n":"int32"}}"#,
        #"{"name":"CP_Outer","properties":{"items":{"type":"array","of":"CP_Item"},"p":"int32","#
            + #""q":{"type":"int32","key":"a/b~c"},"r":{"type":"int32","key":"x.y"},"#
            + #""d":{"type":"dictionary","of":"int32"},"req":{"type":"string","required":true}}}"#,
        // `keep` is read from the rebuilt object (a document of its own) before `new`, whose path is reset.
        #"{"name":"CP_Renamed","willTransform":{"rename":{"old":"new"}},"#
            + #""properties":{"keep":"int32","new":"int32","must":{"type":"string","required":true}}}"#,
        // One value read three times: twice with the same message, once with another.
        #"{"name":"CP_Twice","properties":{"a":{"type":"int32","key":"v"},"b":{"type":"int32","key":"v"},"#
            + #""c":{"type":"int64","key":"v"},"req":{"type":"string","required":true}}}"#,
    ])

    private func convert(_ model: String, _ input: String, keepsEntries: Bool) -> Converted? {
        var options = ConversionOptions()
        options.keepsEntries = keepsEntries
        return try? Array(input.utf8).withUnsafeBytes { try Self.registry.get().convert($0, model: model, options: options) }
            .get()
    }

    /// The first error renders every coded path before it: array indexes, an escaped key (`\u0070` is `p`), a key
    /// that needs `~1` and `~0`, a key path and a dictionary member.
    @Test func aFailureAfterCodedWarningsListsEveryPath() {
        let input = #"{"items":[{"n":"1"},{"n":"2"}],"\u0070":"3","a/b~c":"4","x":{"y":"5"},"d":{"k":"6"}}"#
        #expect(Self.registry.produce("CP_Outer", input) == Produced(
            status: 422, output: #"{"items":[{"n":1},{"n":2}],"p":3,"q":4,"r":5,"d":{"k":6}}"#,
            entries: ["/items/0/n coerced", "/items/1/n coerced", "/p coerced", "/a~1b~0c coerced", "/x/y coerced",
                      "/d/k coerced", "!/req missing_required"]))
    }

    /// Paths in a rebuilt document are not coded (their keys are not the input's): `keep` is reported at its own
    /// key, not at the input token with the same index.
    @Test func pathsInARebuiltObjectAreRenderedFromIt() {
        #expect(Self.registry.produce("CP_Renamed", #"{"keep":"2","old":"1"}"#) == Produced(
            status: 422, output: #"{"keep":2,"new":1}"#,
            entries: ["/keep coerced", "/old coerced", "!/must missing_required"]))
    }

    /// Repeats are found among coded paths by path and message: the two `int32` reads of `v` are one entry, the
    /// `int64` read another.
    @Test func aValueReadTwiceIsOneEntryPerMessage() throws {
        #expect(Self.registry.produce("CP_Twice", #"{"v":"7","req":"r"}"#) == Produced(
            status: 200, output: #"{"a":7,"b":7,"c":7,"req":"r"}"#, entries: ["/v coerced", "/v coerced"]))
        let lean = try #require(convert("CP_Twice", #"{"v":"7","req":"r"}"#, keepsEntries: false))
        #expect(lean.warnings == 2)
        #expect(lean.diagnosticCodes == [.coerced, .coerced])
        #expect(Self.registry.produce("CP_Twice", #"{"v":"7"}"#).entries
            == ["/v coerced", "/v coerced", "!/req missing_required"])
    }

    /// A warning whose path cannot be coded (here `duplicate_key`, given as a pointer) ends coding midway through
    /// a success; the count still matches the full report.
    @Test func aPointerEntryMidwayKeepsTheCountExact() throws {
        let input = #"{"items":[{"n":"1"}],"p":"3","p":"4","req":"r"}"#
        #expect(Self.registry.produce("CP_Outer", input) == Produced(
            status: 200, output: #"{"items":[{"n":1}],"p":4,"q":0,"r":0,"req":"r"}"#,
            entries: ["/items/0/n coerced", "/p duplicate_key", "/p coerced"]))
        let lean = try #require(convert("CP_Outer", input, keepsEntries: false))
        #expect(lean.warnings == 3)
    }

    /// With `keepsEntries` off a success answers its count and codes, and no entries.
    @Test func aLeanSuccessHasACountAndCodesButNoEntries() throws {
        let input = #"{"items":[{"n":"1"}],"p":"3","req":"r"}"#
        let full = try #require(convert("CP_Outer", input, keepsEntries: true))
        let lean = try #require(convert("CP_Outer", input, keepsEntries: false))
        #expect(full.diagnostics.map(\.path) == ["/items/0/n", "/p"])
        #expect(lean.diagnostics.isEmpty)
        #expect(lean.warnings == 2 && lean.diagnosticCodes == [.coerced, .coerced])
        #expect(lean.body == full.body)
    }
}
