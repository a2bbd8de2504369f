// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials

/// The gateway's JSON shapes (etcd's protobuf messages in proto3 JSON: 64-bit numbers as strings, bytes as base64,
/// members with zero values left out), and the plain values the client hands out instead.

/// One key with its value and revisions.
struct EtcdKeyValue: Sendable {
    var key: [UInt8]
    var value: [UInt8]
    /// The revision of the key's last change.
    var modRevision: Int
}

/// A range read: the keys and the store's revision when they were read.
struct EtcdRange: Sendable {
    var revision: Int
    var kvs: [EtcdKeyValue]

    init(_ response: RangeResponse) {
        revision = response.header?.revisionNumber ?? 0
        kvs = (response.kvs ?? []).map(EtcdKeyValue.init)
    }
}

/// A comparison of a transaction: the key's last-change revision equals `modRevision` (0: the key is absent).
struct EtcdCompare: Sendable {
    var key: [UInt8]
    var modRevision: Int

    var json: String {
        "{\"key\":\"\(EtcdClient.base64(key))\",\"target\":\"MOD\",\"result\":\"EQUAL\",\"mod_revision\":\"\(modRevision)\"}"
    }
}

/// One operation of a transaction.
enum EtcdOperation: Sendable {
    case put(key: [UInt8], value: [UInt8])
    case delete(key: [UInt8])
    /// Every key in `[key, end)`.
    case range(key: [UInt8], end: [UInt8])

    var json: String {
        switch self {
        case .put(let key, let value):
            "{\"request_put\":{\"key\":\"\(EtcdClient.base64(key))\",\"value\":\"\(EtcdClient.base64(value))\"}}"
        case .delete(let key):
            "{\"request_delete_range\":{\"key\":\"\(EtcdClient.base64(key))\"}}"
        case .range(let key, let end):
            "{\"request_range\":{\"key\":\"\(EtcdClient.base64(key))\",\"range_end\":\"\(EtcdClient.base64(end))\"}}"
        }
    }
}

/// A transaction's outcome: whether the comparisons held, the revision, and the reads of the branch taken.
struct EtcdTxnResult: Sendable {
    var succeeded: Bool
    var revision: Int
    var reads: [EtcdRange]
}

/// One message of a watch stream.
struct EtcdWatchResponse: Sendable {
    /// A change of a watched key: a put (new value) or a delete.
    struct Event: Sendable {
        var isDelete: Bool
        var kv: EtcdKeyValue
    }

    var revision: Int
    var created: Bool
    var canceled: Bool
    /// Non-zero when the watch's start revision was compacted: the oldest revision still kept.
    var compactRevision: Int
    var cancelReason: String
    var events: [Event]

    init(_ result: WatchResult) {
        revision = result.header?.revisionNumber ?? 0
        created = result.created ?? false
        canceled = result.canceled ?? false
        compactRevision = Int(result.compact_revision ?? "") ?? 0
        cancelReason = result.cancel_reason ?? ""
        events = (result.events ?? []).map { Event(isDelete: $0.type == "DELETE", kv: EtcdKeyValue($0.kv)) }
    }
}

// MARK: - Wire

struct ResponseHeader: Decodable {
    var revision: String?
    var revisionNumber: Int { Int(revision ?? "") ?? 0 }
}

// Members named in snake_case are etcd's own JSON names, decoded as they are (hence the swift-format-ignore lines).
struct WireKeyValue: Decodable {
    var key: String?
    var value: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var mod_revision: String?
}

extension EtcdKeyValue {
    init(_ wire: WireKeyValue) {
        key = wire.key.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? []
        value = wire.value.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? []
        modRevision = Int(wire.mod_revision ?? "") ?? 0
    }
}

struct RangeResponse: Decodable {
    var header: ResponseHeader?
    var kvs: [WireKeyValue]?
}

struct HeaderOnly: Decodable {
    var header: ResponseHeader?
}

struct TxnResponse: Decodable {
    struct Op: Decodable {
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var response_range: RangeResponse?
    }

    var header: ResponseHeader?
    var succeeded: Bool?
    var responses: [Op]?
}

struct WatchResult: Decodable {
    struct WireEvent: Decodable {
        var type: String?
        var kv: WireKeyValue
    }

    var header: ResponseHeader?
    var created: Bool?
    var canceled: Bool?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var compact_revision: String?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var cancel_reason: String?
    var events: [WireEvent]?
}

struct WatchLine: Decodable {
    var result: WatchResult?
    var error: GatewayError?
}

struct GatewayError: Decodable {
    var error: String?
    var code: Int?
    var message: String?
}

struct AuthResponse: Decodable {
    var token: String?
}
