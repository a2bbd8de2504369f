// SPDX-License-Identifier: Apache-2.0

/// Turns a whole schema set into compiled models, or into the list of every problem found.
///
/// Validation is done once, here: references, `extends` cycles, `use` targets, `omit` names, limits, and (in
/// `SchemaCompiler+Constants`) constraint operands and defaults, which are converted with the real converter.
struct SchemaCompiler {
    let models: [String: ModelSchema]
    let limits: SchemaLimits
    /// Stable name → id assignments; new names get the next id.
    private(set) var ids: [String: Int]
    private(set) var problems: [SchemaProblem] = []

    init(models: [ModelSchema], ids: [String: Int], limits: SchemaLimits) {
        var byName: [String: ModelSchema] = [:]
        for model in models { byName[model.name] = model }
        self.models = byName
        self.limits = limits
        self.ids = ids
        var next = (self.ids.values.max() ?? -1) + 1  // new names get the next ids, in name order
        for name in byName.keys.sorted() where self.ids[name] == nil {
            self.ids[name] = next
            next += 1
        }
    }

    mutating func problem(_ model: ModelSchema, _ pointer: String, _ message: String) {
        problems.append(SchemaProblem(file: model.origin.file, path: pointer, message: message))
    }

    // MARK: - Whole-set checks

    /// Checks everything that needs the whole set, recording every problem found.
    mutating func validateSet() {
        if models.count > limits.maxModels {
            problems.append(
                SchemaProblem(
                    file: "", path: "",
                    message:
                        "\(models.count) models exceed the limit of \(limits.maxModels)"))
        }
        for model in models.values.sorted(by: { $0.name < $1.name }) {
            if model.properties.count > limits.maxPropertiesPerModel {
                problem(
                    model, model.origin.pointer + "/properties",
                    "\(model.properties.count) properties exceed the limit of \(limits.maxPropertiesPerModel)")
            }
            if let parent = model.parent {
                if models[parent] == nil {
                    problem(model, model.origin.pointer + "/extends", "extends unknown model \"\(parent)\"")
                } else if chain(of: model.name) == nil {
                    problem(model, model.origin.pointer + "/extends", "extends forms a cycle through \"\(parent)\"")
                }
            }
            for property in model.properties { checkReferences(property.value, in: model) }
        }
        for model in models.values.sorted(by: { $0.name < $1.name }) where chain(of: model.name) != nil {
            checkRules(model)
        }
    }

    /// The models that can be compiled: an acyclic chain, and references only to models that can be compiled
    /// themselves (so a set with problems still gets every later check).
    func buildable() -> [String] {
        var candidates = Set(models.keys).filter { !$0.isEmpty }
        var changed = true
        while changed {
            changed = false
            for name in candidates {
                let ok =
                    chain(of: name).map { $0.allSatisfy { candidates.contains($0.name) } } ?? false
                    && flattenedProperties(of: name).allSatisfy { $0.value.referencedModels.isSubset(of: candidates) }
                    && models[name]!.classRules.allSatisfy {
                        candidates.contains($0.use) && isDescendant($0.use, of: name)
                    }
                if !ok {
                    candidates.remove(name)
                    changed = true
                }
            }
        }
        return candidates.sorted()
    }

    /// The model's ancestry, root first, or nil when `extends` loops.
    func chain(of name: String) -> [ModelSchema]? {
        var result: [ModelSchema] = []
        var seen = Set<String>()
        var current = models[name]
        while let model = current {
            guard seen.insert(model.name).inserted else { return nil }
            result.append(model)
            current = model.parent.flatMap { models[$0] }
        }
        return result.reversed()
    }

    func isDescendant(_ name: String, of ancestor: String) -> Bool {
        chain(of: name)?.contains { $0.name == ancestor } ?? false
    }

    private mutating func checkReferences(_ value: ValueSchema, in model: ModelSchema) {
        switch value.type {
        case .builtin: break
        case .container(_, let element): if let element { checkReferences(element, in: model) }
        case .model(let name):
            if models[name] == nil { problem(model, value.typePointer, "unknown type \"\(name)\"") }
        }
    }

    /// Effective (pre-filter) properties: parents first, an override keeping its parent's position; the keyCase of
    /// the model `name` renames every property without `key`, inherited ones included.
    func flattenedProperties(of name: String) -> [PropertySchema] {
        var result: [PropertySchema] = []
        for model in chain(of: name) ?? [] {
            for property in model.properties {
                if let at = result.firstIndex(where: { $0.name == property.name }) {
                    result[at] = property
                } else {
                    result.append(property)
                }
            }
        }
        if let keyCase = resolved(name, \.keyCase) {
            for i in result.indices where !result[i].hasExplicitKey {
                result[i].keys = [MappedKey(keyCase.apply(to: result[i].name))]
            }
        }
        return result
    }

    /// The properties a model converts: flattened, then `blacklist` and `whitelist` applied.
    func effectiveProperties(of name: String) -> [PropertySchema] {
        let blacklist = Set(resolved(name, \.blacklist) ?? [])
        let whitelist = resolved(name, \.whitelist).map(Set.init)
        return flattenedProperties(of: name).filter {
            !blacklist.contains($0.name) && (whitelist?.contains($0.name) ?? true)
        }
    }

    func resolved<V>(_ name: String, _ rule: KeyPath<ModelSchema, Inheritable<V>>) -> V? {
        var value: V?
        for model in chain(of: name) ?? [] { value = model[keyPath: rule].resolved(parent: value) }
        return value
    }

    private mutating func checkRules(_ model: ModelSchema) {
        checkExpressions(model)
        for rule in model.classRules where !isDescendant(rule.use, of: model.name) {
            problem(model, rule.pointer, "use must name \(model.name) or a model that extends it, not \"\(rule.use)\"")
        }
        let names = Set(flattenedProperties(of: model.name).map(\.name))
        if case .set(let steps) = model.transformToJSON {
            for (i, name) in steps.omit.enumerated() where !names.contains(name) {
                problem(
                    model, model.origin.pointer + "/transformToJSON/omit/\(i)", "omit names no property \"\(name)\"")
            }
        }
        checkRoundTrip(model)
        if case .set(let rules) = model.validate {
            let groups = [("required", rules.required)] + rules.requireAny.enumerated().map { ("requireAny/\($0)", $1) }
            for (where_, list) in groups {
                for (i, name) in list.enumerated() where !names.contains(name) {
                    problem(
                        model, model.origin.pointer + "/validate/\(where_)/\(i)",
                        "validate names no property \"\(name)\"")
                }
            }
        }
    }
}
