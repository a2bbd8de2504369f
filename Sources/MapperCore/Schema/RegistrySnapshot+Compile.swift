// SPDX-License-Identifier: Apache-2.0

extension RegistrySnapshot {
    /// Validates and compiles `schemas` as one whole set into a snapshot: the registry's publish and a pinned
    /// version's compile share it. Returns the snapshot, how many models were compiled, and every problem found
    /// (`earlier` first); the snapshot is usable only when there are none.
    static func compile(
        _ schemas: [String: ModelSchema], ids: [String: Int], limits: SchemaLimits,
        entries: [String: ModelEntry], lifecycles: [String: ModelLifecycle],
        earlier: [SchemaProblem] = []
    ) -> (RegistrySnapshot, Int, [SchemaProblem]) {
        var compiler = SchemaCompiler(models: Array(schemas.values), ids: ids, limits: limits)
        compiler.validateSet()
        var compiled: [CompiledModel] = []
        for name in compiler.buildable() { compiled.append(compiler.build(name)) }
        var problems = earlier + compiler.problems
        var table = [CompiledModel?](repeating: nil, count: (compiler.ids.values.max() ?? -1) + 1)
        for model in compiled { table[model.id] = model }
        let snapshot = RegistrySnapshot(
            models: table, ids: compiler.ids, entries: entries, lifecycles: lifecycles,
            schemas: schemas, limits: limits)
        let resolver = DefaultResolver(schemas: schemas, limits: limits)
        resolver.snapshot = snapshot
        snapshot.defaultResolver = resolver
        resolver.resolveAll(compiled)
        snapshot.defaultResolver = nil
        problems += resolver.problems
        return (snapshot, compiled.count, problems)
    }
}
