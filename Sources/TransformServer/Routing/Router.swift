// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// Matches a percent-decoded path exactly and case-sensitively against the routes of docs/api.md, "Endpoints at a
/// glance".
enum Router {
    static func match(_ path: String) -> Route? {
        path.withUTF8Bytes { match(bytes: $0) }
    }

    /// Compares the path's segments as bytes: no Substring, no String comparison, and only the model name
    /// becomes a String.
    private static func match(bytes path: UnsafeBufferPointer<UInt8>) -> Route? {
        guard path.first == UInt8(ascii: "/") else { return nil }
        let segments = Segments(UnsafeBufferPointer(rebasing: path[1...]))
        switch segments.count {
        case 1:
            let first = segments.first
            if first.equals("schemas") { return Route(kind: .schemas, template: "/schemas", methods: [.get, .post]) }
            if first.equals("health") { return Route(kind: .health, template: "/health", methods: .get) }
            if first.equals("ready") { return Route(kind: .ready, template: "/ready", methods: .get) }
            if first.equals("metrics") { return Route(kind: .metrics, template: "/metrics", methods: .get) }
            return nil
        case 2 where !segments.second.isEmpty:
            let first = segments.first
            if first.equals("rules") {
                guard segments.second.equals("evaluate") else { return nil }
                return Route(kind: .rulesEvaluate, template: "/rules/evaluate", methods: .post)
            }
            let model = String(decoding: segments.second, as: UTF8.self)  // the path is valid UTF-8
            if first.equals("convert") { return conversion(.convert, .single, "/convert/{model}", model) }
            if first.equals("normalize") { return conversion(.normalize, .single, "/normalize/{model}", model) }
            if first.equals("validate") { return conversion(.validate, .single, "/validate/{model}", model) }
            if first.equals("compare") {
                return Route(kind: .compare(model: model), template: "/compare/{model}", methods: .post)
            }
            if first.equals("merge") {
                return Route(kind: .merge(model: model), template: "/merge/{model}", methods: .post)
            }
            // Two routes on one path: `POST` imports, the other methods address the model `import` (`resolve`).
            if first.equals("schemas"), segments.second.equals("import") {
                return Route(kind: .importSchema, template: "/schemas/import", methods: .post)
            }
            if first.equals("schemas") {
                return Route(kind: .schema(model: model), template: "/schemas/{model}", methods: [.get, .put, .delete])
            }
            return nil
        case 3 where !segments.second.isEmpty:
            let (first, third) = (segments.first, segments.third)
            let model = String(decoding: segments.second, as: UTF8.self)
            if third.equals("array") {
                if first.equals("convert") { return conversion(.convert, .array, "/convert/{model}/array", model) }
                if first.equals("normalize") {
                    return conversion(.normalize, .array, "/normalize/{model}/array", model)
                }
                if first.equals("validate") { return conversion(.validate, .array, "/validate/{model}/array", model) }
            } else if third.equals("dictionary") {
                if first.equals("convert") {
                    return conversion(.convert, .dictionary, "/convert/{model}/dictionary", model)
                }
                if first.equals("normalize") {
                    return conversion(.normalize, .dictionary, "/normalize/{model}/dictionary", model)
                }
            } else if third.equals("jsonschema"), first.equals("schemas") {
                return Route(kind: .jsonSchema(model: model), template: "/schemas/{model}/jsonschema", methods: .get)
            } else if third.equals("versions"), first.equals("schemas") {
                return Route(kind: .versions(model: model), template: "/schemas/{model}/versions", methods: .get)
            } else if third.equals("config"), first.equals("schemas") {
                return Route(kind: .config(model: model), template: "/schemas/{model}/config", methods: [.get, .put])
            } else if third.equals("compatibility"), first.equals("schemas") {
                return Route(
                    kind: .compatibility(model: model), template: "/schemas/{model}/compatibility",
                    methods: .post)
            } else if third.equals("replay"), first.equals("schemas") {
                return Route(kind: .replay(model: model), template: "/schemas/{model}/replay", methods: .post)
            }
            return nil
        case 4 where !segments.second.isEmpty && !segments.fourth.isEmpty && !segments.hasMore:
            guard segments.first.equals("schemas"), segments.third.equals("versions") else { return nil }
            let model = String(decoding: segments.second, as: UTF8.self)
            let number = String(decoding: segments.fourth, as: UTF8.self)
            return Route(
                kind: .version(model: model, number: number), template: "/schemas/{model}/versions/{version}",
                methods: .get)
        default: return nil
        }
    }

    /// `/schemas/import` is two routes on one path: `POST` imports a JSON Schema document, and the other methods
    /// address the model named `import`, as `/schemas/{model}` does every other name (so every valid model name
    /// stays reachable; docs/lifecycle.md, Import). A `405` there allows both routes' methods.
    static func resolve(_ route: Route, method: HTTPMethod) -> Route {
        guard route.kind == .importSchema, method != .post else { return route }
        return Route(
            kind: .schema(model: "import"), template: "/schemas/{model}", methods: [.get, .post, .put, .delete])
    }

    /// The first four `/`-separated segments of a path without its leading `/`; `hasMore` when there are more.
    private struct Segments {
        var first = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var second = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var third = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var fourth = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var count = 0
        var hasMore = false

        init(_ text: UnsafeBufferPointer<UInt8>) {
            var start = 0
            while true {
                count += 1
                let end = text[start...].firstIndex(of: UInt8(ascii: "/")) ?? text.count
                let segment = UnsafeBufferPointer(rebasing: text[start..<end])
                switch count {
                case 1: first = segment
                case 2: second = segment
                case 3: third = segment
                default: fourth = segment
                }
                guard end < text.count else { return }
                guard count < 4 else {
                    hasMore = true
                    return
                }
                start = end + 1
            }
        }
    }

    private static func conversion(
        _ operation: Route.Operation, _ batch: Route.Batch, _ template: String,
        _ model: String
    ) -> Route {
        Route(kind: .conversion(operation, batch, model: model), template: template, methods: .post)
    }

    /// Percent-decodes a path (`%2F` becomes `/` inside a segment only after splitting would be wrong, so the
    /// path is decoded as a whole, as docs/api.md says); nil for malformed escapes or invalid UTF-8.
    static func percentDecode(_ text: Substring) -> String? {
        // Without a `%` there is nothing to decode, and the text is already valid UTF-8.
        guard offset(of: UInt8(ascii: "%"), in: text) != nil else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
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
        guard let question = offset(of: UInt8(ascii: "?"), in: rest) else { return (rest, nil) }
        let index = rest.utf8.index(rest.startIndex, offsetBy: question)
        return (rest[..<index], rest[rest.utf8.index(after: index)...])
    }

    /// The offset of the first `byte` in `text`'s UTF-8, searched in its contiguous storage when it has one (a
    /// request's strings always do) rather than through the generic UTF-8 view.
    private static func offset(of byte: UInt8, in text: Substring) -> Int? {
        if let search = text.utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: byte) }) { return search }
        return text.utf8.firstIndex(of: byte).map { text.utf8.distance(from: text.startIndex, to: $0) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly `word`'s (a route segment against a literal).
    fileprivate func equals(_ word: StaticString) -> Bool {
        count == word.utf8CodeUnitCount
            && (count == 0 || UnsafeBufferPointer(start: word.utf8Start, count: count).elementsEqual(self))
    }
}
