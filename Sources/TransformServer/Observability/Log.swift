// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#endif

/// Server events as one JSON line each on standard error (the access log has standard output to itself); their
/// names are the vocabulary `Log.Event` (`Log+Events.swift`).
enum Log {
    static func event(_ event: Event, _ fields: [(String, String)] = []) {
        var line: [UInt8] = Array("{\"event\":".utf8) + ErrorResponse.jsonString(event.rawValue)
        for (key, value) in fields {
            line += Array(",".utf8) + ErrorResponse.jsonString(key) + [UInt8(ascii: ":")] + ErrorResponse.jsonString(value)
        }
        line += Array("}\n".utf8)
        line.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }

    static func event(_ event: Event, _ fields: [String: String]) {
        self.event(event, fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
