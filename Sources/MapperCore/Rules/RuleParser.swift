// SPDX-License-Identifier: Apache-2.0

/// A recursive-descent parser for CEL's grammar (docs/rules.md, "Syntax"), with operator precedence from lowest to
/// highest: `?:`, `||`, `&&`, relations (`== != < <= > >= in`), `+ -`, `* / %`, unary `! -`, member access
/// (`.f`, `.f()`, `[i]`). Macros (`has`, `all`, `exists`, `exists_one`, `map`, `filter`, …) are recognised here.
///
/// Bounded: an expression is at most `maxLength` bytes, nesting (parentheses, literals, calls) at most `maxDepth`
/// parser levels, and the syntax tree at most `maxDepth` nodes deep, so every later pass may recurse freely.
struct RuleParser {
    static let maxLength = 10_000
    static let maxDepth = 128

    private var tokens: [RuleToken] = []
    private var position = 0
    private var nesting = 0

    static func parse(_ source: String) throws(RuleSyntaxError) -> RuleSyntax {
        guard source.utf8.count <= maxLength else {
            throw RuleSyntaxError(offset: maxLength, message: "expression is longer than \(maxLength) bytes")
        }
        var lexer = RuleLexer(source)
        var parser = RuleParser()
        parser.tokens = try lexer.tokens()
        let expression = try parser.expression()
        guard case .end = parser.current.kind else {
            throw RuleSyntaxError(
                offset: parser.current.offset, message: "unexpected \(parser.describe(parser.current))")
        }
        return expression
    }

    private var current: RuleToken { tokens[position] }

    private func isSymbol(_ symbol: String) -> Bool {
        if case .symbol(let s) = current.kind { return s == symbol }
        return false
    }

    private mutating func accept(_ symbol: String) -> Bool {
        guard isSymbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ symbol: String) throws(RuleSyntaxError) {
        guard accept(symbol) else {
            throw RuleSyntaxError(
                offset: current.offset, message: "expected '\(symbol)' but found \(describe(current))")
        }
    }

    private func describe(_ token: RuleToken) -> String {
        switch token.kind {
        case .end: "the end of the expression"
        case .symbol(let s): "'\(s)'"
        case .identifier(let name): "'\(name)'"
        default: "a literal"
        }
    }

    private func node(_ kind: RuleSyntax.Kind, at offset: Int) throws(RuleSyntaxError) -> RuleSyntax {
        let node = RuleSyntax(kind, at: offset)
        guard node.depth <= RuleParser.maxDepth else {
            throw RuleSyntaxError(
                offset: offset, message: "expression is nested more than \(RuleParser.maxDepth) levels deep")
        }
        return node
    }

    // MARK: - Precedence levels

    private mutating func expression() throws(RuleSyntaxError) -> RuleSyntax {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= RuleParser.maxDepth else {
            throw RuleSyntaxError(
                offset: current.offset, message: "expression is nested more than \(RuleParser.maxDepth) levels deep")
        }
        let condition = try binary(level: 0)
        guard isSymbol("?") else { return condition }
        let at = current.offset
        position += 1
        let then = try binary(level: 0)
        try expect(":")
        let otherwise = try expression()
        return try node(.call("_?_:_", target: nil, [condition, then, otherwise]), at: at)
    }

    private static let levels: [[String]] = [
        ["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">=", "in"], ["+", "-"], ["*", "/", "%"],
    ]

    /// The left-associative binary levels, iteratively.
    private mutating func binary(level: Int) throws(RuleSyntaxError) -> RuleSyntax {
        guard level < RuleParser.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while case .symbol(let s) = current.kind, RuleParser.levels[level].contains(s) {
            let at = current.offset
            position += 1
            let right = try binary(level: level + 1)
            let name = s == "in" ? "@in" : "_\(s)_"
            left = try node(.call(name, target: nil, [left, right]), at: at)
        }
        return left
    }

    private mutating func unary() throws(RuleSyntaxError) -> RuleSyntax {
        if isSymbol("!") {
            var offsets: [Int] = []
            while isSymbol("!") { offsets.append(current.offset); position += 1 }
            var operand = try member()
            for at in offsets.reversed() { operand = try node(.call("!_", target: nil, [operand]), at: at) }
            return operand
        }
        if isSymbol("-") {
            var offsets: [Int] = []
            while isSymbol("-") { offsets.append(current.offset); position += 1 }
            var operand: RuleSyntax
            // A minus right before an integer literal makes a negative literal, so that the most negative int parses.
            let literalAt = current.offset
            switch current.kind {
            case .int(let value) where !nextIsMemberAccess:
                position += 1
                operand = try node(.literal(.int(-value)), at: literalAt)
                offsets.removeLast()
            case .bigInt(let value) where value == UInt64(Int64.max) + 1 && !nextIsMemberAccess:
                position += 1
                operand = try node(.literal(.int(Int64.min)), at: literalAt)
                offsets.removeLast()
            default:
                operand = try member()
            }
            for at in offsets.reversed() { operand = try node(.call("-_", target: nil, [operand]), at: at) }
            return operand
        }
        return try member()
    }

    private var nextIsMemberAccess: Bool {
        if case .symbol(let s) = tokens[position + 1].kind { return s == "." || s == "[" }
        return false
    }

    private mutating func member() throws(RuleSyntaxError) -> RuleSyntax {
        var operand = try primary()
        while true {
            let at = current.offset
            if accept(".") {
                let name: String
                switch current.kind {
                case .identifier(let identifier): name = identifier
                case .quotedName(let quoted):
                    position += 1
                    operand = try node(.select(operand, quoted, test: false), at: at)
                    continue
                default: throw RuleSyntaxError(offset: current.offset, message: "expected a field name after '.'")
                }
                position += 1
                if accept("(") {
                    let arguments = try list(closing: ")")
                    operand = try call(name, target: operand, arguments, at: at)
                } else {
                    operand = try node(.select(operand, name, test: false), at: at)
                }
            } else if accept("[") {
                let index = try expression()
                try expect("]")
                operand = try node(.call("_[_]", target: nil, [operand, index]), at: at)
            } else {
                return operand
            }
        }
    }

    private mutating func primary() throws(RuleSyntaxError) -> RuleSyntax {
        let token = current
        let at = token.offset
        position += 1
        switch token.kind {
        case .int(let value): return try node(.literal(.int(value)), at: at)
        case .bigInt: throw RuleSyntaxError(offset: at, message: "integer literal is out of range")
        case .uint(let value): return try node(.literal(.uint(value)), at: at)
        case .double(let value): return try node(.literal(.double(value)), at: at)
        case .string(let value): return try node(.literal(.string(value)), at: at)
        case .bytes(let value): return try node(.literal(.bytes(value)), at: at)
        case .identifier(let name):
            if RuleLexer.reserved.contains(name) {
                throw RuleSyntaxError(offset: at, message: "reserved word '\(name)' cannot be used as a name")
            }
            if accept("(") {
                let arguments = try list(closing: ")")
                return try call(name, target: nil, arguments, at: at)
            }
            if isSymbol("{") {
                throw RuleSyntaxError(offset: at, message: "message construction (\(name){…}) is not supported")
            }
            switch name {
            case "true": return try node(.literal(.bool(true)), at: at)
            case "false": return try node(.literal(.bool(false)), at: at)
            case "null": return try node(.literal(.null), at: at)
            default: return try node(.identifier(name), at: at)
            }
        case .symbol("."):
            guard case .identifier(let name) = current.kind else {
                throw RuleSyntaxError(offset: current.offset, message: "expected a name after '.'")
            }
            position += 1
            if accept("(") {
                let arguments = try list(closing: ")")
                return try call(name, target: nil, arguments, at: at)
            }
            return try node(.identifier(name), at: at)
        case .symbol("("):
            let inner = try expression()
            try expect(")")
            return inner
        case .symbol("["):
            return try node(.list(try list(closing: "]", trailingComma: true)), at: at)
        case .symbol("{"):
            return try node(.map(try mapEntries()), at: at)
        default:
            throw RuleSyntaxError(offset: at, message: "unexpected \(describe(token))")
        }
    }

    private mutating func list(closing: String, trailingComma: Bool = false) throws(RuleSyntaxError) -> [RuleSyntax] {
        nesting += 1
        defer { nesting -= 1 }
        var items: [RuleSyntax] = []
        if accept(closing) { return items }
        while true {
            items.append(try expression())
            if accept(closing) { return items }
            try expect(",")
            if trailingComma, accept(closing) { return items }
        }
    }

    private mutating func mapEntries() throws(RuleSyntaxError) -> [(RuleSyntax, RuleSyntax)] {
        nesting += 1
        defer { nesting -= 1 }
        var entries: [(RuleSyntax, RuleSyntax)] = []
        if accept("}") { return entries }
        while true {
            let key = try expression()
            try expect(":")
            entries.append((key, try expression()))
            if accept("}") { return entries }
            try expect(",")
            if accept("}") { return entries }
        }
    }

    // MARK: - Macros

    private func call(_ name: String, target: RuleSyntax?, _ arguments: [RuleSyntax], at: Int) throws(RuleSyntaxError)
        -> RuleSyntax
    {
        if target == nil, name == "has" {
            guard arguments.count == 1, case .select(let operand, let field, _) = arguments[0].kind else {
                throw RuleSyntaxError(offset: at, message: "has() needs one field selection, such as has(self.name)")
            }
            return try node(.select(operand, field, test: true), at: at)
        }
        guard let range = target, let macro = RuleParser.macro(name, arguments.count) else {
            return try node(.call(name, target: target, arguments), at: at)
        }
        let variableCount = macro.variables
        var variables: [String] = []
        for argument in arguments.prefix(variableCount) {
            guard case .identifier(let variable) = argument.kind else {
                throw RuleSyntaxError(offset: argument.offset, message: "\(name)() needs a variable name here")
            }
            variables.append(variable)
        }
        if variables.count == 2, variables[0] == variables[1] {
            throw RuleSyntaxError(offset: at, message: "\(name)() needs two different variable names")
        }
        return try node(
            .comprehension(macro.kind, range: range, variables: variables, Array(arguments.dropFirst(variableCount))),
            at: at)
    }

    /// The macro a receiver-style call names, with its number of bound variables, or nil for an ordinary call.
    private static func macro(_ name: String, _ count: Int) -> (kind: RuleMacro, variables: Int)? {
        switch (name, count) {
        case ("all", 2): (.all, 1)
        case ("all", 3): (.all, 2)
        case ("exists", 2): (.exists, 1)
        case ("exists", 3): (.exists, 2)
        case ("exists_one", 2), ("existsOne", 2): (.existsOne, 1)
        case ("exists_one", 3), ("existsOne", 3): (.existsOne, 2)
        case ("map", 2), ("map", 3): (.map, 1)
        case ("filter", 2): (.filter, 1)
        case ("transformList", 3), ("transformList", 4): (.transformList, 2)
        case ("transformMap", 3), ("transformMap", 4): (.transformMap, 2)
        default: nil
        }
    }
}
