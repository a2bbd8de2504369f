// SPDX-License-Identifier: Apache-2.0

/// A wire-form object being assembled from property values whose keys are key paths.
struct WireObject {
    enum Value {
        case bytes(ArraySlice<UInt8>)
        case object(WireObject)
    }

    var members: [(key: [UInt8], value: Value)] = []

    func index(of key: [UInt8]) -> Int? { members.firstIndex { $0.key == key } }

    /// Parses canonical object bytes into members (to descend into an object already written there).
    init?(parsing bytes: ArraySlice<UInt8>) {
        guard bytes.first == .openBrace else { return nil }
        var tape = JSONTape()
        let copy = Array(bytes)
        let ok: Bool = copy.withUnsafeBytes { raw in
            do throws(JSONSyntaxError) {
                try JSONScanner.scan(raw, into: &tape, maxDepth: Int.max)
            } catch { return false }
            var index = 1
            for _ in 0..<tape.tokens[0].count {
                let key = JSONStrings.decoded(tape.tokens[index], in: raw)
                let value = tape.tokens[index + 1]
                members.append((key, .bytes(copy[value.rawRange])))
                index = value.next
            }
            return true
        }
        if !ok { return nil }
    }

    init() {}

    /// Puts a value at a key path. Returns false on a conflict (a non-object already written on the way);
    /// an existing value at the place itself is kept (the first writer wins) unless `replace`.
    mutating func put(_ value: Value, at path: ArraySlice<[UInt8]>, replace: Bool) -> Bool {
        let key = path.first!
        let at = index(of: key)
        if path.count == 1 {
            guard let at else { members.append((key, value)); return true }
            if replace { members[at].value = value }
            return true
        }
        var child: WireObject
        if let at {
            switch members[at].value {
            case .object(let existing): child = existing
            case .bytes(let bytes):
                guard let parsed = WireObject(parsing: bytes) else {
                    if !replace { return false }
                    child = WireObject()
                    break
                }
                child = parsed
            }
        } else {
            child = WireObject()
        }
        let placed = child.put(value, at: path.dropFirst(), replace: replace)
        if let at { members[at].value = .object(child) } else { members.append((key, .object(child))) }
        return placed
    }

    mutating func remove(at path: ArraySlice<[UInt8]>) {
        guard let at = index(of: path.first!) else { return }
        if path.count == 1 { members.remove(at: at); return }
        var child: WireObject
        switch members[at].value {
        case .object(let existing): child = existing
        case .bytes(let bytes):
            guard let parsed = WireObject(parsing: bytes) else { return }
            child = parsed
        }
        child.remove(at: path.dropFirst())
        members[at].value = .object(child)
    }

    func write(into out: inout some ByteSink) {
        out.append(.openBrace)
        for (i, member) in members.enumerated() {
            if i > 0 { out.append(.comma) }
            JSONStrings.writeQuoted(member.key, into: &out)
            out.append(.colon)
            switch member.value {
            case .bytes(let bytes): out.append(contentsOf: bytes)
            case .object(let object): object.write(into: &out)
            }
        }
        out.append(.closeBrace)
    }
}

extension Converter {
    /// Re-writes the object at `out[start...]` (values only, in `spans`) in wire form: key paths create or descend
    /// into nested objects, the first writer of a place wins, a path crossing a non-object is `output_conflict`;
    /// then the model's `transformToJSON` (`omit`, then `set`).
    mutating func assembleWireObject(
        _ model: CompiledModel, spans: [(property: Int, start: Int, end: Int)], from start: Int
    ) {
        var object = WireObject()
        for span in spans {
            let property = model.properties[span.property]
            let key = property.keys[0]
            if !object.put(
                .bytes(ArraySlice(out.bytes(span.start..<span.end))), at: key.components[...], replace: false)
            {
                let depth = path.depth
                for component in key.components { path.push(.literal(component)) }
                warn(
                    Issue(
                        code: .outputConflict,
                        message:
                            "\(property.name) is not written: its key path \"\(key.source)\" crosses a value that is not an object"
                    ))
                path.truncate(to: depth)
            }
        }
        if let steps = model.transformToJSON {
            for name in steps.omit {
                if let property = model.properties.first(where: { $0.name == name }) {
                    object.remove(at: property.keys[0].components[...])
                }
            }
            for (key, value) in steps.set {
                _ = object.put(.bytes(value.bytes[...]), at: key.components[...], replace: true)
            }
        }
        var rewritten: [UInt8] = []
        object.write(into: &rewritten)
        out.replace(from: start, with: rewritten)
    }

    /// Wraps the wire object at `out[start...]` under the declared model's `unwrap` key path, so `/normalize`
    /// output is valid input for the same model.
    mutating func wrapUnwrapped(_ declared: CompiledModel, from start: Int) {
        guard let unwrap = declared.willTransform?.unwrap else { return }
        var prefix: [UInt8] = []
        for component in unwrap.components {
            prefix.append(.openBrace)
            JSONStrings.writeQuoted(component, into: &prefix)
            prefix.append(.colon)
        }
        out.insert(prefix, at: start)
        for _ in unwrap.components { out.append(.closeBrace) }
    }
}
