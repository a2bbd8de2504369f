// SPDX-License-Identifier: Apache-2.0

import Foundation
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
        // `keep` is read from the rebuilt object (a document of its own) before `new`, whose key was renamed; the
        // removed `junk` puts `keep` at another token index there than in the input.
        #"{"name":"CP_Renamed","willTransform":{"rename":{"old":"new"},"remove":["junk"]},"#
            + #""properties":{"keep":"int32","new":"int32","must":{"type":"string","required":true}}}"#,
        // One value read three times: twice with the same message, once with another.
        #"{"name":"CP_Twice","properties":{"a":{"type":"int32","key":"v"},"b":{"type":"int32","key":"v"},"#
            + #""c":{"type":"int64","key":"v"},"req":{"type":"string","required":true}}}"#,
    ])

    private func convert(_ model: String, _ input: String, keepsEntries: Bool) -> Converted? {
        var options = ConversionOptions()
        options.keepsEntries = keepsEntries
        return try? Array(input.utf8).withUnsafeBytes {
            try Self.registry.get().convert($0, model: model, options: options)
        }
    }

    /// The first error renders every coded path before it: array indexes, an escaped key (`\u0070` is `p`), a key
    /// that needs `~1` and `~0`, a key path and a dictionary member.
    @Test func aFailureAfterCodedWarningsListsEveryPath() {
        let input = #"{"items":[{"n":"1"},{"n":"2"}],"\u0070":"3","a/b~c":"4","x":{"y":"5"},"d":{"k":"6"}}"#
        #expect(
            Self.registry.produce("CP_Outer", input)
                == Produced(
                    status: 422, output: #"{"items":[{"n":1},{"n":2}],"p":3,"q":4,"r":5,"d":{"k":6}}"#,
                    entries: [
                        "/items/0/n coerced", "/items/1/n coerced", "/p coerced", "/a~1b~0c coerced", "/x/y coerced",
                        "/d/k coerced", "!/req missing_required",
                    ]))
    }

    /// Paths into a rebuilt document are not coded: each of its members carries its input pointer (a reset
    /// segment), and `InputPath.writeCoded` refuses keys of any document but the input besides (a check no input
    /// can reach while rebuilt members carry their pointers). `keep` is reported at its input key, not at `junk`,
    /// the input's key at the token index `keep` has in the rebuilt object.
    @Test func pathsInARebuiltObjectAreRenderedFromIt() {
        #expect(
            Self.registry.produce("CP_Renamed", #"{"junk":1,"keep":"2","old":"1"}"#)
                == Produced(
                    status: 422, output: #"{"keep":2,"new":1}"#,
                    entries: ["/keep coerced", "/old coerced", "!/must missing_required"]))
    }

    /// Repeats are found among coded paths by path and message: the two `int32` reads of `v` are one entry, the
    /// `int64` read another.
    @Test func aValueReadTwiceIsOneEntryPerMessage() throws {
        #expect(
            Self.registry.produce("CP_Twice", #"{"v":"7","req":"r"}"#)
                == Produced(
                    status: 200, output: #"{"a":7,"b":7,"c":7,"req":"r"}"#, entries: ["/v coerced", "/v coerced"]))
        let lean = try #require(convert("CP_Twice", #"{"v":"7","req":"r"}"#, keepsEntries: false))
        #expect(lean.warnings == 2)
        #expect(lean.diagnosticCodes == [.coerced, .coerced])
        #expect(
            Self.registry.produce("CP_Twice", #"{"v":"7"}"#).entries
                == ["/v coerced", "/v coerced", "!/req missing_required"])
    }

    /// A warning whose path cannot be coded (here `duplicate_key`, given as a pointer) ends coding midway through
    /// a success; the count still matches the full report.
    @Test func aPointerEntryMidwayKeepsTheCountExact() throws {
        let input = #"{"items":[{"n":"1"}],"p":"3","p":"4","req":"r"}"#
        #expect(
            Self.registry.produce("CP_Outer", input)
                == Produced(
                    status: 200, output: #"{"items":[{"n":1}],"p":4,"q":0,"r":0,"req":"r"}"#,
                    entries: ["/items/0/n coerced", "/p duplicate_key", "/p coerced"]))
        let lean = try #require(convert("CP_Outer", input, keepsEntries: false))
        #expect(lean.warnings == 3)
        #expect(lean.diagnostics.isEmpty)  // not kept, though rendered from the duplicate key on
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

    // MARK: - Random objects

    /// Schemas that reach every way a value is looked up and visited: key paths, fallback lists, a key with a
    /// dot, several properties on one key, arrays, sets, dictionaries (of models too), `any`, a self-reference,
    /// `classForDictionary`, `willTransform` (rename, remove, defaults, a two-step `unwrap`), `unknownKeys:
    /// reject`, constraints, `required` and defaults.
    static let randomModels = [
        #"{"name":"RL","properties":{"n":"int32","s":"string","b":"bool","d":"decimal","m":{"type":"int32","key":"n"}}}"#,
        #"{"name":"RR","properties":{"i":"int32","kp":{"type":"int32","key":"a.b"},"kp2":{"type":"int64","key":"a.b"},"#
            + #""fb":{"type":"int32","key":["x","a.c","y"]},"leaf":"RL","arr":{"type":"array","of":"int32"},"#
            + #""set":{"type":"set","of":"int32"},"dict":{"type":"dictionary","of":"int32"},"#
            + #""dl":{"type":"dictionary","of":"RL"},"al":{"type":"array","of":"RL"},"#
            + #""nested":{"type":"array","of":{"type":"set","of":"int32"}},"any":"any","dotted":{"type":"int32","key":".e"},"#
            + #""deep":{"type":"int32","key":"y.b.c"},"dflt":{"type":"int32","key":"x","default":5},"#
            + #""self":"RR","poly":"RB","wt":"RW","u":"RU","lim":{"type":"int32","minimum":0},"#
            + #""dset":{"type":"set","of":"RL"},"i2":{"type":"int32","key":"i"},"kp3":{"type":"double","key":["a.b","i"]}}}"#,
        #"{"name":"RB","properties":{"kind":"string","n":"int32"},"#
            + #""classForDictionary":[{"when":{"key":"kind","equals":"sub"},"use":"RS"},{"when":{"has":"a.b"},"use":"RS"}]}"#,
        #"{"name":"RS","extends":"RB","properties":{"extra":"int32","kp":{"type":"int32","key":"a.b"}}}"#,
        #"{"name":"RW","willTransform":{"rename":{"old":"n"},"remove":["s"],"defaults":{"b":"yes"}},"#
            + #""properties":{"n":"int32","b":"bool","i":"int32","arr":{"type":"array","of":"int32"}}}"#,
        #"{"name":"RU","willTransform":{"unwrap":"data.x"},"#
            + #""properties":{"n":"int32","i":"int32","leaf":"RL","req":{"type":"int32","required":true,"key":"i"}}}"#,
        #"{"name":"RJ","unknownKeys":"reject","properties":{"n":"int32","kp":{"type":"int32","key":"a.b"}}}"#,
    ]

    /// Random objects over those schemas' keys (some spelled with `\u` escapes, some members repeated), in every
    /// mode and form, convert the same with `keepsEntries` off as on: body, count, codes and hash of a success,
    /// every byte of a failure. Seeded, so a failure repeats; about 4,000 conversions.
    @Test func randomObjectsConvertTheSameWithCodedPaths() throws {
        let snapshot = try ConversionFixture.snapshot(Self.randomModels).get()
        var random = NumberFixture.Random(seed: 7)
        var endedCoded = 0
        for _ in 0..<2_000 {
            let input = Self.randomObject(&random, depth: 0)
            let model = ["RR", "RR", "RR", "RL", "RB", "RW", "RU", "RJ"][random.below(8)]
            var options = ConversionOptions()
            options.mode = random.below(5) == 0 ? .strict : .lax
            options.output = random.below(5) < 2 ? .wire : .model
            options.input = random.below(7) == 0 ? .model : .wire
            options.hash = random.below(5) == 0
            var lean = options
            lean.keepsEntries = false
            let kept = Array(input.utf8).withUnsafeBytes { body in
                Result { () throws(MappingError) in try snapshot.convert(body, model: model, options: options) }
            }
            let coded = Array(input.utf8).withUnsafeBytes { body in
                Result { () throws(MappingError) in try snapshot.convert(body, model: model, options: lean) }
            }
            switch (kept, coded) {
            case (.success(let kept), .success(let coded)):
                if coded.report?.hasCodedPaths == true { endedCoded += 1 }
                #expect(
                    coded.body == kept.body && coded.warnings == kept.warnings
                        && coded.diagnosticCodes == kept.diagnosticCodes && coded.modelHash == kept.modelHash,
                    "\(model) \(options) \(input)")
            case (.failure(let kept), .failure(let coded)):
                #expect(coded.body(requestId: nil) == kept.body(requestId: nil), "\(model) \(options) \(input)")
            default:
                Testing.Issue.record("\(model) \(options) \(input): \(kept) against \(coded)")
            }
        }
        #expect(endedCoded > 100, "too few successes kept their paths coded to the end to test them")
    }

    private static let randomKeys = [
        "i", "a", "b", "c", "x", "y", "leaf", "arr", "set", "dict", "dl", "al", "nested",
        "any", ".e", "self", "poly", "wt", "u", "n", "s", "d", "m", "data", "kind", "old",
        "extra", "lim", "dset", "zz", "a/b", "~",
    ]
    private static let randomScalars = [
        "1", #""1""#, #""2""#, "1.5", "-3", #""x""#, "true", "false", "null", #""yes""#,
        "300000000000", #""sub""#, "0", #""7""#, "2.0", #"" 4 ""#, #""null""#,
    ]

    private static func randomObject(_ random: inout NumberFixture.Random, depth: Int) -> String {
        var members: [String] = []
        for _ in 0..<random.below(7) {
            let key = randomKeys[random.below(randomKeys.count)].unicodeScalars.map { scalar in
                random.below(7) == 0 ? String(format: "\\u%04x", scalar.value) : String(scalar)
            }.joined()
            members.append("\"\(key)\":" + randomValue(&random, depth: depth))
            if random.below(7) == 0 { members.append(members[members.count - 1]) }  // a repeated member
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func randomValue(_ random: inout NumberFixture.Random, depth: Int) -> String {
        if depth > 3 || random.below(9) < 5 { return randomScalars[random.below(randomScalars.count)] }
        if random.below(5) < 2 {
            return "["
                + (0..<random.below(5)).map { _ in randomValue(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        }
        return randomObject(&random, depth: depth + 1)
    }
}

extension NumberFixture.Random {
    /// A number in `0..<bound`.
    fileprivate mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
