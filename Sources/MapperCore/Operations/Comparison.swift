// SPDX-License-Identifier: Apache-2.0

extension RegistrySnapshot {
    /// Compares `{"a": {…}, "b": {…}}` (docs/api.md, "Equality and identity"): both sides converted in model
    /// form, then `{"equal": bool, "differences": ["/path", …]}`; a `validationFailed` report with paths under `/a`
    /// and `/b` when either side is invalid.
    public func compare(_ body: UnsafeRawBufferPointer, model name: String, options: ConversionOptions)
        throws(MappingError) -> Converted
    {
        guard let model = model(named: name) else { throw .unknownModel(name) }
        var modelOptions = options
        modelOptions.output = .model
        return try withTape(body, options) { tokens in
            guard tokens[0].kind == .object else {
                return .failure(.notAnObject("the body must be an object {\"a\": {…}, \"b\": {…}}"))
            }
            var sides: [String: Int] = [:]
            var index = 1
            for _ in 0..<tokens[0].count {
                let name = String(decoding: JSONStrings.decoded(tokens[index], in: body), as: UTF8.self)
                guard name == "a" || name == "b" else {
                    return .failure(.notAnObject("the body may hold only \"a\" and \"b\", not \"\(name)\""))
                }
                guard tokens[index + 1].kind == .object else {
                    return .failure(.notAnObject("member \"\(name)\" must be an object"))
                }
                sides[name] = index + 1
                index = tokens[index + 1].next
            }
            for side in ["a", "b"] where sides[side] == nil {
                return .failure(.notAnObject("member \"\(side)\" must be an object"))
            }
            let a = run(model, body, tokens, index: sides["a"]!, options: modelOptions, recordingBuilt: true)
            let b = run(model, body, tokens, index: sides["b"]!, options: modelOptions, recordingBuilt: true)
            var all = Diagnostics(strict: options.mode == .strict)
            all.append(a.diagnostics, prefix: "/a")
            all.append(b.diagnostics, prefix: "/b")
            if all.errorCount > 0 {
                let result = Array("{\"a\":".utf8) + a.out + Array(",\"b\":".utf8) + b.out + [.closeBrace]
                return .failure(
                    .validationFailed(
                        ValidationReport(
                            model: model.name, built: nil, result: result, entries: all.entries,
                            maxEntries: options.maxReportEntries)))
            }
            let identityA = IdentityForm.of(a.out, as: model, builtAt: a.builtAt, in: self)
            let identityB = IdentityForm.of(b.out, as: model, builtAt: b.builtAt, in: self)
            let equal = identityA == identityB
            var found = ModelDifference.Found()
            if !equal { ModelDifference(snapshot: self, a: identityA, b: identityB).collect(root: model, into: &found) }
            var out: [UInt8] = Array("{\"equal\":\(equal),\"differences\":[".utf8)
            for (i, path) in found.paths.enumerated() {
                if i > 0 { out.append(.comma) }
                JSONValue.writeString(path, into: &out)
            }
            out.append(.closeBracket)
            if !found.models.isEmpty {
                out.append(contentsOf: ",\"models\":{".utf8)
                for (i, entry) in found.models.enumerated() {
                    if i > 0 { out.append(.comma) }
                    JSONValue.writeString(entry.path, into: &out)
                    out.append(contentsOf: ":[".utf8)
                    JSONValue.writeString(entry.a, into: &out)
                    out.append(.comma)
                    JSONValue.writeString(entry.b, into: &out)
                    out.append(.closeBracket)
                }
                out.append(.closeBrace)
            }
            out.append(.closeBrace)
            return .success(Converted(body: out, warnings: all.count, modelHash: nil, report: all))
        }.get()
    }
}
