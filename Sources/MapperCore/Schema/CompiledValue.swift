// SPDX-License-Identifier: Apache-2.0

/// The compiled type of a property or container element, with its per-value options.
final class CompiledValue: Sendable {
    let kind: Kind
    /// The type's name as users wrote it, for messages (`uint64`, `Owner`, `array`).
    let typeName: String
    /// ` converted to <typeName> `, the middle of a `coerced` message (`Converter.warnCoerced`).
    let coercedInfix: [UInt8]
    let constraints: CompiledConstraints?
    /// Date input formats tried before the built-in ones (`dateFormat.input`).
    let dateInput: [DateFormat]
    /// For `from=model` input: the output format first, then the input formats.
    let modelFormDateInput: [DateFormat]
    let dateOutput: DateFormat
    let base64: Bool
    /// The options of a `.withOptions` value (docs/schema.md, "Null, absence and strictness"); false and nil on
    /// every other value. `strict` is the property's `strict` (nil: the model's).
    let nullable: Bool
    let optional: Bool
    let acceptSingle: Bool
    let strict: Bool?
    /// For a model value: converted through `Converter.convertObjectWithOptions` (its model keeps unknown keys or
    /// is strict, or the value sits in a strict model or property, whose strictness a nested model does not take).
    let objectOptions: Bool
    /// Whether a property of this type writes `0` or `false` when it has no value (numeric types and `bool`,
    /// unless `optional`), and whether that is `false`: stored, so that the property loop reads them directly.
    let hasImplicitZero: Bool
    let zeroIsFalse: Bool

    /// Not `indirect`: the nested cases hold a class reference already, and a boxed payload costs a retain and a
    /// release each time a conversion reads it.
    enum Kind: Sendable {
        case bool, float, double, string, number, decimal, date, url, data, any, uuid, calendarDate
        case integer(ClosedRange<Int128>)
        case array(CompiledValue?)
        case set(CompiledValue?)
        case dictionary(CompiledValue?)
        case model(Int)
        /// The value with `nullable`, `optional`, `acceptSingle` or `strict`: read through
        /// `Converter.convertWithOptions`, then as the plain value it holds, so values without them pay nothing.
        case withOptions(CompiledValue)
    }

    init(
        kind: Kind, typeName: String, constraints: CompiledConstraints?, dateInput: [DateFormat] = [],
        dateOutput: DateFormat = .iso8601, base64: Bool = false
    ) {
        self.kind = kind
        self.typeName = typeName
        coercedInfix = Array(" converted to \(typeName) ".utf8)
        self.constraints = constraints
        self.dateInput = dateInput
        self.modelFormDateInput = [dateOutput] + dateInput
        self.dateOutput = dateOutput
        self.base64 = base64
        (nullable, optional, acceptSingle, strict, objectOptions) = (false, false, false, nil, false)
        switch kind {
        case .bool: (hasImplicitZero, zeroIsFalse) = (true, true)
        case .float, .double, .integer: (hasImplicitZero, zeroIsFalse) = (true, false)
        default: (hasImplicitZero, zeroIsFalse) = (false, false)
        }
    }

    /// `plain` with the options of a property or element spec.
    init(
        _ plain: CompiledValue, nullable: Bool, optional: Bool, acceptSingle: Bool, strict: Bool?,
        objectOptions: Bool = false
    ) {
        kind = .withOptions(plain)
        typeName = plain.typeName
        coercedInfix = plain.coercedInfix
        constraints = nil
        dateInput = plain.dateInput
        modelFormDateInput = plain.modelFormDateInput
        dateOutput = plain.dateOutput
        base64 = plain.base64
        (self.nullable, self.optional, self.acceptSingle, self.strict) = (nullable, optional, acceptSingle, strict)
        self.objectOptions = objectOptions
        hasImplicitZero = !optional && plain.hasImplicitZero
        zeroIsFalse = plain.zeroIsFalse
    }

}

/// Constraint operands converted to the property's type at registration.
struct CompiledConstraints: Sendable {
    /// Canonical output bytes of the bounds (numbers compared exactly by their decimal text).
    var minimum: [UInt8]?
    var maximum: [UInt8]?
    var minimumInstant: Instant?
    var maximumInstant: Instant?
    var minLength: Int?
    var maxLength: Int?
    var pattern: Pattern?
    /// Canonical model-form bytes of each allowed value.
    var enumValues: [[UInt8]]?
    /// The operands as written, for messages.
    var minimumText: String = ""
    var maximumText: String = ""
}
