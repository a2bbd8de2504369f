// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// `schemaSet` (what a replica serves) and the schema files' content fingerprint (what a poll compares).
@Suite struct RegistryFingerprintTests {
    static let a = #"{"name":"A","properties":{"id":"string"}}"#
    static let b = #"{"name":"B","properties":{"n":"int32"}}"#

    static func loaded(_ files: [(String, String)]) throws -> RegistrySnapshot {
        try SchemaRegistry().load(files.map { SchemaFile(name: $0.0, bytes: Array($0.1.utf8)) })
    }

    @Test func schemaSetIsTheHashOfTheModelsSortedByNameWithNulSeparators() throws {
        // sha256("A\0" + a + "B\0" + b), first 32 hex digits, computed outside Swift (Python's hashlib).
        #expect(
            try Self.loaded([("b.json", Self.b), ("a.json", Self.a)]).schemaSet == "8b418a928a0b42c3a11e72b133c6f5d6")
    }

    @Test func schemaSetIgnoresFileNamesLoadOrderAndHowModelsWereRegistered() throws {
        let separate = try Self.loaded([("a.json", Self.a), ("b.json", Self.b)])
        let together = try Self.loaded([("all.json", #"{"models":[\#(Self.b),\#(Self.a)]}"#)])
        let registry = SchemaRegistry()
        try registry.load([SchemaFile(name: "a.json", bytes: Array(Self.a.utf8))])
        let written = try registry.apply(
            upserts: [SchemaFile(name: "(request)", bytes: Array(Self.b.utf8))], deletes: [])
        #expect(separate.schemaSet == together.schemaSet)
        #expect(separate.schemaSet == written.schemaSet)
    }

    @Test func schemaSetChangesWithAnyModelByte() throws {
        let before = try Self.loaded([("a.json", Self.a)])
        let after = try Self.loaded([("a.json", #"{"name":"A","properties":{"id":"uint8"}}"#)])
        #expect(before.schemaSet != after.schemaSet)
        #expect(before.schemaSet.count == 32)
    }

    @Test func theFilesFingerprintFollowsNamesAndBytesButNotListingOrder() {
        func files(_ pairs: [(String, String)]) -> [SchemaFile] {
            pairs.map { SchemaFile(name: $0.0, bytes: Array($0.1.utf8)) }
        }
        let base = SchemaFile.fingerprint(of: files([("a.json", "ab"), ("b.json", "c")]))
        #expect(SchemaFile.fingerprint(of: files([("b.json", "c"), ("a.json", "ab")])) == base)
        #expect(
            SchemaFile.fingerprint(of: files([("a.json", "a"), ("b.json", "bc")])) != base, "a byte moved across files")
        #expect(SchemaFile.fingerprint(of: files([("a.json", "ab"), ("c.json", "c")])) != base, "a file renamed")
        #expect(SchemaFile.fingerprint(of: files([("a.json", "ab")])) != base, "a file removed")
        #expect(SchemaFile.fingerprint(of: files([("a.json", "ab"), ("b.json", "d")])) != base, "a byte changed")
    }

    @Test func aSnapshotRecordsWhenItWasMade() throws {
        let first = try Self.loaded([("a.json", Self.a)])
        let second = try Self.loaded([("a.json", Self.a)])
        #expect(first.createdAtMilliseconds > 1_700_000_000_000)
        #expect(second.createdAtMilliseconds >= first.createdAtMilliseconds)
    }
}
