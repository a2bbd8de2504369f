// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

@testable import TransformServer

/// The etcd values and keys, without etcd (the cluster tests cover the store against the real thing).
@Suite struct EtcdRegistryStoreTests {
    @Test func aModelRecordNamesTheCurrentVersionAndItsCommitTime() throws {
        let model = StoredModel(name: "User", version: 7, committedAtMs: 1_764_250_000_123)
        let value = EtcdRegistryStore.encode(model)
        #expect(String(decoding: value, as: UTF8.self) == #"{"version":7,"committedAtMs":1764250000123}"#)
        #expect(EtcdRegistryStore.decodeModel("User", value) == model)
    }

    @Test func aVersionKeepsItsDocumentByteForByteWithItsNumberAndCreationTime() throws {
        let document = Array(
            #"{"name":"User","properties":{"note":{"type":"string","default":"a \"schema\": b"}}}"#.utf8)
        let version = StoredVersion(version: 3, createdAt: "2026-11-27T16:00:00.123Z", document: document)
        let value = EtcdRegistryStore.encode(version)
        #expect(
            String(decoding: value, as: UTF8.self).hasPrefix(
                #"{"version":3,"createdAt":"2026-11-27T16:00:00.123Z","schema":{"name":"User","#))
        #expect(EtcdRegistryStore.decodeVersion(value) == version)
    }

    @Test func aRecordFromBeforeHistoriesKeepsItsInlineDocument() throws {
        let value = Array(#"{"version":2,"committedAtMs":5,"schema":{"name":"Old","properties":{"id":"int64"}}}"#.utf8)
        let model = try #require(EtcdRegistryStore.decodeModel("Old", value))
        #expect(model.version == 2 && !model.deleted)
        #expect(model.inlineDocument == Array(#"{"name":"Old","properties":{"id":"int64"}}"#.utf8))
        var state = StoreState()
        state.models["Old"] = model
        #expect(state.document(of: "Old") == model.inlineDocument)
        let overlay = SharedRegistry.overlay(state, keep: 10)
        #expect(overlay.lifecycles["Old"]?.versions.map(\.version) == [2])
    }

    @Test func aDeletionMarkerKeepsTheNamesVersionCounter() {
        let marker = StoredModel(name: "Old", version: 4, deleted: true, committedAtMs: 5)
        let value = EtcdRegistryStore.encode(marker)
        #expect(String(decoding: value, as: UTF8.self) == #"{"version":4,"committedAtMs":5,"deleted":true}"#)
        #expect(EtcdRegistryStore.decodeModel("Old", value) == marker)
    }

    @Test func aConfigurationKeepsOnlyTheMembersItSets() {
        let config = CompatibilityConfig(level: .backwardTransitive)
        let value = EtcdRegistryStore.encode(config)
        #expect(String(decoding: value, as: UTF8.self) == #"{"compatibility":"backward_transitive"}"#)
        #expect(EtcdRegistryStore.decodeConfig(value) == config)
        // A level a later server knows and this one does not takes the default.
        #expect(
            EtcdRegistryStore.decodeConfig(Array(#"{"compatibility":"sideways","view":"input"}"#.utf8))
                == CompatibilityConfig(view: .input))
    }

    @Test func aValueThatIsNotARecordIsIgnored() {
        #expect(EtcdRegistryStore.decodeModel("X", Array("not json".utf8)) == nil)
        #expect(EtcdRegistryStore.decodeModel("X", Array(#"{"version":0}"#.utf8)) == nil)
        #expect(EtcdRegistryStore.decodeVersion(Array(#"{"version":1,"createdAt":"x"}"#.utf8)) == nil)
        #expect(EtcdRegistryStore.decodeHead(Array(#"{"writer":1}"#.utf8)) == nil)
    }

    @Test func theOverlayListsKeptVersionsOldestFirstAndAtMostTheLimit() {
        var state = StoreState()
        state.models["M"] = StoredModel(name: "M", version: 5, deleted: true, committedAtMs: 1)
        for number in [2, 4, 3] {
            state.versions["M", default: [:]][number] = StoredVersion(
                version: number, createdAt: "t\(number)",
                document: Array(#"{"name":"M"}"#.utf8))
        }
        state.configs["N"] = CompatibilityConfig(level: .full)
        let overlay = SharedRegistry.overlay(state, keep: 2)
        #expect(overlay.deleted == ["M"] && overlay.models.isEmpty)
        #expect(overlay.lifecycles["M"]?.versions.map(\.version) == [3, 4])
        #expect(overlay.lifecycles["M"]?.lastVersion == 5)
        #expect(overlay.lifecycles["N"] == ModelLifecycle(config: CompatibilityConfig(level: .full)))
    }

    @Test func theHeadRecordNamesItsWriter() {
        let head = StoreHead(writer: "a1b2/3", committedAtMs: 9)
        #expect(EtcdRegistryStore.decodeHead(EtcdRegistryStore.encode(head)) == head)
    }

    @Test func everyKeyStartsWithThePrefix() {
        let store = EtcdRegistryStore(
            client: EtcdClient(
                endpoints: ["http://127.0.0.1:1"], username: nil, password: nil,
                options: EtcdHTTP.Options()), prefix: "/reg/")
        #expect(store.modelKey("User") == Array("/reg/models/User".utf8))
        #expect(store.headKey == Array("/reg/head".utf8))
        #expect(store.versionKey("User", 12) == Array("/reg/history/User/12".utf8))
        #expect(store.configKey("User") == Array("/reg/config/User".utf8))
        #expect(store.parse(store.versionKey("User", 12)) == .version("User", 12))
        #expect(store.parse(store.modelKey("User")) == .model("User"))
        #expect(store.parse(store.configKey("User")) == .config("User"))
        #expect(store.parse(Array("/reg/history/User/x".utf8)) == nil)
        #expect(store.parse(Array("/reg/later/User".utf8)) == nil)
    }

    @Test func aPrefixRangeEndsAtTheNextKeyAfterThePrefix() {
        #expect(EtcdClient.prefixEnd(Array("/reg/".utf8)) == Array("/reg0".utf8))
        #expect(EtcdClient.prefixEnd([0x61, 0xFF]) == [0x62])
        #expect(EtcdClient.prefixEnd([0xFF]) == [0])
    }

    @Test func anUnreachableEndpointIsUnavailableNotAnUnknownOutcome() {
        // Port 1 on loopback refuses connections: nothing was sent, so the write can be refused safely.
        let client = EtcdClient(
            endpoints: ["http://127.0.0.1:1", "http://127.0.0.1:1/"], username: nil, password: nil,
            options: EtcdHTTP.Options(timeoutMs: 1000))
        do throws(EtcdError) {
            _ = try client.range(Array("k".utf8))
            Issue.record("a read from a closed port succeeded")
        } catch {
            guard case .unavailable = error else {
                Issue.record("expected unavailable, got \(error)")
                return
            }
        }
    }
}
