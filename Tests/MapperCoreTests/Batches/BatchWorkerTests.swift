// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

/// Batches converted on several threads (`ConversionOptions.batchWorkers`) answer exactly as on one: the same
/// bytes, the same entries in the same order, the same counts and the same strict-mode reports.
@Suite struct BatchWorkerTests {
    static let snapshot = try! SchemaRegistry.make(
        #"{"name":"U","properties":{"uid":{"type":"uint64","required":true},"n":"int8","tag":{"type":"string","key":"t"}}}"#,
        // Every stage a worker may run at the same time as another: an unwrap with defaults, a class choice, a
        // nested model, defaults, key paths and fallback keys, dates with a pattern, a set, a validate rule.
        #"""
        {"models":[
          {"name":"Item","willTransform":{"unwrap":"data","defaults":{"kind":"print"}},
           "properties":{"kind":"string","id":{"type":"uint64","key":["id","ID"],"required":true},
             "score":{"type":"double","default":1.5},"desc":{"type":"string","key":"ext.desc"},
             "at":{"type":"date","dateFormat":{"input":["dd/MM/yyyy"],"output":"iso8601"}},
             "shape":"Shape","tags":{"type":"set","of":"string"}},
           "validate":{"requireAny":[["desc","shape"]]}},
          {"name":"Shape","properties":{"kind":"string"},"classForDictionary":[{"when":{"has":"r"},"use":"Circle"}]},
          {"name":"Circle","extends":"Shape","properties":{"r":{"type":"double","minimum":0}}}
        ]}
        """#
    ).current

    /// Element `i` of a batch: mostly clean, with coerced values, out-of-range numbers, failing required fields,
    /// non-objects and an entry that repeats within its element scattered through it.
    static func element(_ i: Int) -> String {
        switch i {
        case _ where i % 11 == 0: "3"
        case _ where i % 13 == 0: #"{"uid":"x","n":1}"#
        case _ where i % 7 == 0: #"{"uid":"\#(i)","n":"5","t":"seven"}"#
        case _ where i % 17 == 0: #"{"uid":\#(i),"n":1000,"t":null}"#
        case _ where i % 19 == 0: #"{"uid":\#(i),"uid":\#(i + 1)}"#
        default: #"{"uid":\#(i),"n":\#(i % 100),"t":"u\#(i)"}"#
        }
    }

    static func array(_ count: Int) -> String { "[" + (0..<count).map(element).joined(separator: ",") + "]" }

    /// Element `i` for the `Item` model: wrapped or not, with a circle or a plain shape, dates, duplicate tags,
    /// a negative radius (a dropped value) and, every 23rd, no `desc` and no `shape` (the rule fails).
    static func item(_ i: Int) -> String {
        let shape = i % 3 == 0 ? #"{"r":\#(i % 5 == 0 ? -1 : i)}"# : #"{"kind":"blob"}"#
        let fields = #""ID":"\#(i)","at":"0\#(i % 9 + 1)/02/2020","tags":["a","b","a"],"ext":{"desc":"d\#(i)"}"#
        if i % 23 == 0 { return #"{"id":\#(i)}"# }
        return i % 2 == 0 ? #"{"data":{\#(fields),"shape":\#(shape)}}"# : #"{\#(fields),"kind":"k","shape":\#(shape)}"#
    }

    /// A dictionary whose key `k5` appears twice (its duplicate entry comes first in every report).
    static func dictionary(_ count: Int) -> String {
        "{" + (0..<count).map { #""k\#($0)":\#(element($0))"# }.joined(separator: ",") + #","k5":{"uid":5}}"#
    }

    /// Everything a batch answer holds, as text.
    static func answer(
        _ body: String, model: String = "U", dictionary: Bool, mode: ConversionOptions.Mode,
        output: ConversionOptions.Form, workers: Int
    ) -> String {
        var options = ConversionOptions()
        options.mode = mode
        options.output = output
        options.batchWorkers = workers
        let result = Array(body.utf8).withUnsafeBytes { body in
            Result { () throws(MappingError) in
                try dictionary
                    ? snapshot.convertDictionary(body, model: model, options: options)
                    : snapshot.convertArray(body, model: model, options: options)
            }
        }
        switch result {
        case .success(let converted):
            let entries = converted.diagnostics.map { "\($0.isError) \($0.path) \($0.code.rawValue) \($0.message)" }
            return "200 \(converted.warnings)\n" + String(decoding: converted.body, as: UTF8.self) + "\n"
                + entries.joined(separator: "\n")
        case .failure(let error):
            return "\(error.status)\n" + String(decoding: error.body(requestId: "r"), as: UTF8.self)
        }
    }

    @Test func runsAreConsecutiveCoverEveryElementAndKeepTheMinimumSize() {
        #expect(RegistrySnapshot.batchRuns(count: 1_000, workers: 2) == (0..<8).map { $0 * 125..<($0 + 1) * 125 })
        #expect(RegistrySnapshot.batchRuns(count: 200, workers: 8) == [0..<66, 66..<133, 133..<200])
        #expect(RegistrySnapshot.batchRuns(count: 127, workers: 2) == [0..<127])
        #expect(RegistrySnapshot.batchRuns(count: 128, workers: 2) == [0..<64, 64..<128])
        #expect(RegistrySnapshot.batchRuns(count: 0, workers: 4) == [0..<0])
        #expect(RegistrySnapshot.batchRuns(count: 5_000, workers: 1) == [0..<5_000])
        #expect(RegistrySnapshot.batchRuns(count: 5_000, workers: 0) == [0..<5_000])
        for (count, workers) in [(129, 2), (1_001, 3), (4_096, 2), (100_000, 16)] {
            let runs = RegistrySnapshot.batchRuns(count: count, workers: workers)
            #expect(runs.first?.lowerBound == 0 && runs.last?.upperBound == count)
            #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(runs.count <= workers * RegistrySnapshot.runsPerWorker)
            #expect(runs.allSatisfy { $0.count >= RegistrySnapshot.minimumElementsPerRun })
        }
    }

    @Test(arguments: [ConversionOptions.Mode.lax, .strict], [ConversionOptions.Form.model, .wire])
    func arraysAnswerAsOnOneThread(mode: ConversionOptions.Mode, output: ConversionOptions.Form) {
        for count in [128, 300, 1_001] {
            let body = Self.array(count)
            let one = Self.answer(body, dictionary: false, mode: mode, output: output, workers: 1)
            for workers in [2, 3, 8] {
                #expect(
                    Self.answer(body, dictionary: false, mode: mode, output: output, workers: workers) == one,
                    "\(count) elements on \(workers) workers")
            }
        }
    }

    @Test(arguments: [ConversionOptions.Mode.lax, .strict], [ConversionOptions.Form.model, .wire])
    func dictionariesAnswerAsOnOneThread(mode: ConversionOptions.Mode, output: ConversionOptions.Form) {
        let body = Self.dictionary(400)
        let one = Self.answer(body, dictionary: true, mode: mode, output: output, workers: 1)
        #expect(one.contains("duplicate_key"))
        for workers in [2, 5] {
            #expect(Self.answer(body, dictionary: true, mode: mode, output: output, workers: workers) == one)
        }
    }

    @Test(arguments: [ConversionOptions.Mode.lax, .strict], [ConversionOptions.Form.model, .wire])
    func everyStageAnswersAsOnOneThread(mode: ConversionOptions.Mode, output: ConversionOptions.Form) {
        let array = "[" + (0..<400).map(Self.item).joined(separator: ",") + "]"
        let dictionary = "{" + (0..<400).map { #""i\#($0)":\#(Self.item($0))"# }.joined(separator: ",") + "}"
        for (body, isDictionary) in [(array, false), (dictionary, true)] {
            let one = Self.answer(body, model: "Item", dictionary: isDictionary, mode: mode, output: output, workers: 1)
            #expect(one.contains("Circle") || one.contains("\"r\""), "\(one.prefix(300))")
            for workers in [2, 4] {
                #expect(
                    Self.answer(
                        body, model: "Item", dictionary: isDictionary, mode: mode, output: output,
                        workers: workers) == one)
            }
        }
    }

    /// Runs whose every element is dropped (the first, a middle and the last of three): the commas around them
    /// are the one-thread commas.
    @Test(arguments: [ConversionOptions.Mode.lax, .strict], [ConversionOptions.Form.model, .wire])
    func runsWithNothingKeptAnswerAsOnOneThread(mode: ConversionOptions.Mode, output: ConversionOptions.Form) {
        for dropped in [0..<64, 64..<128, 128..<192, 0..<128, 0..<192] {
            let elements = (0..<192).map {
                dropped.contains($0) ? ($0 % 2 == 0 ? "3" : #"{"uid":"x"}"#) : #"{"uid":\#($0)}"#
            }
            let array = "[" + elements.joined(separator: ",") + "]"
            let dictionary = "{" + elements.enumerated().map { #""k\#($0)":\#($1)"# }.joined(separator: ",") + "}"
            for (body, isDictionary) in [(array, false), (dictionary, true)] {
                let one = Self.answer(body, dictionary: isDictionary, mode: mode, output: output, workers: 1)
                for workers in [2, 3] {
                    #expect(
                        Self.answer(body, dictionary: isDictionary, mode: mode, output: output, workers: workers)
                            == one, "dropped \(dropped), \(isDictionary ? "dictionary" : "array"), \(workers)")
                }
            }
        }
        // And the answer is what it should be, not only the same: all dropped is an empty batch.
        let allDropped = "[" + Array(repeating: "3", count: 192).joined(separator: ",") + "]"
        #expect(
            Self.answer(allDropped, dictionary: false, mode: .lax, output: .model, workers: 3).hasPrefix(
                "200 192\n[]\n"))
    }

    @Test func aCleanBatchSplitAcrossWorkersIsOneValidArray() throws {
        let body = "[" + (0..<256).map { #"{"uid":\#($0)}"# }.joined(separator: ",") + "]"
        var options = ConversionOptions()
        options.batchWorkers = 4
        let converted = try Array(body.utf8).withUnsafeBytes {
            try Self.snapshot.convertArray($0, model: "U", options: options)
        }
        let expected = "[" + (0..<256).map { #"{"uid":\#($0),"n":0}"# }.joined(separator: ",") + "]"
        #expect(String(decoding: converted.body, as: UTF8.self) == expected)
        #expect(converted.warnings == 0)
    }
}
