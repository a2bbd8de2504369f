// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import MapperCore

/// `TransformServer import jsonschema FILE [--name M] [--strict]`: the model documents of a JSON Schema document,
/// as a bundle on standard output (docs/lifecycle.md, Import). Keywords without a translation are listed on
/// standard error with their JSON Pointers (exit 0), or fail the import with `--strict` (exit 1).
enum ImportCommand {
    static let usage = "usage: TransformServer import jsonschema FILE [--name M] [--strict]"

    static func run(_ arguments: [String]) -> Int32 {
        var rest = arguments[...]
        guard rest.popFirst() == "jsonschema" else {
            StandardIO.error(usage)
            return 2
        }
        var file: String?
        var name: String?
        var strict = false
        while let argument = rest.popFirst() {
            switch argument {
            case "--strict": strict = true
            case "--name":
                guard let value = rest.popFirst() else {
                    StandardIO.error(usage)
                    return 2
                }
                name = value
            default:
                guard file == nil, !argument.hasPrefix("-") else {
                    StandardIO.error(usage)
                    return 2
                }
                file = argument
            }
        }
        guard let file else {
            StandardIO.error(usage)
            return 2
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            StandardIO.error("TransformServer: cannot read \(file).")
            return 1
        }
        let translated: JSONSchemaImport
        do throws(JSONSchemaImport.Failure) {
            translated = try JSONSchemaImport([UInt8](data), name: name)
        } catch {
            StandardIO.error("\(file): \(error.description)")
            return 1
        }
        for entry in translated.unsupported {
            StandardIO.error(
                "\(file) \(entry.pointer.isEmpty ? "(root)" : entry.pointer): \(strict ? "error" : "warning"): \(entry.message)"
            )
        }
        if strict && !translated.unsupported.isEmpty { return 1 }
        StandardIO.write(translated.bundle + [UInt8(ascii: "\n")])
        return 0
    }
}
