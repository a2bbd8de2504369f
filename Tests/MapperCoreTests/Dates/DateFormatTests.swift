// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import MapperCore

struct DateFormatTests {
    @Test(arguments: [("iso8601", DateFormat.iso8601), ("epoch", .epoch), ("epochMillis", .epochMillis)])
    func namesTheThreeBuiltInFormats(name: String, expected: DateFormat) throws {
        #expect(try DateFormat(name: name) == expected)
        #expect(expected.name == name)
    }

    @Test func compilesAnyOtherNameAsAPattern() throws {
        let format = try DateFormat(name: "dd/MM/yyyy")
        #expect(format == .pattern(try DatePattern("dd/MM/yyyy")))
        #expect(format.name == "dd/MM/yyyy")
        #expect(!format.isEpoch && DateFormat.epochMillis.isEpoch)
        #expect(throws: DatePatternError.self) { _ = try DateFormat(name: "ISO8601") }
    }

    @Test func readsStringsInEachFormat() throws {
        func read(_ format: DateFormat, _ text: String) -> DateReading {
            var text = text
            return text.withUTF8 { format.read(UnsafeRawBufferPointer($0)) }
        }
        #expect(read(.iso8601, "2015-09-03T16:12:21Z") == .at(1_441_296_741))
        #expect(read(.epoch, "1441296741.5") == .at(1_441_296_741, micros: 500_000))
        #expect(read(.epochMillis, "1441296741500") == .at(1_441_296_741, micros: 500_000))
        #expect(read(try DateFormat(name: "dd/MM/yyyy"), "03/09/2015") == .at(1_441_238_400))
        #expect(read(.epoch, "2015-09-03") == .invalid)
    }
}
