// SPDX-License-Identifier: Apache-2.0

import Glibc
import MapperCore
import Synchronization
import Testing

/// The registry under contention: conversions on many threads while others replace models. Every conversion must
/// see one whole snapshot — never a mix of two versions of a model — and the suite must be clean under
/// `swift test --sanitize=thread --filter RegistryConcurrencyTests`.
///
/// The workers are plain POSIX threads, not `concurrentPerform` or tasks: those run at most one worker per core,
/// so on a small machine the writers could finish before any reader starts; the kernel interleaves real threads.
struct RegistryConcurrencyTests {
    static let readers = 8
    static let conversionsPerReader = 2_000
    static let writers = 2
    /// Writers stop when the readers are done, or after this many writes each.
    static let maxWritesPerWriter = 50_000

    /// Two versions of `Item`: `id` changes from `int32` to `string`, which changes every output that holds one.
    static let itemVersions = [
        #"{"name":"Item","properties":{"id":"int32","n":{"type":"int32","default":1}}}"#,
        #"{"name":"Item","properties":{"id":"string","n":{"type":"int32","default":2}}}"#,
    ]
    static let box = #"""
        {"name":"Box","properties":{"item":"Item","items":{"type":"array","of":"Item"},
         "byKey":{"type":"dictionary","of":"Item"},"special":"Special"}}
        """#
    static let special = #"{"name":"Special","extends":"Item","properties":{"extra":"string"}}"#
    static let input =
        #"{"item":{"id":7},"items":[{"id":8},{"id":9}],"byKey":{"k":{"id":10}},"special":{"id":11,"extra":"e"}}"#

    static let expected = [
        Outcome(
            status: 200,
            body:
                #"{"item":{"id":7,"n":1},"items":[{"id":8,"n":1},{"id":9,"n":1}],"byKey":{"k":{"id":10,"n":1}},"special":{"id":11,"n":1,"extra":"e"}}"#,
            entries: []),
        Outcome(
            status: 200,
            body:
                #"{"item":{"id":"7","n":2},"items":[{"id":"8","n":2},{"id":"9","n":2}],"byKey":{"k":{"id":"10","n":2}},"special":{"id":"11","n":2,"extra":"e"}}"#,
            entries: [
                "/item/id coerced", "/items/0/id coerced", "/items/1/id coerced", "/byKey/k/id coerced",
                "/special/id coerced",
            ]),
    ]

    static func file(_ text: String) -> SchemaFile {
        SchemaFile(name: "(request)", bytes: Array(text.utf8), source: .registry)
    }

    @Test
    func expectedOutcomesAreWhatEachVersionConvertsAlone() throws {
        for (version, item) in Self.itemVersions.enumerated() {
            let registry = try SchemaRegistry.make(item, Self.box, Self.special)
            #expect(registry.current.run("Box", Self.input) == Self.expected[version])
        }
    }

    @Test
    func everyConversionSeesOneWholeVersionWhileModelsAreReplaced() throws {
        let registry = try SchemaRegistry.make(Self.itemVersions[0], Self.box, Self.special)
        let finishedReaders = Atomic<Int>(0)
        let reports = Self.runThreads(Self.writers + Self.readers) { worker in
            var report = WorkerReport()
            if worker < Self.writers {
                repeat {
                    // The writers alternate out of phase, so most writes really change the bytes.
                    let text = Self.itemVersions[(report.count + worker + 1) % 2]
                    do { _ = try registry.apply(upserts: [Self.file(text)], deletes: []) } catch {
                        report.failures.append("write \(report.count) failed: \(error)")
                    }
                    report.count += 1
                } while finishedReaders.load(ordering: .acquiring) < Self.readers
                    && report.count < Self.maxWritesPerWriter
                return report
            }
            for i in 0..<Self.conversionsPerReader {
                let snapshot = registry.current
                let outcome = snapshot.run("Box", Self.input)
                guard let version = Self.expected.firstIndex(of: outcome) else {
                    report.failures.append("reader \(worker) conversion \(i): mixed or wrong outcome \(outcome)")
                    continue
                }
                report.seen[version] += 1
                // Bytes only ever alternate between the two versions, so odd registry versions hold the first.
                let entry = snapshot.entries["Item"]
                if let entry,
                    (entry.version - 1) % 2 != version || entry.document != Array(Self.itemVersions[version].utf8)
                {
                    report.failures.append(
                        "snapshot holds Item v\(entry.version) but converted as version \(version + 1)")
                }
            }
            finishedReaders.add(1, ordering: .releasing)
            return report
        }

        let failures = reports.flatMap(\.failures)
        #expect(failures.isEmpty, "\(failures.prefix(5)) (\(failures.count) in all)")
        #expect(
            reports.dropFirst(Self.writers).map { $0.seen[0] + $0.seen[1] }
                == Array(repeating: Self.conversionsPerReader, count: Self.readers))
        #expect(reports.prefix(Self.writers).allSatisfy { $0.count >= 1 })
        let finalVersion = try #require(registry.current.entries["Item"]?.version)
        #expect(registry.current.run("Box", Self.input) == Self.expected[(finalVersion - 1) % 2])
        #expect(registry.current.entries["Box"]?.version == 1)
    }

    @Test
    func concurrentWritersAreSerialisedAndEveryChangeCounts() throws {
        let registry = try SchemaRegistry.make(#"{"name":"Counter","properties":{"n":{"type":"int32","default":0}}}"#)
        let writers = 4
        let writesPerWriter = 100
        let reports = Self.runThreads(writers) { worker in
            var report = WorkerReport()
            for i in 0..<writesPerWriter {
                let n = 1 + worker * 1_000 + i
                let text = #"{"name":"Counter","properties":{"n":{"type":"int32","default":\#(n)}}}"#
                do { _ = try registry.apply(upserts: [Self.file(text)], deletes: []) } catch {
                    report.failures.append("\(error)")
                }
                if registry.current.converted("Counter", "{}") == #"{"n":0}"# {
                    report.failures.append("saw the first version after writing")
                }
            }
            return report
        }
        #expect(reports.flatMap(\.failures) == [])
        #expect(registry.current.entries["Counter"]?.version == 1 + writers * writesPerWriter)
        let last = try #require(registry.current.entries["Counter"]?.document)
        let defaults = (0..<writers).flatMap { w in (0..<writesPerWriter).map { 1 + w * 1_000 + $0 } }
        let match = defaults.first {
            Array(#"{"name":"Counter","properties":{"n":{"type":"int32","default":\#($0)}}}"#.utf8) == last
        }
        let n = try #require(match)
        #expect(registry.current.converted("Counter", "{}") == #"{"n":\#(n)}"#)
    }

    /// Conversions on many threads take their tapes and frame stacks from shared pools (`ScratchPool`) and give
    /// them back. Bodies of different sizes (one over 64 KB, whose tape is not kept), single objects, arrays and
    /// dictionaries mean each conversion gets scratch a different conversion grew or left; every result must
    /// still be exactly its own.
    @Test
    func pooledScratchNeverMixesConcurrentConversions() throws {
        let registry = try SchemaRegistry.make(Self.itemVersions[0], Self.box, Self.special)
        let snapshot = registry.current
        @Sendable func body(_ size: Int) -> String {
            let items = (0..<size).map { #"{"id":\#($0)}"# }.joined(separator: ",")
            return #"{"item":{"id":"\#(size)"},"items":[\#(items)],"byKey":{"k":{"id":\#(size)}}}"#
        }
        @Sendable func convert(_ kind: Int, _ size: Int) -> String {
            let text: String
            switch kind {
            case 0: return snapshot.run("Box", body(size)).description
            case 1: text = "[\(body(size)),7,\(body(size / 2))]"
            default: text = #"{"a":\#(body(size)),"b":{}}"#
            }
            let bytes = Array(text.utf8)
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(MappingError) in
                    try kind == 1
                        ? snapshot.convertArray(raw, model: "Box", options: ConversionOptions())
                        : snapshot.convertDictionary(raw, model: "Box", options: ConversionOptions())
                }
            }
            guard case .success(let converted) = result else { return "\(result)" }
            return "\(converted.warnings) " + String(decoding: converted.body, as: UTF8.self)
        }
        let sizes = [0, 1, 5, 40, 300]
        let large = 6_000  // about 70 KB: a tape with room for more than 32,768 tokens, freed rather than kept
        #expect(body(large).utf8.count > 64 * 1024)
        let cases = sizes.flatMap { size in (0..<3).map { (kind: $0, size: size) } } + [(kind: 0, size: large)]
        let expected = cases.map { convert($0.kind, $0.size) }
        #expect(expected.allSatisfy { !$0.hasPrefix("failure") && !$0.hasPrefix("4") })
        let rounds = 120
        let reports = Self.runThreads(Self.readers) { worker in
            var report = WorkerReport()
            for i in 0..<rounds {
                // The large body once every 30 rounds per worker: enough to interleave, cheap under the sanitizer.
                let pick = i % 30 == 29 ? cases.count - 1 : (worker &* 7 &+ i) % (cases.count - 1)
                let outcome = convert(cases[pick].kind, cases[pick].size)
                if outcome != expected[pick] { report.failures.append("case \(cases[pick]): \(outcome.prefix(200))") }
                report.count += 1
            }
            return report
        }
        #expect(reports.flatMap(\.failures).prefix(3) == [])
        #expect(reports.map(\.count) == Array(repeating: rounds, count: Self.readers))
    }

    /// Each model's key index learns, shared by every conversion, which key followed which in inputs that do not
    /// list keys in the schema's order. Threads converting the same model from inputs in four orders at once keep
    /// rewriting those hints under each other; every output must still be exactly its own.
    @Test
    func learnedKeyOrdersNeverMixConcurrentConversions() throws {
        let registry = try SchemaRegistry.make(
            #"{"name":"Row","properties":{"a":"int32","b":"int32","c":"int32","d":{"type":"int32","key":"dee"}}}"#)
        let snapshot = registry.current
        let members = [#""a":1"#, #""b":2"#, #""c":3"#, #""dee":4"#, #""x":0"#]
        let orders = [[0, 1, 2, 3], [3, 2, 1, 0], [4, 2, 0, 4, 3, 1], [1, 3, 0, 2]]
        let inputs = orders.map { order in "{" + order.map { members[$0] }.joined(separator: ",") + "}" }
        let expected = #"{"a":1,"b":2,"c":3,"d":4}"#
        let rounds = 400
        let reports = Self.runThreads(Self.readers) { worker in
            var report = WorkerReport()
            for i in 0..<rounds {
                let input = inputs[(worker &+ i) % inputs.count]
                let body = snapshot.converted("Row", input)
                if body != expected { report.failures.append("\(input) → \(body)") }
                report.count += 1
            }
            return report
        }
        #expect(reports.flatMap(\.failures).prefix(3) == [])
        #expect(reports.map(\.count) == Array(repeating: rounds, count: Self.readers))
    }

    /// What one worker thread found; handed back through `pthread_join`, which orders it before the reader.
    struct WorkerReport {
        var count = 0
        var seen = [0, 0]
        var failures: [String] = []
    }

    // MARK: - Threads

    /// Runs `body(0..<count)` on `count` POSIX threads at once, waits for all of them, and returns their results
    /// in worker order. Each thread writes only its own slot, and `pthread_join` orders those writes before the
    /// read, so no lock is involved (the sanitizer cannot see through every lock).
    static func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> WorkerReport) -> [WorkerReport] {
        let slots = UnsafeMutablePointer<WorkerReport>.allocate(capacity: count)
        slots.initialize(repeating: WorkerReport(), count: count)
        defer {
            slots.deinitialize(count: count)
            slots.deallocate()
        }
        let address = UInt(bitPattern: slots)
        let threads = (0..<count).map { worker in
            startThread {
                let report = body(worker)
                UnsafeMutablePointer<WorkerReport>(bitPattern: address)![worker] = report
            }
        }
        for thread in threads { pthread_join(thread, nil) }
        return Array(UnsafeBufferPointer(start: slots, count: count))
    }
}
