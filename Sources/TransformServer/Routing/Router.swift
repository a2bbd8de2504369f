// SPDX-License-Identifier: Apache-2.0

/// Matches a percent-decoded path exactly and case-sensitively against the routes of API.md.
enum Router {
    static func match(_ path: String) -> Route? {
        guard path.utf8.first == UInt8(ascii: "/") else { return nil }
        // Up to three segments after the leading `/`, as substrings of the path (no copies; only the model name
        // becomes a String), found by searching for the `/` byte: no array, and no walk over grapheme clusters.
        let segments = Segments(path[path.utf8.index(after: path.utf8.startIndex)...])
        switch segments.count {
        case 1:
            switch segments.first {
            case "schemas": return Route(kind: .schemas, template: "/schemas", methods: Methods.getPost)
            case "health": return Route(kind: .health, template: "/health", methods: Methods.get)
            case "ready": return Route(kind: .ready, template: "/ready", methods: Methods.get)
            case "metrics": return Route(kind: .metrics, template: "/metrics", methods: Methods.get)
            default: return nil
            }
        case 2 where !segments.second.isEmpty:
            let model = String(segments.second)
            switch segments.first {
            case "convert": return conversion(.convert, .single, "/convert/{model}", model)
            case "normalize": return conversion(.normalize, .single, "/normalize/{model}", model)
            case "validate": return conversion(.validate, .single, "/validate/{model}", model)
            case "compare": return Route(kind: .compare, template: "/compare/{model}", model: model, methods: Methods.post)
            case "schemas":
                return Route(kind: .schema, template: "/schemas/{model}", model: model, methods: Methods.getPutDelete)
            default: return nil
            }
        case 3 where !segments.second.isEmpty:
            let model = String(segments.second)
            switch (segments.first, segments.third) {
            case ("convert", "array"): return conversion(.convert, .array, "/convert/{model}/array", model)
            case ("normalize", "array"): return conversion(.normalize, .array, "/normalize/{model}/array", model)
            case ("validate", "array"): return conversion(.validate, .array, "/validate/{model}/array", model)
            case ("convert", "dictionary"): return conversion(.convert, .dictionary, "/convert/{model}/dictionary", model)
            case ("normalize", "dictionary"):
                return conversion(.normalize, .dictionary, "/normalize/{model}/dictionary", model)
            case ("schemas", "jsonschema"):
                return Route(kind: .jsonSchema, template: "/schemas/{model}/jsonschema", model: model, methods: Methods.get)
            default: return nil
            }
        default: return nil
        }
    }

    /// The first three `/`-separated segments of a path without its leading `/`; `count` is 4 when there are more.
    private struct Segments {
        var first: Substring = ""
        var second: Substring = ""
        var third: Substring = ""
        var count = 0

        init(_ text: Substring) {
            var rest = text
            while count < 4 {
                count += 1
                let end = rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
                switch count {
                case 1: first = rest[..<end]
                case 2: second = rest[..<end]
                case 3: third = rest[..<end]
                default: break
                }
                guard end < rest.endIndex else { return }
                rest = rest[rest.utf8.index(after: end)...]
            }
        }
    }

    private static func conversion(_ operation: Route.Operation, _ batch: Route.Batch, _ template: String,
                                   _ model: String) -> Route {
        Route(kind: .conversion(operation, batch), template: template, model: model, methods: Methods.post)
    }

    /// The method lists, built once.
    private enum Methods {
        static let get = ["GET"]
        static let post = ["POST"]
        static let getPost = ["GET", "POST"]
        static let getPutDelete = ["GET", "PUT", "DELETE"]
    }

    /// Percent-decodes a path (`%2F` becomes `/` inside a segment only after splitting would be wrong, so the
    /// path is decoded as a whole, as API.md says); nil for malformed escapes or invalid UTF-8.
    static func percentDecode(_ text: Substring) -> String? {
        // Without a `%` there is nothing to decode, and the text is already valid UTF-8.
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
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
        if rest.utf8.first != UInt8(ascii: "/"), let schemeEnd = rest.firstRange(of: "://") {
            let afterAuthority = rest[schemeEnd.upperBound...]
            rest = afterAuthority.utf8.firstIndex(of: UInt8(ascii: "/")).map { afterAuthority[$0...] } ?? "/"
        }
        // Searched as bytes: `?` is ASCII, and a Character search would walk grapheme clusters.
        if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            return (rest[..<question], rest[rest.utf8.index(after: question)...])
        }
        return (rest, nil)
    }
}
