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

    /// Not `indirect`: the nested cases hold a class reference already, and a boxed payload costs a retain and a
    /// release each time a conversion reads it.
    enum Kind: Sendable {
        case bool, float, double, string, number, decimal, date, url, data, any
        case integer(ClosedRange<Int128>)
        case array(CompiledValue?)
        case set(CompiledValue?)
        case dictionary(CompiledValue?)
        case model(Int)
    }

    init(kind: Kind, typeName: String, constraints: CompiledConstraints?, dateInput: [DateFormat] = [],
         dateOutput: DateFormat = .iso8601, base64: Bool = false) {
        self.kind = kind
        self.typeName = typeName
        coercedInfix = Array(" converted to \(typeName) ".utf8)
        self.constraints = constraints
        self.dateInput = dateInput
        self.modelFormDateInput = [dateOutput] + dateInput
        self.dateOutput = dateOutput
        self.base64 = base64
    }

    var isNumeric: Bool {
        switch kind {
        case .bool, .float, .double, .integer: true
        default: false
        }
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
