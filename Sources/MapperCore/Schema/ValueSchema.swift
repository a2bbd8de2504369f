// SPDX-License-Identifier: Apache-2.0

/// What a property — or a container element given as a property object — declares about its value:
/// the type and the options that apply to each value of that type.
struct ValueSchema: Sendable, Equatable {
    var type: TypeReference
    var constraints = ConstraintSchema()
    /// `dateFormat` input formats (tried before the built-in ones) and the output format; dates only.
    var dateInput: [DateFormat] = []
    var dateOutput: DateFormat = .iso8601
    /// `encoding: base64` for `data`; `false` means `utf8`.
    var base64 = false
    /// `nullable` (null is a value) and `acceptSingle` (one record or many); also on element specs.
    var nullable = false
    var acceptSingle = false
    /// Where this spec sits in its document, for problems found later.
    var pointer: String = ""
    /// Where its type name is written (`…/type` in the object form).
    var typePointer: String = ""
}

/// The constraint operands exactly as written; they are converted as the property's type at compilation.
struct ConstraintSchema: Sendable, Equatable {
    var minimum: JSONValue?
    var maximum: JSONValue?
    var minLength: Int?
    var maxLength: Int?
    var pattern: String?
    var enumValues: [JSONValue]?

    var isEmpty: Bool {
        minimum == nil && maximum == nil && minLength == nil && maxLength == nil && pattern == nil && enumValues == nil
    }
}

/// One property of a model document.
struct PropertySchema: Sendable, Equatable {
    var name: String
    /// The alternatives of `key`, tried in order; each is one literal key or a key path (see `MappedKey`).
    var keys: [MappedKey]
    /// Whether `key` was written (else `keys` is the name, which the model's `keyCase` may change).
    var hasExplicitKey = false
    var value: ValueSchema
    var defaultValue: JSONValue?
    var required = false
    /// `optional`: no implicit `0`/`false` (numeric types and `bool`).
    var optional = false
    /// `strict`: the property's warnings are errors (`false`: not even in a strict model); nil: the model's.
    var strict: Bool?
    var pointer: String
}
