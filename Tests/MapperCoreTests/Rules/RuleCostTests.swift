// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import MapperCore

/// Hostile expressions end within their budget: deep nesting is refused when compiled, and runaway work or
/// allocation stops with "cost budget exceeded" or "size limit exceeded" (docs/rules.md, "Cost model").
@Suite struct RuleCostTests {
    static func failure(_ source: String, steps: Int = 10_000, size: Int = 1 << 20) throws -> String? {
        let program = try RuleProgram.compile(source, variables: [])
        var budget = RuleBudget(steps: steps, size: size)
        if case .failure(let failure) = program.evaluate([], budget: &budget) { return failure.message }
        return nil
    }

    @Test(arguments: [
        String(repeating: "(", count: 4_900) + "1" + String(repeating: ")", count: 4_900),
        String(repeating: "[", count: 3_000) + String(repeating: "]", count: 3_000),
        String(repeating: "-", count: 9_000) + "1",
        String(repeating: "!", count: 9_000) + "true",
        Array(repeating: "1", count: 2_400).joined(separator: " + "),
        String(repeating: "a.", count: 4_000) + "b",
    ])
    func deepNestingIsRefusedAtCompileTime(_ source: String) {
        #expect {
            _ = try RuleProgram.compile(source, variables: [("a", .dyn)])
        } throws: { error in
            (error as? RuleSyntaxError)?.message.contains("nested more than \(RuleParser.maxDepth) levels") == true
        }
    }

    @Test func anExpressionIsAtMostTenThousandBytes() {
        #expect(throws: RuleSyntaxError.self) {
            _ = try RuleProgram.compile("'" + String(repeating: "a", count: 10_000) + "'", variables: [])
        }
    }

    @Test func exponentialMacrosRunOutOfSteps() throws {
        // 100^4 iterations if unbounded.
        let range = "[" + (0..<100).map(String.init).joined(separator: ",") + "]"
        let source = "\(range).all(a, \(range).all(b, \(range).all(c, \(range).all(d, a + b + c + d >= 0))))"
        #expect(try Self.failure(source, steps: 100_000) == "cost budget exceeded")
    }

    @Test func doublingStringsRunOutOfSize() throws {
        // Each level doubles the string: 2^40 bytes if unbounded.
        var source = "'abcdefghij'"
        for _ in 0..<40 { source = "[\(source)].map(s, s + s)[0]" }
        #expect(try Self.failure(source, steps: 10_000_000, size: 1 << 20) == "size limit exceeded")
    }

    @Test func growingListsRunOutOfSize() throws {
        var source = "[1,2,3,4,5,6,7,8,9,10]"
        for _ in 0..<30 { source = "[\(source)].map(l, l + l)[0]" }
        #expect(try Self.failure(source, steps: 10_000_000, size: 100_000) == "size limit exceeded")
    }

    @Test func hugeReplacementsRunOutOfSize() throws {
        let source =
            "'" + String(repeating: "a", count: 1000) + "'.replace('a', '" + String(repeating: "b", count: 1000) + "')"
        #expect(try Self.failure(source, size: 100_000) == "size limit exceeded")
    }

    @Test func errorsInsideLogicDoNotHideTheBudget() throws {
        let range = "[" + (0..<100).map(String.init).joined(separator: ",") + "]"
        #expect(
            try Self.failure("\(range).all(a, \(range).all(b, a / 0 == 1)) || true", steps: 1_000)
                == "cost budget exceeded")
    }

    @Test func everyNodeCostsAStep() throws {
        #expect(try Self.failure("1 + 1", steps: 2) == "cost budget exceeded")
        #expect(try Self.failure("1 + 1", steps: 3) == nil)
    }
}
