// SPDX-License-Identifier: Apache-2.0

@testable import MapperCore

/// One cel-spec `SimpleTest`: decides whether it uses only the supported language (and why not), then compiles and
/// evaluates it and compares with the expected value or error.
enum ConformanceCase {
    enum SkipReason: String {
        case messages = "protobuf messages and wrapper types"
        case enums = "enums"
        case optionals = "optional values"
        case unknowns = "unknowns and deduced types"
        case namespaces = "containers and namespaces"
        case extensions = "functions outside the subset"
        case timeZones = "IANA time zone names"
        case disabledMacros = "macros disabled"
    }

    enum Result {
        case passed
        case failed(String)
        case skipped(SkipReason)
    }

    static func run(_ test: TextProto) -> Result {
        let expression = test["expr"]?.text ?? ""
        if let reason = skipReason(test, expression) { return .skipped(reason) }
        var variables: [(name: String, type: RuleType)] = []
        for declaration in test.all("type_env") {
            guard let name = declaration["name"]?.text else { continue }
            guard let identifier = declaration["ident"] else { return .skipped(.extensions) }
            guard let type = staticType(identifier["type"]) else { return .skipped(.messages) }
            variables.append((name, type))
        }
        var values: [String: RuleValue] = [:]
        for binding in test.all("bindings") {
            guard let name = binding["key"]?.text else { continue }
            guard let node = binding["value"]?["value"], let converted = Self.value(node) else {
                return .skipped(.messages)
            }
            values[name] = converted
            if !variables.contains(where: { $0.name == name }) { variables.append((name, .dyn)) }
        }
        var expected: RuleValue? = .bool(true)
        if let value = test["value"] {
            guard let converted = Self.value(value) else { return .skipped(.messages) }
            expected = converted
        } else if test["eval_error"] != nil {
            expected = nil
        }
        let checks = test["disable_check"]?.text != "true"
        let program: RuleProgram
        do {
            program = try RuleProgram.compile(expression, variables: variables, checksTypes: checks)
        } catch {
            if expected == nil { return .passed }
            if error.message.hasPrefix("undeclared reference to function") { return .skipped(.extensions) }
            return .failed("does not compile: \(error)")
        }
        let bound: [RuleValue] = variables.map { values[$0.name] ?? .null }
        // An unbound variable is an evaluation error in cel-spec; declared but unbound ones are rare.
        if variables.contains(where: { values[$0.name] == nil }) {
            return expected == nil ? .passed : .failed("variable without a binding")
        }
        var budget = RuleBudget(steps: 1_000_000, size: 8_388_608)
        switch program.evaluate(bound, budget: &budget) {
        case .success(let actual):
            guard let expected else { return .failed("expected an error, got \(describe(actual))") }
            return strictlyEqual(actual, expected)
                ? .passed : .failed("expected \(describe(expected)), got \(describe(actual))")
        case .failure(let failure):
            return expected == nil ? .passed : .failed("expected \(describe(expected!)), failed: \(failure.message)")
        }
    }

    // MARK: - Which cases use more than the subset

    static func skipReason(_ test: TextProto, _ expression: String) -> SkipReason? {
        if let container = test["container"]?.text, !container.isEmpty { return .namespaces }
        if test["disable_macros"]?.text == "true" { return .disabledMacros }
        if test["typed_result"] != nil || test["unknown"] != nil || test["any_unknowns"] != nil
            || test["check_only"]?.text == "true"
        {
            return .unknowns
        }
        if test["any_eval_errors"] != nil { return .unknowns }
        if contains(test["value"], "enum_value") || expression.contains("Enum") { return .enums }
        if expression.contains("optional") || expression.contains(".?") || expression.contains("[?")
            || expression.contains("{?")
            || expression.contains("?.")
        {
            return .optionals
        }
        let messageWords = [
            "TestAllTypes", "NestedTestAllTypes", "google.protobuf.", "cel.expr.", "proto2", "proto3",
            "google.type", ".Int", "Value", "Any",
        ]
        for word in messageWords where expression.contains(word) {
            if word == "google.protobuf.",
                expression.occurrences(of: word)
                    == expression.occurrences(of: "google.protobuf.Timestamp")
                    + expression.occurrences(of: "google.protobuf.Duration")
            {
                continue
            }
            return .messages
        }
        if namesTimeZone(expression) { return .timeZones }
        for namespace in ["math.", "strings.", "base64.", "sets.", "lists.", "cel.", "encoders."]
        where expression.contains(namespace) {
            return .extensions
        }
        for function in [
            ".format(", ".quote(", ".reverse(", ".sort", ".distinct(", ".flatten(", ".slice(", "bind(",
            "transformMapEntry",
        ] where expression.contains(function) {
            return .extensions
        }
        for declaration in test.all("type_env") where declaration["function"] != nil { return .extensions }
        return nil
    }

    private static func contains(_ node: TextProto?, _ field: String) -> Bool {
        guard let node else { return false }
        return node.fields.contains { $0.name == field || contains($0.value, field) }
    }

    // MARK: - Values and types

    static func staticType(_ type: TextProto?) -> RuleType? {
        guard let type else { return .dyn }
        if let primitive = type["primitive"]?.text {
            return [
                "BOOL": .bool, "INT64": .int, "UINT64": .uint, "DOUBLE": .double, "STRING": .string, "BYTES": .bytes,
            ][primitive]
        }
        if let known = type["well_known"]?.text {
            return ["TIMESTAMP": .timestamp, "DURATION": .duration][known]
        }
        if let message = type["message_type"]?.text {
            return ["google.protobuf.Timestamp": .timestamp, "google.protobuf.Duration": .duration][message]
        }
        if type["list_type"] != nil { return .list }
        if type["map_type"] != nil { return .map }
        if type["dyn"] != nil { return .dyn }
        if type["null"] != nil { return .null }
        return nil
    }

    /// A `cel.expr.Value` as a rule value; nil for messages, enums and other kinds outside the subset.
    static func value(_ node: TextProto) -> RuleValue? {
        guard let first = node.fields.first else { return nil }
        let (kind, payload) = (first.name, first.value)
        switch kind {
        case "null_value": return .null
        case "bool_value": return .bool(payload.text == "true")
        case "int64_value": return Int64(payload.text ?? "").map { .int($0) }
        case "uint64_value": return UInt64(payload.text ?? "").map { .uint($0) }
        case "double_value":
            switch payload.text?.lowercased() {
            case "inf", "infinity": return .double(.infinity)
            case "-inf", "-infinity": return .double(-.infinity)
            case "nan": return .double(.nan)
            default: return Double(payload.text ?? "").map { .double($0) }
            }
        case "string_value": return payload.text.map { .string($0) }
        case "bytes_value": return payload.bytes.map { .bytes($0) }
        case "type_value": return payload.text.flatMap { RuleTypeName(rawValue: $0) }.map { .type($0) }
        case "list_value":
            var elements: [RuleValue] = []
            for element in payload.all("values") {
                guard let converted = value(element) else { return nil }
                elements.append(converted)
            }
            return .list(elements)
        case "map_value":
            var map = RuleMap()
            for entry in payload.all("entries") {
                guard let key = entry["key"].flatMap(value), let converted = entry["value"].flatMap(value),
                    map.insert(key, converted)
                else { return nil }
            }
            return .map(map)
        case "object_value":
            guard let member = payload.fields.first else { return nil }
            let (url, object) = (member.name, member.value)
            let seconds = Int128(object["seconds"]?.text ?? "0") ?? 0
            let nanos = Int128(object["nanos"]?.text ?? "0") ?? 0
            switch url {
            case "[type.googleapis.com/google.protobuf.Duration]": return .duration(seconds * 1_000_000_000 + nanos)
            case "[type.googleapis.com/google.protobuf.Timestamp]": return .timestamp(seconds * 1_000_000_000 + nanos)
            default: return nil
            }
        default: return nil
        }
    }

    /// Equality as the conformance files mean it: same type (an int is not a uint), NaN equal to NaN.
    static func strictlyEqual(_ a: RuleValue, _ b: RuleValue) -> Bool {
        switch (a, b) {
        case let (.double(x), .double(y)): return x == y || (x.isNaN && y.isNaN)
        case let (.list(x), .list(y)): return x.count == y.count && zip(x, y).allSatisfy(strictlyEqual)
        case let (.map(x), .map(y)):
            guard x.count == y.count else { return false }
            return x.entries.allSatisfy { entry in
                y.entries.contains {
                    $0.key.typeName == entry.key.typeName && $0.key.isEqual(to: entry.key)
                        && strictlyEqual($0.value, entry.value)
                }
            }
        default: return a.typeName == b.typeName && a.isEqual(to: b)
        }
    }

    static func describe(_ value: RuleValue) -> String {
        var out: [UInt8] = []
        (try? RuleJSON.write(value, into: &out)) ?? out.append(contentsOf: "?".utf8)
        return "\(value.typeName.rawValue) \(String(decoding: out, as: UTF8.self))"
    }
}

extension ConformanceCase {
    /// Whether a quoted string in the expression looks like an IANA zone name (`'America/Los_Angeles'`).
    static func namesTimeZone(_ expression: String) -> Bool {
        let quoted = expression.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter {
            $0.offset % 2 == 1
        }
        return quoted.contains { part in
            let pieces = part.element.split(separator: "/")
            return pieces.count >= 2 && pieces.allSatisfy { $0.first?.isLetter == true }
        }
    }
}

extension String {
    fileprivate func occurrences(of target: String) -> Int {
        let bytes = Array(utf8)
        let needle = Array(target.utf8)
        guard bytes.count >= needle.count else { return 0 }
        return (0...(bytes.count - needle.count)).filter { bytes[$0..<$0 + needle.count].elementsEqual(needle) }.count
    }
}
