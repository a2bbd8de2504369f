// SPDX-License-Identifier: Apache-2.0

import Testing
@testable import TransformServer

/// The etcd values and keys, without etcd (the cluster tests cover the store against the real thing).
@Suite struct EtcdRegistryStoreTests {
    @Test func aModelRecordKeepsItsDocumentByteForByteWithItsVersionAndCommitTime() throws {
        let document = Array(#"{"name":"User","properties":{"note":{"type":"string","default":"a \"schema\": b"}}}"#.utf8)
        let model = StoredModel(name: "User", version: 7, document: document, committedAtMs: 1_764_250_000_123)
        let value = EtcdRegistryStore.encode(model)
        #expect(String(decoding: value, as: UTF8.self).hasPrefix(#"{"version":7,"committedAtMs":1764250000123,"schema":{"#))
        #expect(EtcdRegistryStore.decodeModel("User", value) == model)
    }

    @Test func aDeletionMarkerKeepsTheNamesVersionCounter() {
        let marker = StoredModel(name: "Old", version: 4, document: nil, committedAtMs: 5)
        let value = EtcdRegistryStore.encode(marker)
        #expect(String(decoding: value, as: UTF8.self) == #"{"version":4,"committedAtMs":5,"deleted":true}"#)
        #expect(EtcdRegistryStore.decodeModel("Old", value) == marker)
    }

    @Test func aValueThatIsNotARecordIsIgnored() {
        #expect(EtcdRegistryStore.decodeModel("X", Array("not json".utf8)) == nil)
        #expect(EtcdRegistryStore.decodeModel("X", Array(#"{"version":1}"#.utf8)) == nil)
        #expect(EtcdRegistryStore.decodeHead(Array(#"{"writer":1}"#.utf8)) == nil)
    }

    @Test func theHeadRecordNamesItsWriter() {
        let head = StoreHead(writer: "a1b2/3", committedAtMs: 9)
        #expect(EtcdRegistryStore.decodeHead(EtcdRegistryStore.encode(head)) == head)
    }

    @Test func everyKeyStartsWithThePrefix() {
        let store = EtcdRegistryStore(client: EtcdClient(endpoints: ["http://127.0.0.1:1"], username: nil, password: nil,
                                                         options: EtcdHTTP.Options()), prefix: "/reg/")
        #expect(store.modelKey("User") == Array("/reg/models/User".utf8))
        #expect(store.headKey == Array("/reg/head".utf8))
    }

    @Test func aPrefixRangeEndsAtTheNextKeyAfterThePrefix() {
        #expect(EtcdClient.prefixEnd(Array("/reg/".utf8)) == Array("/reg0".utf8))
        #expect(EtcdClient.prefixEnd([0x61, 0xFF]) == [0x62])
        #expect(EtcdClient.prefixEnd([0xFF]) == [0])
    }

    @Test func anUnreachableEndpointIsUnavailableNotAnUnknownOutcome() {
        // Port 1 on loopback refuses connections: nothing was sent, so the write can be refused safely.
        let client = EtcdClient(endpoints: ["http://127.0.0.1:1", "http://127.0.0.1:1/"], username: nil, password: nil,
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
