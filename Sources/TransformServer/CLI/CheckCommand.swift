// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// `TransformServer check [DIR]`: validates a schema directory and prints every problem (exit 1 if any; 2 when
/// the directory cannot be read, or is a configuration folder rather than its `schemas/`).
enum CheckCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count <= 1, !(arguments.first?.hasPrefix("-") ?? false) else {
            StandardIO.error("usage: TransformServer check [DIR]")
            return 2
        }
        let source =
            arguments.first.map { SchemaSource.directory($0) } ?? SchemaSource.resolve(config: nil, schemas: nil)
        let files: [SchemaFile]
        do throws(SchemaDirectory.LoadError) {
            files = try source.files()
        } catch {
            StandardIO.error("TransformServer check: \(error.description)")
            return 2
        }
        let registry = SchemaRegistry()
        do throws(SchemaSetError) {
            let snapshot = try registry.load(files)
            let count = snapshot.modelNames.count
            StandardIO.write(Array("\(source.label): \(count) model\(count == 1 ? "" : "s"), no problems\n".utf8))
            return 0
        } catch {
            for problem in error.problems { StandardIO.write(Array((problem.description + "\n").utf8)) }
            StandardIO.error("\(source.label): \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s")")
            return 1
        }
    }
}
