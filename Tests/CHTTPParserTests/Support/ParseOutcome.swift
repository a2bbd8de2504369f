// SPDX-License-Identifier: Apache-2.0

import CHTTPParser

/// One call of chp_parse_request, as a value tests can compare: every field and offset is included, so two equal
/// outcomes are identical results.
enum ParseOutcome: Equatable, CustomStringConvertible {
    case incomplete
    case rejected(chp_error_code, offset: Int)
    case head(ParsedHead)

    /// Parses `bytes` with a field array of `capacity` entries (default: the limit).
    static func parse(_ bytes: [UInt8], limits: chp_limits = .standard, capacity: Int? = nil) -> ParseOutcome {
        var limits = limits
        var fields = Array(repeating: chp_header(), count: capacity ?? limits.max_headers)
        var request = chp_request()
        let result = bytes.withUnsafeBufferPointer { buffer in
            fields.withUnsafeMutableBufferPointer { storage in
                request.headers = storage.baseAddress
                request.max_headers = storage.count
                return buffer.withMemoryRebound(to: CChar.self) { chars in
                    chp_parse_request(chars.baseAddress, chars.count, &limits, &request)
                }
            }
        }
        switch result {
        case Int(CHP_INCOMPLETE):
            return .incomplete
        case Int(CHP_ERROR):
            return .rejected(chp_error_code(rawValue: UInt32(request.error_code)), offset: request.error_offset)
        default:
            return .head(ParsedHead(request, fields: fields, length: result, bytes: bytes))
        }
    }

    /// The head, or nil when the outcome is not one.
    var head: ParsedHead? {
        if case .head(let head) = self { head } else { nil }
    }

    var description: String {
        switch self {
        case .incomplete: "incomplete"
        case .rejected(let code, let offset): "rejected(\(code.rawValue), offset: \(offset))"
        case .head(let head): "head(\(head))"
        }
    }
}

/// A successfully parsed head: the texts the offsets point at, and the offsets themselves.
struct ParsedHead: Equatable {
    struct Field: Equatable {
        var name: String
        var value: String
        var offsets: [Int]  // name_off, name_len, value_off, value_len
    }

    var length: Int
    var method: String
    var target: String
    var methodOffset: Int
    var targetOffset: Int
    var versionMinor: Int32
    var fields: [Field]
    var contentLength: UInt64?
    var chunked: Bool
    var hasTransferEncoding: Bool
    var expectContinue: Bool
    var connectionClose: Bool
    var connectionKeepAlive: Bool
    var hostCount: Int

    init(_ request: chp_request, fields: [chp_header], length: Int, bytes: [UInt8]) {
        func text(_ offset: Int, _ count: Int) -> String {
            String(decoding: bytes[offset..<offset + count], as: UTF8.self)
        }
        self.length = length
        method = text(request.method_off, request.method_len)
        target = text(request.target_off, request.target_len)
        methodOffset = request.method_off
        targetOffset = request.target_off
        versionMinor = request.version_minor
        self.fields = fields.prefix(request.num_headers).map { field in
            Field(
                name: text(field.name_off, field.name_len),
                value: text(field.value_off, field.value_len),
                offsets: [field.name_off, field.name_len, field.value_off, field.value_len]
            )
        }
        contentLength = request.has_content_length != 0 ? request.content_length : nil
        chunked = request.chunked != 0
        hasTransferEncoding = request.has_transfer_encoding != 0
        expectContinue = request.expect_continue != 0
        connectionClose = request.connection_close != 0
        connectionKeepAlive = request.connection_keep_alive != 0
        hostCount = request.host_count
    }

    /// The value of the first field named `name`, exactly as spelled.
    func value(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }
}

extension chp_limits {
    /// The defaults of docs/api.md, "Limits".
    static let standard = chp_limits(max_target: 8192, max_header_bytes: 16384, max_headers: 100)
}
