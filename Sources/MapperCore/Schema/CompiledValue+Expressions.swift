// SPDX-License-Identifier: Apache-2.0

extension CompiledValue {
    /// The same value without constraints: what a `transform`ed property is read as, before its expression runs.
    var withoutConstraints: CompiledValue {
        CompiledValue(
            kind: kind, typeName: typeName, constraints: nil, dateInput: dateInput, dateOutput: dateOutput,
            base64: base64)
    }

    /// The element type of an array, set or dictionary declared with `of`; nil otherwise.
    var element: CompiledValue? {
        switch kind {
        case .array(let element), .set(let element), .dictionary(let element): element
        default: nil
        }
    }
}
