// SPDX-License-Identifier: Apache-2.0

extension RegistrySnapshot {
    /// The models that extend `name`, name it as a property or element type, or pick it with `classForDictionary`,
    /// sorted: what keeps `name` from being deleted on its own.
    public func modelsUsing(_ name: String) -> [String] {
        models.compactMap { model -> String? in
            guard let model, model.name != name else { return nil }
            let schema = model.schema
            let uses =
                schema.parent == name || schema.classRules.contains { $0.use == name }
                || schema.properties.contains { $0.value.referencedModels.contains(name) }
            return uses ? model.name : nil
        }.sorted()
    }
}

extension ValueSchema {
    /// The model names this value's type names, its container's element type included.
    var referencedModels: Set<String> {
        switch type {
        case .builtin: []
        case .container(_, let element): element?.referencedModels ?? []
        case .model(let name): [name]
        }
    }
}
