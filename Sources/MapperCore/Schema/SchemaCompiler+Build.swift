// SPDX-License-Identifier: Apache-2.0

extension SchemaCompiler {
    /// Phase A: the model's metadata, everything but its converted defaults.
    mutating func build(_ name: String) -> CompiledModel {
        let schema = models[name]!
        let all = flattenedProperties(of: name)
        let effective = effectiveProperties(of: name)
        let willTransform = resolved(name, \.willTransform)
        let validate = resolved(name, \.validate)

        // Every key the model reads, first components as slot keys and whole paths for the unknown-key trie.
        var readPaths: [[[UInt8]]] = all.flatMap { $0.keys.map(\.components) }
        var predicateKeys: [MappedKey] = []
        func collect(_ predicate: Predicate) {
            switch predicate {
            case .has(let key), .equals(let key, _), .isIn(let key, _): predicateKeys.append(key)
            case .all(let list), .any(let list): list.forEach(collect)
            case .not(let inner): collect(inner)
            }
        }
        for rule in schema.classRules { collect(rule.when) }
        readPaths += predicateKeys.map(\.components)
        if let steps = willTransform {
            readPaths += steps.rename.flatMap { [$0.from.components, $0.to.components] }
            readPaths += steps.remove.map(\.components) + steps.defaults.map(\.key.components)
        }
        // Keys that `transformToJSON.set` writes are read and ignored, so `/normalize` output reads back.
        let transformToJSON = resolved(name, \.transformToJSON)
        readPaths += transformToJSON?.set.map(\.key.components) ?? []
        var firstKeys: [[UInt8]] = []
        var firstKeyIDs: [[UInt8]: Int] = [:]
        for path in readPaths where firstKeyIDs[path[0]] == nil {
            firstKeyIDs[path[0]] = firstKeys.count
            firstKeys.append(path[0])
        }

        let isStrict = resolved(name, \.strict) ?? false
        let indexByName = Dictionary(effective.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        let properties = effective.enumerated().map { index, property in
            let value = compileValue(
                property.value, in: schema, optional: property.optional, strict: property.strict,
                insideStrict: property.strict ?? isStrict)
            var expression: PropertyExpression?
            var readValue: CompiledValue?
            if let source = property.computed {
                expression = PropertyExpression(source, isComputed: true, element: nil, indexByName: indexByName)
            } else if let source = property.transform {
                expression = PropertyExpression(
                    source, isComputed: false, element: value.element, indexByName: indexByName)
                readValue = value.withoutConstraints
            }
            return CompiledProperty(
                name: property.name, keys: property.keys, keyIDs: property.keys.map { firstKeyIDs[$0.components[0]]! },
                modelKeyID: index, value: value, hasDeclaredDefault: property.defaultValue != nil,
                readValue: readValue, expression: expression)
        }
        var required = effective.indices.filter { effective[$0].required }
        for name in validate?.required ?? [] {
            if let i = indexByName[name], !required.contains(i) { required.append(i) }
        }
        required.sort()
        let requireAny = (validate?.requireAny ?? []).map { group in
            (indexes: group.compactMap { indexByName[$0] }, names: group)
        }

        // Model-form predicates read property names where the wire predicate names a mapped key.
        var mappedToName: [MappedKey: String] = [:]
        for property in all.reversed() { for key in property.keys { mappedToName[key] = property.name } }
        func modelForm(_ predicate: Predicate) -> Predicate {
            let rename = { (key: MappedKey) in mappedToName[key].map { MappedKey(literal: $0) } ?? key }
            switch predicate {
            case .has(let key): return .has(rename(key))
            case .equals(let key, let value): return .equals(rename(key), value)
            case .isIn(let key, let values): return .isIn(rename(key), values)
            case .all(let list): return .all(list.map(modelForm))
            case .any(let list): return .any(list.map(modelForm))
            case .not(let inner): return .not(modelForm(inner))
            }
        }
        let rules = schema.classRules.map {
            CompiledClassRule(wire: $0.when, modelForm: modelForm($0.when), useID: ids[$0.use]!)
        }
        return CompiledModel(
            id: ids[name]!, name: name, parentID: schema.parent.flatMap { ids[$0] }, properties: properties,
            wireKeys: KeyIndex(firstKeys), modelKeys: KeyIndex(effective.map { Array($0.name.utf8) }),
            rejectsUnknownKeys: resolved(name, \.unknownKeys) == .reject, readTrie: KeyTrie.build(readPaths),
            modelReadKeys: Set(all.map { Array($0.name.utf8) } + rules.flatMap { Self.firstKeys($0.modelForm) }),
            willTransform: willTransform, classRules: rules, required: required, requireAny: requireAny,
            transformToJSON: transformToJSON,
            rules: resolved(name, \.rules).flatMap { CompiledRules($0, propertyNames: effective.map(\.name)) },
            schema: schema, keepsUnknownKeys: resolved(name, \.unknownKeys) == .keep, isStrict: isStrict)
    }

    static func firstKeys(_ predicate: Predicate) -> [[UInt8]] {
        switch predicate {
        case .has(let key), .equals(let key, _), .isIn(let key, _): [key.components[0]]
        case .all(let list), .any(let list): list.flatMap(firstKeys)
        case .not(let inner): firstKeys(inner)
        }
    }

    /// The compiled value, wrapped with its options (`CompiledValue.Kind.withOptions`) when it declares any; a
    /// property passes its own `optional` and `strict`, and `insideStrict` when it is read strictly (a model value
    /// there, or one whose model has object options, is read through `Converter.convertObjectWithOptions`).
    mutating func compileValue(
        _ value: ValueSchema, in model: ModelSchema, optional: Bool = false, strict: Bool? = nil,
        insideStrict: Bool = false
    ) -> CompiledValue {
        let plain = compilePlainValue(value, in: model, insideStrict: insideStrict)
        var objectOptions = false
        if case .model(let target) = value.type {
            objectOptions =
                insideStrict || resolved(target, \.unknownKeys) == .keep || resolved(target, \.strict) == true
        }
        guard value.nullable || value.acceptSingle || optional || strict != nil || objectOptions else { return plain }
        return CompiledValue(
            plain, nullable: value.nullable, optional: optional, acceptSingle: value.acceptSingle,
            strict: strict, objectOptions: objectOptions)
    }

    private mutating func compilePlainValue(_ value: ValueSchema, in model: ModelSchema, insideStrict: Bool)
        -> CompiledValue
    {
        let kind: CompiledValue.Kind
        let typeName: String
        switch value.type {
        case .model(let target):
            kind = .model(ids[target]!)
            typeName = target
        case .container(let container, let element):
            let compiled = element.map { compileValue($0, in: model, insideStrict: insideStrict) }
            kind = container == .array ? .array(compiled) : container == .set ? .set(compiled) : .dictionary(compiled)
            typeName = container.rawValue
        case .builtin(let builtin):
            typeName = builtin.rawValue
            switch builtin {
            case .bool: kind = .bool
            case .float: kind = .float
            case .double: kind = .double
            case .string: kind = .string
            case .number: kind = .number
            case .decimal: kind = .decimal
            case .date: kind = .date
            case .url: kind = .url
            case .data: kind = .data
            case .any: kind = .any
            case .uuid: kind = .uuid
            case .calendarDate: kind = .calendarDate
            default: kind = .integer(builtin.integerRange!)
            }
        }
        let bare = CompiledValue(
            kind: kind, typeName: typeName, constraints: nil, dateInput: value.dateInput,
            dateOutput: value.dateOutput, base64: value.base64)
        guard !value.constraints.isEmpty else { return bare }
        let constraints = compileConstraints(value.constraints, for: bare, at: value.pointer, in: model)
        return CompiledValue(
            kind: kind, typeName: typeName, constraints: constraints, dateInput: value.dateInput,
            dateOutput: value.dateOutput, base64: value.base64)
    }
}
