// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// docs/lifecycle.md, Compatibility: "compatible" must be true. Random pairs of versions (a random model and a
/// random mutation of it) and random documents: whenever the check passes a pair as backward compatible, every
/// document the earlier version accepts in strict mode is accepted by the later one, and symmetrically for
/// forward. The check may refuse a compatible change (a false alarm), never pass a breaking one.
struct CompatibilitySoundnessTests {
    typealias Random = NumberFixture.Random

    /// One property of a generated model.
    struct Property {
        var name: String
        var keys: [String]
        var type: String
        var constraints: [String: String] = [:]
        var required = false

        var json: String {
            var members = ["\"type\":\"\(type)\""]
            if keys != [name] {
                members.append(
                    "\"key\":"
                        + (keys.count == 1
                            ? "\"\(keys[0])\"" : "[" + keys.map { "\"\($0)\"" }.joined(separator: ",") + "]"))
            }
            for (key, value) in constraints.sorted(by: { $0.key < $1.key }) { members.append("\"\(key)\":\(value)") }
            if required { members.append("\"required\":true") }
            return "\"\(name)\":{" + members.joined(separator: ",") + "}"
        }
    }

    struct Model {
        var properties: [Property]
        var rejects = false

        var json: String {
            "{\"name\":\"M\"" + (rejects ? ",\"unknownKeys\":\"reject\"" : "")
                + ",\"properties\":{" + properties.map(\.json).joined(separator: ",") + "}}"
        }
    }

    static let scalarTypes = [
        "int8", "int16", "int32", "int64", "uint8", "double", "float", "decimal", "number",
        "string", "bool", "any", "url", "date",
    ]
    static let keyPool = ["a", "b", "c", "d", "e"]

    static func randomType(_ random: inout Random) -> String {
        let types = scalarTypes + ["array", "dictionary"]
        return types.randomElement(using: &random)!
    }

    static func randomConstraints(_ type: String, _ random: inout Random) -> [String: String] {
        var result: [String: String] = [:]
        switch type {
        case "int8", "int16", "int32", "int64", "uint8", "double", "decimal":
            if Bool.random(using: &random) {
                result["minimum"] = ["-5", "0", "1", "10"].randomElement(using: &random)!
            }
            if Bool.random(using: &random) {
                result["maximum"] = ["5", "20", "100", "127"].randomElement(using: &random)!
            }
        case "string":
            if Bool.random(using: &random) { result["minLength"] = ["0", "1", "2"].randomElement(using: &random)! }
            if Bool.random(using: &random) { result["maxLength"] = ["1", "3", "6"].randomElement(using: &random)! }
            if Int.random(in: 0..<4, using: &random) == 0 {
                result["enum"] = ["[\"a\",\"abc\"]", "[\"a\"]", "[\"a\",\"abc\",\"12\"]"].randomElement(using: &random)!
            }
        default: break
        }
        return result
    }

    static func randomProperty(_ name: String, _ random: inout Random) -> Property {
        let type = randomType(&random)
        var property = Property(
            name: name, keys: [name], type: type,
            constraints: randomConstraints(type, &random),
            required: Int.random(in: 0..<4, using: &random) == 0)
        if type == "array" || type == "dictionary" {
            property.constraints["of"] = "\"" + ["int8", "string", "double"].randomElement(using: &random)! + "\""
        }
        if Int.random(in: 0..<5, using: &random) == 0 {
            property.keys = [name, keyPool.randomElement(using: &random)!.uppercased()]
        }
        return property
    }

    static func randomModel(_ random: inout Random) -> Model {
        let names = keyPool.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))
        return Model(
            properties: names.map { randomProperty($0, &random) }, rejects: Int.random(in: 0..<3, using: &random) == 0)
    }

    /// One random change, of the kinds users make.
    static func mutate(_ model: Model, _ random: inout Random) -> Model {
        var next = model
        let index = Int.random(in: 0..<next.properties.count, using: &random)
        switch Int.random(in: 0..<9, using: &random) {
        case 0:
            next.properties[index].type = randomType(&random)
            next.properties[index].constraints = randomConstraints(next.properties[index].type, &random)
            if ["array", "dictionary"].contains(next.properties[index].type) {
                next.properties[index].constraints["of"] =
                    "\"" + ["int8", "string", "double"].randomElement(using: &random)! + "\""
            }
        case 1:
            next.properties[index].constraints = randomConstraints(next.properties[index].type, &random)
            if let of = model.properties[index].constraints["of"] { next.properties[index].constraints["of"] = of }
        case 2: next.properties[index].required.toggle()
        case 3:
            let unused = keyPool.filter { key in !next.properties.contains { $0.name == key } }
            if let name = unused.randomElement(using: &random) { next.properties.append(randomProperty(name, &random)) }
        case 4: if next.properties.count > 1 { next.properties.remove(at: index) }
        case 5: next.properties[index].keys.append(keyPool.randomElement(using: &random)!.uppercased())
        case 6: next.properties[index].keys = [keyPool.randomElement(using: &random)! + "x"]
        case 7: next.rejects.toggle()
        default:
            // A widening the check must accept: a looser bound or an integer type one size up.
            let widened = ["int8": "int16", "int16": "int32", "int32": "int64", "float": "double", "uint8": "int16"]
            if let wider = widened[next.properties[index].type] { next.properties[index].type = wider }
            next.properties[index].constraints["maximum"] = nil
            next.properties[index].constraints["maxLength"] = nil
            next.properties[index].constraints["enum"] = nil
        }
        return next
    }

    static let values = [
        "0", "1", "-1", "5", "-7", "12", "127", "128", "300", "40000", "3000000000", "1.5", "-2.25", "1e2",
        "true", "false", "null", "\"\"", "\"a\"", "\"abc\"", "\"abcdefg\"", "\"12\"", "\"1.5\"",
        "\"2020-01-02T03:04:05Z\"", "\"http://x.org/a\"", "\"true\"", "[1,2]", "[\"a\"]", "[]", "{}",
        "{\"k\":\"v\"}", "{\"k\":1}",
    ]

    static func randomDocument(_ keys: [String], _ random: inout Random) -> String {
        var members: [String] = []
        for key in keys where Int.random(in: 0..<4, using: &random) != 0 {
            members.append("\"\(key)\":" + values.randomElement(using: &random)!)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func acceptsStrictly(_ snapshot: RegistrySnapshot, _ document: String) -> Bool {
        var options = ConversionOptions()
        options.mode = .strict
        let bytes = Array(document.utf8)
        if case .success = bytes.withUnsafeBytes({ body in
            Result { () throws(MappingError) in try snapshot.validate(body, model: "M", options: options) }
        }) {
            return true
        }
        return false
    }

    @Test
    func compatibleMeansEveryDocumentTheEarlierVersionAcceptsIsStillAccepted() throws {
        var random = Random(seed: 24)
        var judged = (backward: 0, forward: 0, documents: 0)
        for _ in 0..<1_000 {
            let old = Self.randomModel(&random)
            var new = Self.mutate(old, &random)
            if Bool.random(using: &random) { new = Self.mutate(new, &random) }
            let registry = SchemaRegistry()
            guard (try? registry.apply(upserts: [SchemaRegistryTests.file(old.json)], deletes: [])) != nil,
                let proposed = try? registry.propose(SchemaRegistryTests.file(new.json))
            else { continue }
            let current = registry.current
            let keys = Array(Set(Self.keyPool + Self.keyPool.map { $0.uppercased() } + Self.keyPool.map { $0 + "x" }))
                .sorted()
            var candidates: [String] = []
            for _ in 0..<60 {
                candidates.append(Self.randomDocument(keys.shuffled(using: &random).prefix(5).map { $0 }, &random))
            }
            for (level, backward) in [(CompatibilityLevel.backward, true), (.forward, false)] {
                var report = CompatibilityReport()
                current.checkCompatibility(of: "M", proposed: proposed, level: level, view: .input, into: &report)
                guard report.isCompatible else { continue }
                if backward { judged.backward += 1 } else { judged.forward += 1 }
                let (from, to) = backward ? (current, proposed) : (proposed, current)
                for document in candidates where Self.acceptsStrictly(from, document) {
                    judged.documents += 1
                    #expect(
                        Self.acceptsStrictly(to, document),
                        "\(level) judged compatible, but \(document) is accepted by \(backward ? old.json : new.json) and rejected by \(backward ? new.json : old.json)"
                    )
                }
            }
        }
        // The check must pass a fair share of the pairs, or this test proves nothing.
        #expect(judged.backward >= 150, "only \(judged.backward) pairs judged backward compatible")
        #expect(judged.forward >= 150, "only \(judged.forward) pairs judged forward compatible")
        #expect(judged.documents >= 5_000, "only \(judged.documents) documents checked")
    }
}
