// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// docs/api.md, "The schema registry": versions, ETags and canonical bytes; atomic writes; replaced models take effect
/// for the models that use them, while snapshots already taken keep working.
struct SchemaRegistryTests {
    static func file(_ text: String, implied: String? = nil) -> SchemaFile {
        SchemaFile(name: "(request)", bytes: Array(text.utf8), source: .registry, impliedName: implied)
    }

    /// Applies `documents` as upserts, failing the test on problems.
    @discardableResult
    static func upsert(_ registry: SchemaRegistry, _ documents: String..., deleting deletes: [String] = [])
        throws -> RegistrySnapshot
    {
        try registry.apply(upserts: documents.map { file($0) }, deletes: deletes)
    }

    static func version(_ registry: SchemaRegistry, _ name: String) -> Int? { registry.current.entries[name]?.version }

    static func document(_ registry: SchemaRegistry, _ name: String) -> String? {
        registry.current.entries[name].map { String(decoding: $0.document, as: UTF8.self) }
    }

    // MARK: - Versions

    @Test
    func startsEveryModelAtVersionOne() throws {
        let registry = try SchemaRegistry.make(#"{"name":"A"}"#, #"{"models":[{"name":"B"},{"name":"C"}]}"#)
        #expect(["A", "B", "C"].map { Self.version(registry, $0) } == [1, 1, 1])
        try Self.upsert(registry, #"{"name":"D"}"#)
        #expect(Self.version(registry, "D") == 1)
    }

    @Test
    func bumpsTheVersionOnEveryChangeOfTheCanonicalBytesOnly() throws {
        let registry = SchemaRegistry()
        try Self.upsert(registry, #"{"name":"A","properties":{"x":"int32"}}"#, #"{"name":"B"}"#)
        #expect(Self.version(registry, "A") == 1)
        try Self.upsert(registry, #"{"name":"A","properties":{"x":"int32"}}"#)
        #expect(Self.version(registry, "A") == 1, "same bytes")
        try Self.upsert(registry, "{ \"name\" : \"A\",\n\t\"properties\" : { \"x\" : \"int32\" } }\n")
        #expect(Self.version(registry, "A") == 1, "only whitespace differs")
        try Self.upsert(registry, #"{"name":"A","properties":{"x":"int64"}}"#)
        #expect(Self.version(registry, "A") == 2)
        try Self.upsert(registry, #"{"name":"A","properties":{"x":"int32"}}"#)
        #expect(Self.version(registry, "A") == 3, "back to the first bytes is a change too")
        try Self.upsert(registry, #"{"properties":{"x":"int32"},"name":"A"}"#)
        #expect(Self.version(registry, "A") == 4, "key order is part of the canonical bytes")
        try Self.upsert(registry, #"{"properties":{"x":"int32"},"name":"A"}"#, #"{"name":"C"}"#)
        #expect(Self.version(registry, "A") == 4)
        #expect(Self.version(registry, "B") == 1, "untouched models keep their version")
        try Self.upsert(registry, #"{"name":"B"}"#)
        #expect(Self.version(registry, "B") == 1, "rewritten with the same bytes")
    }

    @Test
    func reloadingFilesBumpsOnlyChangedModels() throws {
        let registry = try SchemaRegistry.make(#"{"name":"A","properties":{"x":"int32"}}"#, #"{"name":"B"}"#)
        try registry.load([
            SchemaFile(name: "a.json", bytes: Array(#"{"name":"A","properties":{"x":"string"}}"#.utf8)),
            SchemaFile(name: "b.json", bytes: Array(#"{"name":"B"}"#.utf8)),
        ])
        #expect(Self.version(registry, "A") == 2)
        #expect(Self.version(registry, "B") == 1)
        #expect(registry.current.entries["A"]?.source == .file)
    }

    @Test
    func rejectedWritesDoNotCountAsChanges() throws {
        let registry = SchemaRegistry()
        try Self.upsert(registry, #"{"name":"A","properties":{"x":"int32"}}"#)
        #expect(throws: SchemaSetError.self) { try Self.upsert(registry, #"{"name":"A","properties":{"x":"Nope"}}"#) }
        #expect(Self.version(registry, "A") == 1)
        try Self.upsert(registry, #"{"name":"A","properties":{"x":"int64"}}"#)
        #expect(Self.version(registry, "A") == 2)
    }

    // MARK: - ETag and canonical bytes

    @Test
    func etagIsTheQuotedFirst32HexDigitsOfTheSHA256OfTheCanonicalBytes() throws {
        let registry = SchemaRegistry()
        try Self.upsert(registry, #" { "name": "A", "properties": { "x": "int32" } } "#)
        // sha256sum of {"name":"A","properties":{"x":"int32"}}
        #expect(registry.current.entries["A"]?.etag == #""87677e610fda915f15df92d03ffbeb31""#)
        #expect(Self.document(registry, "A") == #"{"name":"A","properties":{"x":"int32"}}"#)
    }

    @Test(arguments: [
        #"{"name":"A"}"#, #"{"name":"B","properties":{"s":{"type":"string","key":"caf\u00e9"}}}"#,
        #"{"name":"C","properties":{"n":{"type":"number","default":1.50E+2}}}"#,
    ])
    func etagMatchesTheDocumentsDigest(_ text: String) throws {
        let registry = SchemaRegistry()
        try Self.upsert(registry, text)
        let entry = try #require(registry.current.entries.values.first)
        let digest = SHA256.hexDigest(entry.document)
        #expect(entry.etag == "\"" + digest.prefix(32) + "\"")
        #expect(entry.etag.utf8.count == 34)
        #expect(entry.etag.utf8.dropFirst().dropLast().allSatisfy { $0.isASCIIDigit || (0x61...0x66).contains($0) })
    }

    @Test
    func etagChangesWithTheBytesAndIsStableAcrossRegistries() throws {
        let first = try SchemaRegistry.make(#"{"name":"A","properties":{"x":"int32"}}"#)
        let second = SchemaRegistry()
        try Self.upsert(second, "{\"name\":\"A\",\n\"properties\":{\"x\":\"int32\"}}")
        #expect(first.current.entries["A"]?.etag == second.current.entries["A"]?.etag)
        try Self.upsert(second, #"{"name":"A","properties":{"x":"int64"}}"#)
        #expect(first.current.entries["A"]?.etag != second.current.entries["A"]?.etag)
    }

    struct Canonical: Sendable, CustomTestStringConvertible {
        let name: String
        let given: String
        let canonical: String
        var testDescription: String { name }
    }

    static let canonicalForms: [Canonical] = [
        .init(
            name: "whitespace removed", given: "{ \"name\" : \"A\" ,\r\n \"properties\" : { } }",
            canonical: #"{"name":"A","properties":{}}"#),
        .init(
            name: "key order kept", given: #"{"properties":{"z":"int32","a":"string"},"name":"A"}"#,
            canonical: #"{"properties":{"z":"int32","a":"string"},"name":"A"}"#),
        .init(
            name: "numbers as written",
            given:
                #"{"name":"A","properties":{"a":{"type":"number","minimum":-1.50E+2,"maximum":12345678901234567890123,"default":-0.0e-0}}}"#,
            canonical:
                #"{"name":"A","properties":{"a":{"type":"number","minimum":-1.50E+2,"maximum":12345678901234567890123,"default":-0.0e-0}}}"#
        ),
        .init(
            name: "strings re-escaped",
            given:
                #"{"name":"A","properties":{"a":{"type":"string","key":"caf\u00e9\/\t\u001F\u007f\"\\","enum":["\ud83d\ude00"]}}}"#,
            canonical:
                "{\"name\":\"A\",\"properties\":{\"a\":{\"type\":\"string\",\"key\":\"café/\\t\\u001f\u{7F}\\\"\\\\\",\"enum\":[\"😀\"]}}}"
        ),
        .init(
            name: "nothing expanded",
            given: #"{"name":"A","properties":{"p":"decimal","q":{"type":"array","of":"int32"}},"blacklist":[ ]}"#,
            canonical: #"{"name":"A","properties":{"p":"decimal","q":{"type":"array","of":"int32"}},"blacklist":[]}"#),
    ]

    @Test(arguments: canonicalForms)
    func keepsTheDocumentAsGivenInCompactForm(_ form: Canonical) throws {
        let registry = SchemaRegistry()
        try Self.upsert(registry, form.given)
        #expect(Self.document(registry, "A") == form.canonical)
    }

    @Test
    func bundleMembersAreCanonicalOnTheirOwn() throws {
        let registry = try SchemaRegistry.make(#"{ "models" : [ { "name" : "A" } , {"name":"B", "extends":"A"} ] }"#)
        #expect(Self.document(registry, "A") == #"{"name":"A"}"#)
        #expect(Self.document(registry, "B") == #"{"name":"B","extends":"A"}"#)
    }

    @Test
    func fillsInAnAbsentNameFromTheImpliedName() throws {
        let registry = SchemaRegistry()
        _ = try registry.apply(upserts: [Self.file(#"{ "properties": {"x": "int32"} }"#, implied: "User")], deletes: [])
        #expect(Self.document(registry, "User") == #"{"name":"User","properties":{"x":"int32"}}"#)
        let digest = SHA256.hexDigest(Array(#"{"name":"User","properties":{"x":"int32"}}"#.utf8))
        #expect(registry.current.entries["User"]?.etag == "\"" + digest.prefix(32) + "\"")
        #expect(registry.current.converted("User", #"{"x":"5"}"#) == #"{"x":5}"#)
        // A name that is given stays where it was written.
        _ = try registry.apply(upserts: [Self.file(#"{"properties":{},"name":"User"}"#, implied: "User")], deletes: [])
        #expect(Self.document(registry, "User") == #"{"properties":{},"name":"User"}"#)
        #expect(Self.version(registry, "User") == 2)
    }

    @Test
    func rejectsANameThatDiffersFromTheImpliedName() throws {
        let registry = SchemaRegistry()
        let error = try #require(throws: SchemaSetError.self) {
            try registry.apply(upserts: [Self.file(#"{"name":"Other"}"#, implied: "User")], deletes: [])
        }
        #expect(error.problems.map(\.path) == ["/name"])
        #expect(registry.current.modelNames.isEmpty)
    }

    // MARK: - Atomic writes

    static let item = #"{"name":"Item","properties":{"id":"int32"}}"#

    @Test
    func aBrokenUpsertLeavesTheOldSnapshotInPlace() throws {
        let registry = try SchemaRegistry.make(Self.item, #"{"name":"B","properties":{"s":"string"}}"#)
        let before = registry.current
        let writes: [[SchemaFile]] = [
            [
                Self.file(#"{"name":"Item","properties":{"id":"string"}}"#),
                Self.file(#"{"name":"C","properties":{"x":"Nope"}}"#),
            ],
            [Self.file(#"{"name":"C"}"#), Self.file(#"{"name":"Item","properties":"#)],
            [
                Self.file(
                    #"{"models":[{"name":"C"},{"name":"Item","properties":{"id":{"type":"int32","default":"x"}}}]}"#)
            ],
        ]
        for upserts in writes {
            #expect(throws: SchemaSetError.self) { try registry.apply(upserts: upserts, deletes: ["B"]) }
            #expect(registry.current === before)
            #expect(registry.current.modelNames == ["B", "Item"])
            #expect(Self.version(registry, "Item") == 1)
            #expect(registry.current.converted("Item", #"{"id":"7"}"#) == #"{"id":7}"#)
        }
        #expect(throws: SchemaSetError.self) {
            try registry.load([SchemaFile(name: "x.json", bytes: Array(#"{"name":"Item","extends":"Nope"}"#.utf8))])
        }
        #expect(registry.current === before)
    }

    @Test
    func resolvesReferencesInsideOneWrite() throws {
        let registry = try SchemaRegistry.make(Self.item)
        try Self.upsert(
            registry, #"{"name":"Order","properties":{"line":"Line"}}"#,
            #"{"models":[{"name":"Line","properties":{"item":"Item","qty":"int32"}}]}"#)
        #expect(
            registry.current.converted("Order", #"{"line":{"item":{"id":1},"qty":2}}"#)
                == #"{"line":{"item":{"id":1},"qty":2}}"#)
        #expect(registry.current.entries["Order"]?.source == .registry)
        #expect(registry.current.entries["Item"]?.source == .file)
    }

    @Test
    func deletesOnlyWhatNothingElseNeeds() throws {
        let registry = try SchemaRegistry.make(
            Self.item, #"{"name":"Box","properties":{"item":"Item"}}"#,
            #"{"name":"Special","extends":"Item"}"#)
        let before = registry.current
        #expect(throws: SchemaSetError.self) { try registry.apply(upserts: [], deletes: ["Item"]) }
        #expect(registry.current === before)
        _ = try registry.apply(upserts: [], deletes: ["Item", "Box", "Special"])
        #expect(registry.current.modelNames.isEmpty)
        #expect(!registry.current.contains("Item"))
        #expect(before.contains("Item"))
    }

    @Test
    func findsModelsByTheExactBytesOfTheirNames() throws {
        let registry = try SchemaRegistry.make(Self.item, #"{"name":"Kit","properties":{"item":"Item"}}"#)
        let snapshot = registry.current
        #expect(snapshot.contains("Item") && snapshot.contains("Kit"))
        // Names are ASCII (docs/schema.md, "name"); a String that only compares equal to one (U+212A KELVIN SIGN is
        // canonically equivalent to "K") is another name, as are other cases, prefixes and extensions.
        for other in ["\u{212A}it", "kit", "Ki", "Kitt", "", "Item ", "It\u{0065}m\u{0301}"] {
            #expect(!snapshot.contains(other), "\(other.unicodeScalars.map(\.value))")
        }
        _ = try registry.apply(upserts: [], deletes: ["Kit"])
        #expect(!registry.current.contains("Kit"))
        #expect(registry.current.contains("Item"))
    }

    // MARK: - Replacing models

    static let box = #"""
        {"name":"Box","properties":{"item":"Item","items":{"type":"array","of":"Item"},
         "byKey":{"type":"dictionary","of":"Item"}}}
        """#
    static let special = #"{"name":"Special","extends":"Item","properties":{"extra":"string"}}"#
    static let boxInput = #"{"item":{"id":"7"},"items":[{"id":8}],"byKey":{"k":{"id":9}}}"#

    @Test
    func aReplacedModelChangesTheModelsThatExtendOrReferToIt() throws {
        let registry = try SchemaRegistry.make(Self.item, Self.box, Self.special)
        #expect(
            registry.current.converted("Box", Self.boxInput)
                == #"{"item":{"id":7},"items":[{"id":8}],"byKey":{"k":{"id":9}}}"#)
        #expect(registry.current.converted("Special", #"{"id":1,"extra":"e"}"#) == #"{"id":1,"extra":"e"}"#)

        try Self.upsert(
            registry, #"{"name":"Item","properties":{"id":"string","tag":{"type":"string","default":"t"}}}"#)
        #expect(
            registry.current.converted("Box", Self.boxInput)
                == #"{"item":{"id":"7","tag":"t"},"items":[{"id":"8","tag":"t"}],"byKey":{"k":{"id":"9","tag":"t"}}}"#)
        #expect(registry.current.converted("Special", #"{"id":1,"extra":"e"}"#) == #"{"id":"1","tag":"t","extra":"e"}"#)
        #expect(Self.version(registry, "Item") == 2)
        #expect(Self.version(registry, "Box") == 1)
        #expect(Self.version(registry, "Special") == 1)
    }

    @Test
    func aSnapshotTakenBeforeAReplacementKeepsConverting() throws {
        var registry: SchemaRegistry? = try SchemaRegistry.make(Self.item, Self.box, Self.special)
        let old = try #require(registry?.current)
        for type in ["string", "int64", "decimal", "string"] {
            try Self.upsert(registry!, #"{"name":"Item","properties":{"id":"\#(type)"}}"#)
        }
        _ = try registry!.apply(upserts: [], deletes: ["Box", "Special"])
        #expect(registry!.current.converted("Item", #"{"id":7}"#) == #"{"id":"7"}"#)
        #expect(registry!.current.contains("Box") == false)
        registry = nil
        #expect(old.converted("Box", Self.boxInput) == #"{"item":{"id":7},"items":[{"id":8}],"byKey":{"k":{"id":9}}}"#)
        #expect(old.converted("Special", #"{"id":"1","extra":"e"}"#) == #"{"id":1,"extra":"e"}"#)
        #expect(old.entries["Item"]?.version == 1)
        #expect(old.modelNames == ["Box", "Item", "Special"])
    }
}
