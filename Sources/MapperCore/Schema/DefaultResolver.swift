// SPDX-License-Identifier: Apache-2.0

/// Phase B of compilation: converts every declared `default` once, in both output forms, with the real converter.
///
/// Defaults are resolved on demand — converting one default may need another model's defaults — and a default
/// that needs itself again is a cycle problem. Used only while a snapshot is being built, on one thread.
final class DefaultResolver: @unchecked Sendable {
    private var inProgress = Set<ObjectIdentifier>()
    private(set) var problems: [SchemaProblem] = []
    private let schemas: [String: ModelSchema]
    private let limits: SchemaLimits
    unowned(unsafe) var snapshot: RegistrySnapshot!

    init(schemas: [String: ModelSchema], limits: SchemaLimits) {
        self.schemas = schemas
        self.limits = limits
    }

    func resolveAll(_ models: [CompiledModel]) {
        for model in models { for property in model.properties { resolve(property, of: model) } }
    }

    /// Converts the property's default if it has one and it is not converted yet.
    func resolve(_ property: CompiledProperty, of model: CompiledModel) {
        guard property.hasDeclaredDefault, property.defaultValue == nil else { return }
        let id = ObjectIdentifier(property)
        guard inProgress.insert(id).inserted else { return }
        defer { inProgress.remove(id) }
        guard let declared = declaration(of: property, in: model) else { return }
        let file = declared.model.origin.file
        let pointer = declared.property.pointer + "/default"
        let constant = declared.property.defaultValue!
        let modelForm = ConstantConversion.convert(constant, as: property.value, snapshot: snapshot, wire: false)
        if modelForm.outcome != .value {
            let why = modelForm.issue?.message ?? "it gives no value"
            problems.append(SchemaProblem(file: file, path: pointer, message: "the default does not convert: \(why)"))
            return
        }
        // A default that a float or double cannot hold would write another number than the schema says.
        let lost =
            modelForm.issue?.code == .precisionLost
            ? modelForm.issue?.message
            : modelForm.diagnostics.entries.first { $0.code == .precisionLost }?.message
        if let lost {
            problems.append(SchemaProblem(file: file, path: pointer, message: "the default loses precision: \(lost)"))
            return
        }
        if let failure = modelForm.diagnostics.entries.first(where: \.isError) {
            problems.append(
                SchemaProblem(file: file, path: pointer, message: "the default is invalid: \(failure.message)"))
            return
        }
        if modelForm.bytes.count > limits.maxDefaultBytes {
            problems.append(
                SchemaProblem(
                    file: file, path: pointer,
                    message:
                        "the converted default is \(modelForm.bytes.count) bytes, over the limit of \(limits.maxDefaultBytes)"
                ))
            return
        }
        let wireForm = ConstantConversion.convert(constant, as: property.value, snapshot: snapshot, wire: true)
        property.defaultValue = CompiledDefault(modelForm: modelForm.bytes, wireForm: wireForm.bytes)
    }

    /// Called by the converter when it needs a default that is not converted yet.
    func needed(_ property: CompiledProperty, of model: CompiledModel) {
        if inProgress.contains(ObjectIdentifier(property)) {
            guard let declared = declaration(of: property, in: model) else { return }
            let problem = SchemaProblem(
                file: declared.model.origin.file, path: declared.property.pointer + "/default",
                message: "the default of \(model.name).\(property.name) needs itself again (a cycle of defaults)")
            if !problems.contains(problem) { problems.append(problem) }
            return
        }
        resolve(property, of: model)
    }

    /// The model document and property declaration that the compiled property came from (the nearest in the chain).
    private func declaration(of property: CompiledProperty, in model: CompiledModel) -> (
        model: ModelSchema, property: PropertySchema
    )? {
        var current: ModelSchema? = schemas[model.name]
        while let schema = current {
            if let declared = schema.properties.first(where: { $0.name == property.name }) { return (schema, declared) }
            current = schema.parent.flatMap { schemas[$0] }
        }
        return nil
    }
}
