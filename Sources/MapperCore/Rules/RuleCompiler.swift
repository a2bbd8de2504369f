// SPDX-License-Identifier: Apache-2.0

/// Resolves and type-checks a parsed expression into a `RuleNode` tree (docs/rules.md, "Types"): every name must
/// be a declared variable, a macro variable in scope or a type name; every function must exist with an overload
/// that fits the arguments' static types (`dyn` fits everything). Recursion is bounded by the parser's depth limit.
struct RuleCompiler {
    private let variables: [String: (slot: Int, type: RuleType)]
    private var scopes: [(name: String, slot: Int)] = []
    private(set) var slotCount: Int
    /// For each declared variable, the fields the expression selects from it, or nil once it is used whole.
    private(set) var fieldsUsed: [Int: Set<String>?] = [:]
    /// Variables whose `v.field` selections read a member slot the caller fills (`RuleNode.member`), so that the
    /// caller need not build the whole map; `members` lists them in slot order.
    private let memberVariables: Set<Int>
    private(set) var members: [(variable: Int, field: String)] = []

    /// False to resolve names and functions only, with every static type taken as `dyn` (cel-spec's unchecked
    /// evaluation, which the conformance suite asks for in some cases).
    private let checksTypes: Bool

    init(variables: [(name: String, type: RuleType)], checksTypes: Bool = true, memberVariables: Set<Int> = []) {
        self.checksTypes = checksTypes
        self.memberVariables = memberVariables
        var table: [String: (Int, RuleType)] = [:]
        for (slot, variable) in variables.enumerated() { table[variable.name] = (slot, variable.type) }
        self.variables = table
        slotCount = variables.count
    }

    static let typeNames: [String: RuleTypeName] = [
        "int": .int, "uint": .uint, "double": .double, "bool": .bool, "string": .string, "bytes": .bytes,
        "list": .list, "map": .map, "null_type": .null, "type": .type,
        "google.protobuf.Timestamp": .timestamp, "google.protobuf.Duration": .duration,
    ]

    mutating func compile(_ syntax: RuleSyntax) throws(RuleSyntaxError) -> (node: RuleNode, type: RuleType) {
        switch syntax.kind {
        case .literal(let value):
            return (.constant(value), RuleCompiler.staticType(of: value))
        case .identifier(let name):
            return try resolve(name, at: syntax.offset, wholeUse: true)
        case .select(let operand, let field, let test):
            if !test, let qualified = RuleCompiler.qualifiedName(syntax) {
                // A dotted name may itself be declared (`a.b.c`); the longest declared prefix wins.
                if variables[qualified] != nil, !scopes.contains(where: { qualified.hasPrefix($0.name + ".") }) {
                    return try resolve(qualified, at: syntax.offset, wholeUse: true)
                }
                if lookup(qualified) == nil, let type = RuleCompiler.typeNames[qualified] {
                    return (.constant(.type(type)), .type)
                }
            }
            let (node, type) = try compileOperand(operand, field: field)
            if case .variable(let slot) = node, memberVariables.contains(slot) {
                let index = members.firstIndex { $0.variable == slot && $0.field == field } ?? members.count
                if index == members.count { members.append((slot, field)) }
                return test ? (.memberTest(index), .bool) : (.member(index, field), .dyn)
            }
            guard !checksTypes || type == .map || type == .dyn else {
                throw RuleSyntaxError(offset: syntax.offset, message: "type '\(type.celName)' has no field '\(field)'")
            }
            return test ? (.test(node, field), .bool) : (.select(node, field), .dyn)
        case .call(let name, let target, let arguments):
            return try compileCall(name, target: target, arguments, at: syntax.offset)
        case .list(let elements):
            var nodes: [RuleNode] = []
            for element in elements { nodes.append(try compile(element).node) }
            return (.list(nodes), .list)
        case .map(let entries):
            var nodes: [(RuleNode, RuleNode)] = []
            for (key, value) in entries {
                let compiledKey = try compile(key)
                if checksTypes, ![.dyn, .int, .uint, .bool, .string].contains(compiledKey.type) {
                    throw RuleSyntaxError(
                        offset: key.offset, message: "map keys cannot be of type '\(compiledKey.type.celName)'")
                }
                nodes.append((compiledKey.node, try compile(value).node))
            }
            return (.map(nodes), .map)
        case .comprehension(let macro, let range, let names, let arguments):
            return try compileComprehension(macro, range: range, names, arguments, at: syntax.offset)
        }
    }

    private func lookup(_ name: String) -> (slot: Int, type: RuleType)? {
        if let scoped = scopes.last(where: { $0.name == name }) { return (scoped.slot, .dyn) }
        return variables[name]
    }

    private mutating func resolve(_ name: String, at offset: Int, wholeUse: Bool) throws(RuleSyntaxError) -> (
        node: RuleNode, type: RuleType
    ) {
        if let found = lookup(name) {
            if wholeUse, found.slot < variables.count { fieldsUsed[found.slot] = .some(nil) }
            return (.variable(found.slot), found.type)
        }
        if let type = RuleCompiler.typeNames[name] { return (.constant(.type(type)), .type) }
        if !checksTypes { return (.failure("undeclared reference to '\(name)'"), .dyn) }
        throw RuleSyntaxError(offset: offset, message: "undeclared reference to '\(name)'")
    }

    /// An operand of a field selection: a declared variable is noted as used for that field only.
    private mutating func compileOperand(_ operand: RuleSyntax, field: String) throws(RuleSyntaxError) -> (
        node: RuleNode, type: RuleType
    ) {
        guard case .identifier(let name) = operand.kind else { return try compile(operand) }
        let resolved = try resolve(name, at: operand.offset, wholeUse: false)
        if case .variable(let slot) = resolved.node, slot < variables.count {
            switch fieldsUsed[slot] {
            case .none: fieldsUsed[slot] = .some([field])
            case .some(.some(var fields)):
                fields.insert(field)
                fieldsUsed[slot] = .some(fields)
            case .some(.none): break
            }
        }
        return resolved
    }

    private static func qualifiedName(_ syntax: RuleSyntax) -> String? {
        switch syntax.kind {
        case .identifier(let name): return name
        case .select(let operand, let field, false): return qualifiedName(operand).map { "\($0).\(field)" }
        default: return nil
        }
    }

    static func staticType(of value: RuleValue) -> RuleType {
        switch value.typeName {
        case .null: .null
        case .timestamp: .timestamp
        case .duration: .duration
        case let name: RuleType(rawValue: name.rawValue) ?? .dyn
        }
    }

    // MARK: - Calls

    private mutating func compileCall(
        _ name: String, target: RuleSyntax?, _ arguments: [RuleSyntax],
        at offset: Int
    ) throws(RuleSyntaxError) -> (node: RuleNode, type: RuleType) {
        var compiled: [(node: RuleNode, type: RuleType)] = []
        if let target { compiled.append(try compile(target)) }
        for argument in arguments { compiled.append(try compile(argument)) }
        let types = checksTypes ? compiled.map(\.type) : compiled.map { _ in RuleType.dyn }
        let nodes = compiled.map(\.node)
        switch name {
        case "_&&_", "_||_":
            for (i, type) in types.enumerated() where checksTypes && !type.fits(.bool) {
                throw RuleSyntaxError(
                    offset: arguments[i].offset,
                    message: "'\(name == "_&&_" ? "&&" : "||")' needs bool operands, not '\(type.celName)'")
            }
            return (name == "_&&_" ? .and(nodes[0], nodes[1]) : .or(nodes[0], nodes[1]), .bool)
        case "_?_:_":
            guard !checksTypes || types[0].fits(.bool) else {
                throw RuleSyntaxError(
                    offset: arguments[0].offset,
                    message: "the condition of '?:' must be bool, not '\(types[0].celName)'")
            }
            return (.conditional(nodes[0], nodes[1], nodes[2]), types[1] == types[2] ? types[1] : .dyn)
        default: break
        }
        guard let builtin = RuleBuiltin.byName[name] else {
            if !checksTypes { return (.failure("no such function: \(name)"), .dyn) }
            throw RuleSyntaxError(offset: offset, message: "undeclared reference to function '\(name)'")
        }
        switch (builtin.style, target != nil) {
        case (.global, true): throw RuleSyntaxError(offset: offset, message: "\(name)() cannot be called on a value")
        case (.receiver, false):
            throw RuleSyntaxError(offset: offset, message: "\(name)() must be called on a value, as x.\(name)(…)")
        default: break
        }
        let result = try RuleCompiler.resultType(builtin, types, name: name, at: offset)
        if builtin == .matches, case .constant(.string(let source)) = nodes[1] {
            do {
                return (.matches(nodes[0], try Pattern(source)), .bool)
            } catch {
                throw RuleSyntaxError(
                    offset: (arguments.last ?? arguments[0]).offset, message: "invalid pattern: \(error)")
            }
        }
        switch nodes.count {
        case 1 where builtin.rawValue.hasPrefix("-") || builtin.rawValue.hasPrefix("!") || builtin == .size:
            return (.unary(builtin, nodes[0]), result)
        case 2 where builtin.rawValue.hasPrefix("_") || builtin == .in:
            return (.binary(builtin, nodes[0], nodes[1]), result)
        default:
            return (.call(builtin, nodes), result)
        }
    }

    private static func resultType(_ builtin: RuleBuiltin, _ types: [RuleType], name: String, at offset: Int)
        throws(RuleSyntaxError) -> RuleType
    {
        let shown = types.map(\.celName).joined(separator: ", ")
        switch builtin {
        case .equal, .notEqual:
            let (a, b) = (types[0], types[1])
            guard a == b || a == .dyn || b == .dyn || a == .null || b == .null else {
                throw RuleSyntaxError(
                    offset: offset, message: "no matching overload for '\(name)' applied to (\(shown))")
            }
            return .bool
        case .in:
            guard types[1].fits(.list) || types[1] == .map else {
                throw RuleSyntaxError(offset: offset, message: "no matching overload for 'in' applied to (\(shown))")
            }
            return .bool
        case .index:
            switch types[0] {
            case .list where types[1].fits(.int) || types[1] == .uint || types[1] == .double: return .dyn
            case .map, .dyn: return .dyn
            default:
                throw RuleSyntaxError(offset: offset, message: "no matching overload for index applied to (\(shown))")
            }
        default:
            let fitting = builtin.signatures.filter { signature in
                signature.parameters.count == types.count && zip(types, signature.parameters).allSatisfy { $0.fits($1) }
            }
            guard let first = fitting.first else {
                let arity = builtin.signatures.contains { $0.parameters.count == types.count }
                throw RuleSyntaxError(
                    offset: offset,
                    message: arity
                        ? "no matching overload for '\(name)' applied to (\(shown))"
                        : "'\(name)' does not take \(types.count) argument\(types.count == 1 ? "" : "s")")
            }
            return fitting.allSatisfy { $0.result == first.result } ? first.result : .dyn
        }
    }

    // MARK: - Macros

    private mutating func compileComprehension(
        _ macro: RuleMacro, range: RuleSyntax, _ names: [String], _ arguments: [RuleSyntax],
        at offset: Int
    ) throws(RuleSyntaxError) -> (node: RuleNode, type: RuleType) {
        let compiledRange = try compile(range)
        guard !checksTypes || compiledRange.type.fits(.list) || compiledRange.type == .map else {
            throw RuleSyntaxError(
                offset: offset,
                message: "\(macro.rawValue)() needs a list or a map, not '\(compiledRange.type.celName)'")
        }
        let depth = scopes.count
        let first = slotCount
        scopes.append((names[0], first))
        var second: Int?
        if names.count == 2 {
            second = slotCount + 1
            scopes.append((names[1], first + 1))
        }
        slotCount += names.count
        defer { scopes.removeLast(scopes.count - depth) }
        var nodes: [RuleNode] = []
        for (i, argument) in arguments.enumerated() {
            let (node, type) = try compile(argument)
            let isPredicate =
                (macro == .all || macro == .exists || macro == .existsOne || macro == .filter)
                || (arguments.count == 2 && i == 0)
            if checksTypes, isPredicate, !type.fits(.bool) {
                throw RuleSyntaxError(
                    offset: argument.offset,
                    message: "the predicate of \(macro.rawValue)() must be bool, not '\(type.celName)'")
            }
            nodes.append(node)
        }
        let result: RuleType =
            switch macro {
            case .all, .exists, .existsOne: .bool
            case .map, .filter, .transformList: .list
            case .transformMap: .map
            }
        return (.comprehension(macro, range: compiledRange.node, first: first, second: second, nodes), result)
    }
}
