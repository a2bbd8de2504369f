// SPDX-License-Identifier: Apache-2.0

extension SchemaCompiler {
    /// Constraint operands converted as the property's type; an operand that does not convert cleanly, or a
    /// constraint that does not fit the type, is a problem.
    mutating func compileConstraints(
        _ c: ConstraintSchema, for value: CompiledValue, at pointer: String,
        in model: ModelSchema
    ) -> CompiledConstraints {
        var compiled = CompiledConstraints()
        let isNumber: Bool
        let isText: Bool
        let isContainer: Bool
        let isScalar: Bool
        switch value.kind {
        case .integer, .float, .double, .decimal, .number:
            (isNumber, isText, isContainer, isScalar) = (true, false, false, true)
        case .date: (isNumber, isText, isContainer, isScalar) = (false, false, false, true)
        case .string, .url: (isNumber, isText, isContainer, isScalar) = (false, true, false, true)
        case .data, .bool, .uuid, .calendarDate: (isNumber, isText, isContainer, isScalar) = (false, false, false, true)
        case .array, .set, .dictionary: (isNumber, isText, isContainer, isScalar) = (false, false, true, false)
        case .any, .model, .withOptions: (isNumber, isText, isContainer, isScalar) = (false, false, false, false)
        }
        let isDate: Bool = { if case .date = value.kind { return true } else { return false } }()
        for (name, operand) in [("minimum", c.minimum), ("maximum", c.maximum)] {
            guard let operand else { continue }
            let at = pointer + "/" + name
            guard isNumber || isDate else {
                problem(model, at, "\(name) does not apply to \(value.typeName)")
                continue
            }
            if isDate {
                let epoch = CompiledValue(
                    kind: .date, typeName: "date", constraints: nil, dateInput: value.dateInput,
                    dateOutput: .epoch)
                guard let bytes = cleanConstant(operand, as: epoch, at: at, in: model) else { continue }
                let reading = bytes.withUnsafeBytes { DateFormatting.readEpoch($0, millis: false) }
                guard case .instant(let instant, _) = reading else { continue }
                if name == "minimum" { compiled.minimumInstant = instant } else { compiled.maximumInstant = instant }
            } else {
                guard let bytes = cleanConstant(operand, as: value, at: at, in: model) else { continue }
                if name == "minimum" { compiled.minimum = bytes } else { compiled.maximum = bytes }
            }
            let text = String(decoding: operand.bytes, as: UTF8.self)
            if name == "minimum" { compiled.minimumText = text } else { compiled.maximumText = text }
        }
        for (name, length) in [("minLength", c.minLength), ("maxLength", c.maxLength)] where length != nil {
            guard isText || isContainer else {
                problem(model, pointer + "/" + name, "\(name) does not apply to \(value.typeName)")
                continue
            }
        }
        compiled.minLength = c.minLength
        compiled.maxLength = c.maxLength
        if let source = c.pattern {
            if !isText {
                problem(model, pointer + "/pattern", "pattern does not apply to \(value.typeName)")
            } else {
                compiled.pattern = try? Pattern(source)  // the syntax was checked when the document was decoded
            }
        }
        if let options = c.enumValues {
            if !isScalar {
                problem(model, pointer + "/enum", "enum does not apply to \(value.typeName)")
            } else {
                compiled.enumValues = options.enumerated().compactMap {
                    cleanConstant($1, as: value, at: JSONPointer.appending(pointer + "/enum", $0), in: model)
                }
            }
        }
        return compiled
    }

    /// The canonical bytes of a constant converted without any warning, or nil after recording a problem.
    private mutating func cleanConstant(
        _ constant: JSONValue, as value: CompiledValue, at pointer: String,
        in model: ModelSchema
    ) -> [UInt8]? {
        let converted = ConstantConversion.convert(constant, as: value, snapshot: RegistrySnapshot.empty, wire: false)
        guard converted.outcome == .value, converted.issue == nil, converted.diagnostics.isEmpty else {
            let why = converted.diagnostics.entries.first?.message ?? converted.issue?.message ?? "it gives no value"
            problem(
                model, pointer,
                "\(String(decoding: constant.bytes, as: UTF8.self)) does not convert to \(value.typeName) cleanly: \(why)"
            )
            return nil
        }
        return converted.bytes
    }
}

/// Converts a schema constant (a default, a constraint operand) with the real converter.
enum ConstantConversion {
    struct Converted {
        var bytes: [UInt8]
        var outcome: TypeCoercion.Outcome
        var issue: Issue?
        var diagnostics: Diagnostics
    }

    static func convert(_ constant: JSONValue, as value: CompiledValue, snapshot: RegistrySnapshot, wire: Bool)
        -> Converted
    {
        let bytes = constant.bytes
        var tape = JSONTape()
        return bytes.withUnsafeBytes { raw in
            do throws(JSONSyntaxError) {
                try JSONScanner.scan(raw, into: &tape, maxDepth: 1024)
            } catch {
                return Converted(bytes: [], outcome: .noValue, issue: nil, diagnostics: Diagnostics(strict: true))
            }
            return tape.tokens.withUnsafeBufferPointer { tokens in
                var options = ConversionOptions()
                options.output = wire ? .wire : .model
                var converter = Converter(snapshot: snapshot, options: options, input: raw, tokens: tokens)
                let result = converter.convert(ValueRef(document: 0, index: 0), as: value)
                let out = converter.out.array
                converter.recycleScratch()
                return Converted(
                    bytes: out, outcome: result.outcome, issue: result.issue,
                    diagnostics: converter.diagnostics)
            }
        }
    }
}
