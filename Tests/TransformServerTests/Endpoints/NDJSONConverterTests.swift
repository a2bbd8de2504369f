// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

@testable import TransformServer

/// MapperCore's line-by-line NDJSON conversion with the server's error records (`ErrorResponse.writeRecord`).
@Suite struct NDJSONConverterTests {
    static let schema = #"{"name":"U","properties":{"uid":{"type":"uint64","required":true},"name":"string"}}"#

    func convert(
        _ input: String, chunk: Int = .max, mode: ConversionOptions.Mode = .lax, maxLine: Int = 1_048_576,
        kind: NDJSONConverter.Kind = .convert
    ) throws -> (out: String, warnings: Int, errors: Int) {
        let snapshot = try SchemaRegistry().load([SchemaFile(name: "u.json", bytes: Array(Self.schema.utf8))])
        var options = ConversionOptions()
        options.mode = mode
        var converter = NDJSONConverter(
            snapshot: snapshot, model: "U", options: options, kind: kind, maxLineBytes: maxLine,
            records: ErrorResponse.writeRecord)
        var out: [UInt8] = []
        let bytes = Array(input.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            out += bytes[start..<end].withUnsafeBytes { converter.feed($0) }
            start = end
        }
        out += converter.finish()
        return (String(decoding: out, as: UTF8.self), converter.warnings, converter.errorLines)
    }

    static let mixed =
        "{\"uid\":1}\n\n \t\r\n{\"uid\":\"2\",\"name\":\"x\"}\r\n[1]\n{oops\n{\"name\":\"n\"}\n{\"uid\":3}"

    @Test func writesOneLinePerNonBlankInputLineCountingBlankLines() throws {
        let result = try convert(Self.mixed)
        #expect(
            result.out == """
                {"uid":1}
                {"uid":2,"name":"x"}
                {"error":{"status":400,"code":"not_an_object","message":"the body must be an object, not an array","line":5}}
                {"error":{"status":400,"code":"invalid_json","message":"Unexpected byte 'o' in an object; expected a '\\"'-quoted key or '}'.","line":6,"column":2}}
                {"error":{"status":422,"code":"validation_failed","message":"1 error","line":7,"errors":[{"path":"/uid","code":"missing_required","message":"uid is required"}],"warnings":[]}}
                {"uid":3}

                """)
        #expect(result.warnings == 4)
        #expect(result.errors == 3)
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func givesTheSameOutputWhateverTheChunkSize(chunk: Int) throws {
        #expect(try convert(Self.mixed, chunk: chunk).out == (try convert(Self.mixed).out))
    }

    @Test func skipsAnOverlongLineToItsNewlineAndGoesOn() throws {
        let long = "{\"name\":\"" + String(repeating: "a", count: 100) + "\"}"
        let result = try convert("{\"uid\":1}\n" + long + "\n{\"uid\":2}\n", chunk: 16, maxLine: 40)
        #expect(
            result.out == """
                {"uid":1}
                {"error":{"status":413,"code":"line_too_long","message":"line 2 is longer than the limit of 40 bytes","line":2}}
                {"uid":2}

                """)
        #expect(result.errors == 1)
    }

    @Test func strictModeEndsAtTheFirstFailingLine() throws {
        let result = try convert("{\"uid\":1}\n{\"uid\":\"2\"}\n{\"uid\":3}\n", mode: .strict)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines[1].hasPrefix(
                #"{"error":{"status":422,"code":"validation_failed","message":"1 error","line":2,"errors":[{"path":"/uid","code":"coerced""#
            ))
    }

    @Test func validateKindWritesAReportLinePerLine() throws {
        let result = try convert("{\"uid\":\"1\"}\n{}\n{x\n", kind: .validate)
        #expect(
            result.out == """
                {"line":1,"valid":true,"model":"U","result":{"uid":1},"errors":[],"warnings":[{"path":"/uid","code":"coerced","message":"string \\"1\\" converted to uint64 1"}]}
                {"line":2,"valid":false,"model":"U","result":{"uid":0},"errors":[{"path":"/uid","code":"missing_required","message":"uid is required"}],"warnings":[]}
                {"error":{"status":400,"code":"invalid_json","message":"Unexpected byte 'x' in an object; expected a '\\"'-quoted key or '}'.","line":3,"column":2}}

                """)
    }
}
