// SPDX-License-Identifier: Apache-2.0

/// Matches a percent-decoded path exactly and case-sensitively against the routes of API.md.
enum Router {
    static func match(_ path: String) -> Route? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.first == "", parts.count >= 2 else { return nil }
        let segments = Array(parts.dropFirst())
        switch segments.count {
        case 1:
            switch segments[0] {
            case "schemas": return Route(kind: .schemas, template: "/schemas", methods: ["GET", "POST"])
            case "health": return Route(kind: .health, template: "/health", methods: ["GET"])
            case "ready": return Route(kind: .ready, template: "/ready", methods: ["GET"])
            case "metrics": return Route(kind: .metrics, template: "/metrics", methods: ["GET"])
            default: return nil
            }
        case 2 where !segments[1].isEmpty:
            let model = segments[1]
            switch segments[0] {
            case "convert", "normalize", "validate":
                return Route(kind: .conversion(Route.Operation(rawValue: segments[0])!, .single),
                             template: "/\(segments[0])/{model}", model: model, methods: ["POST"])
            case "compare": return Route(kind: .compare, template: "/compare/{model}", model: model, methods: ["POST"])
            case "schemas":
                return Route(kind: .schema, template: "/schemas/{model}", model: model, methods: ["GET", "PUT", "DELETE"])
            default: return nil
            }
        case 3 where !segments[1].isEmpty:
            let model = segments[1]
            switch (segments[0], segments[2]) {
            case ("convert", "array"), ("normalize", "array"), ("validate", "array"),
                 ("convert", "dictionary"), ("normalize", "dictionary"):
                return Route(kind: .conversion(Route.Operation(rawValue: segments[0])!, Route.Batch(rawValue: segments[2])!),
                             template: "/\(segments[0])/{model}/\(segments[2])", model: model, methods: ["POST"])
            case ("schemas", "jsonschema"):
                return Route(kind: .jsonSchema, template: "/schemas/{model}/jsonschema", model: model, methods: ["GET"])
            default: return nil
            }
        default: return nil
        }
    }

    /// Percent-decodes a path (`%2F` becomes `/` inside a segment only after splitting would be wrong, so the
    /// path is decoded as a whole, as API.md says); nil for malformed escapes or invalid UTF-8.
    static func percentDecode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Splits a request target into its path and query; absolute-form targets lose their scheme and authority.
    static func split(target: String) -> (path: Substring, query: Substring?) {
        var rest = Substring(target)
        // Origin form ("/path?query") is what clients send; only absolute form needs the authority cut off.
        if rest.first != "/", let schemeEnd = rest.firstRange(of: "://") {
            let afterAuthority = rest[schemeEnd.upperBound...]
            rest = afterAuthority.firstIndex(of: "/").map { afterAuthority[$0...] } ?? "/"
        }
        if let question = rest.firstIndex(of: "?") {
            return (rest[..<question], rest[rest.index(after: question)...])
        }
        return (rest, nil)
    }
}
