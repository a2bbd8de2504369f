// SPDX-License-Identifier: Apache-2.0

import MapperCore

#if canImport(Glibc)
    import Glibc
#endif

/// Server events as one JSON line each on standard error (the access log has standard output to itself); their
/// names are the vocabulary `Log.Event` (`Log+Events.swift`).
enum Log {
    static func event(_ event: Event, _ fields: [(String, String)] = []) {
        var line: [UInt8] = Array("{\"event\":".utf8)
        line.appendJSONString(event.rawValue)
        for (key, value) in fields {
            line.append(UInt8(ascii: ","))
            line.appendJSONString(key)
            line.append(UInt8(ascii: ":"))
            line.appendJSONString(value)
        }
        line += Array("}\n".utf8)
        line.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }

    static func event(_ event: Event, _ fields: [String: String]) {
        self.event(event, fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
