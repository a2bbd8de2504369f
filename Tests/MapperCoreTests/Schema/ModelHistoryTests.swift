// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// docs/lifecycle.md, History and pinning: kept versions, a counter that never repeats, the per-name value a store
/// persists, and pinned versions that convert with today's referenced models.
struct ModelHistoryTests {
    static func registry(keeping keep: Int = 100) -> SchemaRegistry {
        var limits = SchemaLimits()
        limits.maxVersionsPerModel = keep
        return SchemaRegistry(limits: limits)
    }

    static func put(_ registry: SchemaRegistry, _ document: String) throws {
        try SchemaRegistryTests.upsert(registry, document)
    }

    static func convert(_ snapshot: RegistrySnapshot, _ model: String, _ input: String) -> String {
        var options = ConversionOptions()
        options.output = .wire
        let bytes = Array(input.utf8)
        switch bytes.withUnsafeBytes({ body in
            Result { () throws(MappingError) in try snapshot.convert(body, model: model, options: options) }
        }) {
        case .success(let converted): return String(decoding: converted.body, as: UTF8.self)
        case .failure(let error): return "error: \(error)"
        }
    }

    @Test
    func keepsEveryAcceptedVersionOldestFirst() throws {
        let registry = Self.registry()
        try Self.put(registry, #"{"name":"P","properties":{"x":"int8"}}"#)
        try Self.put(registry, #"{"name":"P","properties":{"x":"int8"}}"#)  // same bytes: no new version
        try Self.put(registry, #"{"name":"P","properties":{"x":"string"}}"#)
        let history = try #require(registry.current.lifecycles["P"])
        #expect(history.versions.map(\.version) == [1, 2])
        #expect(history.lastVersion == 2)
        #expect(
            String(decoding: history.versions[0].document, as: UTF8.self) == #"{"name":"P","properties":{"x":"int8"}}"#)
        #expect(history.versions[1].etag == registry.current.entries["P"]!.etag)
        #expect(history.versions[0].createdAt.hasSuffix("Z") && history.versions[0].createdAt.count >= 20)
    }

    @Test
    func trimsTheOldestBeyondTheLimit() throws {
        let registry = Self.registry(keeping: 3)
        for bound in 1...5 {
            try Self.put(registry, #"{"name":"P","properties":{"x":{"type":"int32","maximum":\#(bound)}}}"#)
        }
        #expect(registry.current.lifecycles["P"]!.versions.map(\.version) == [3, 4, 5])
        #expect(registry.current.entries["P"]!.version == 5)
    }

    @Test
    func neverRepeatsANumberAcrossADeleteAndReCreate() throws {
        let registry = Self.registry()
        try Self.put(registry, #"{"name":"P","properties":{"x":"int8"}}"#)
        try Self.put(registry, #"{"name":"P","properties":{"x":"int16"}}"#)
        _ = try registry.apply(upserts: [], deletes: ["P"])
        #expect(registry.current.lifecycles["P"]!.versions.map(\.version) == [1, 2], "kept after the delete")
        try Self.put(registry, #"{"name":"P","properties":{"x":"int8"}}"#)  // the same bytes as version 1
        #expect(registry.current.entries["P"]!.version == 3)
        #expect(registry.current.lifecycles["P"]!.versions.map(\.version) == [1, 2, 3])
    }

    @Test
    func aLifecycleRoundTripsThroughItsBytes() throws {
        var lifecycle = ModelLifecycle(config: CompatibilityConfig(level: .backwardTransitive, view: .output))
        lifecycle.append(
            Array(#"{"name":"P","properties":{"x":1.50}}"#.utf8), createdAt: "2026-01-02T03:04:05.678Z", keep: 10)
        lifecycle.append(Array(#"{"name":"P"}"#.utf8), createdAt: "2026-01-02T03:04:06Z", keep: 10)
        let decoded = try ModelLifecycle(decoding: lifecycle.encoded(), name: "P")
        #expect(decoded == lifecycle)
        #expect(throws: RegistryOverlay.DecodingError.self) {
            try ModelLifecycle(
                decoding: Array(#"{"lastVersion":1,"versions":[{"version":2,"createdAt":"x","schema":{}}]}"#.utf8),
                name: "P")
        }
    }

    @Test
    func anOverlayWithoutLifecyclesStillReadsAndStartsEachHistoryAtItsVersion() throws {
        let old = #"{"models":[{"version":7,"schema":{"name":"P","properties":{"x":"int8"}}}],"deleted":[]}"#
        let overlay = try RegistryOverlay(decoding: Array(old.utf8), file: ".registry.json")
        #expect(overlay.lifecycles.isEmpty)
        let registry = Self.registry()
        try registry.load([], overlay: overlay)
        #expect(registry.current.lifecycles["P"]!.versions.map(\.version) == [7])
        try Self.put(registry, #"{"name":"P","properties":{"x":"int16"}}"#)
        #expect(registry.current.entries["P"]!.version == 8)
        // Written again with the lifecycles, read back: the same history and counter.
        var written = overlay
        written.lifecycles = registry.current.lifecycles
        let reread = try RegistryOverlay(decoding: written.encoded(), file: ".registry.json")
        #expect(reread.lifecycles == registry.current.lifecycles)
    }

    @Test
    func aPinnedVersionConvertsWithTodaysReferencedModels() throws {
        let registry = Self.registry()
        try Self.put(registry, #"{"name":"Inner","properties":{"n":"int8"}}"#)
        try Self.put(registry, #"{"name":"Outer","properties":{"a":"string","inner":"Inner"}}"#)
        try Self.put(registry, #"{"name":"Outer","properties":{"a":"int32","inner":"Inner"}}"#)
        try Self.put(registry, #"{"name":"Inner","properties":{"n":"string"}}"#)
        let snapshot = registry.current
        let input = #"{"a":5,"inner":{"n":7}}"#
        #expect(Self.convert(snapshot, "Outer", input) == #"{"a":5,"inner":{"n":"7"}}"#)
        let pinned = try snapshot.pinned("Outer", version: 1)
        #expect(Self.convert(pinned, "Outer", input) == #"{"a":"5","inner":{"n":"7"}}"#)
        #expect(pinned.versionText(of: "Outer") == "1")
        #expect(try snapshot.pinned("Outer", version: 1) === pinned, "compiled once, then cached")
        #expect(try snapshot.pinned("Outer", version: 2) === snapshot, "the current version is the snapshot")
        #expect(throws: PinningError.unknownVersion(model: "Outer", version: 9)) {
            try snapshot.pinned("Outer", version: 9)
        }
    }

    @Test
    func cachesAtMostSixtyFourPinnedVersionsPerModelLeastRecentlyUsedFirst() throws {
        let registry = Self.registry()
        for bound in 1...70 {
            try Self.put(registry, #"{"name":"P","properties":{"x":{"type":"int32","maximum":\#(bound)}}}"#)
        }
        let snapshot = registry.current
        let first = try snapshot.pinned("P", version: 1)
        for version in 2...65 { _ = try snapshot.pinned("P", version: version) }  // 64 more: version 1 falls out
        #expect(snapshot.pinnedCache.withLock { $0["P"]!.entries.count } == PinnedVersions.capacity)
        #expect(try snapshot.pinned("P", version: 1) !== first, "recompiled after eviction")
        let again = try snapshot.pinned("P", version: 1)
        #expect(try snapshot.pinned("P", version: 1) === again)
        #expect(Self.convert(again, "P", #"{"x":2}"#).hasPrefix("error"), "version 1 allows at most 1")
        #expect(Self.convert(snapshot, "P", #"{"x":2}"#) == #"{"x":2}"#)
    }
}
