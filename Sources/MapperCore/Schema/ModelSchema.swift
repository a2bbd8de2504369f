// SPDX-License-Identifier: Apache-2.0

/// A model document as registered (docs/schema.md, "A model"): YYModel's class plus its protocol methods, as data.
struct ModelSchema: Sendable, Equatable {
    var name: String
    var parent: String?
    /// Declaration order is output order.
    var properties: [PropertySchema]
    var blacklist: Inheritable<[String]> = .inherit
    var whitelist: Inheritable<[String]> = .inherit
    var classRules: [ClassRule] = []
    var willTransform: Inheritable<WillTransform> = .inherit
    var validate: Inheritable<ValidateRules> = .inherit
    var unknownKeys: Inheritable<UnknownKeys> = .inherit
    /// `strict`: warnings at the model's own properties and object are errors.
    var strict: Inheritable<Bool> = .inherit
    var transformToJSON: Inheritable<TransformToJSON> = .inherit
    /// `keyCase`: the wire key of every property without `key`.
    var keyCase: Inheritable<KeyCase> = .inherit
    /// `rules`: expressions that must hold (docs/rules.md); inherited as `validate` is.
    var rules: Inheritable<[RuleEntry]> = .inherit
    /// Where the document came from, for problem reports.
    var origin = SchemaOrigin(file: "", pointer: "")
}

/// `unknownKeys`: what happens to input keys that nothing reads.
enum UnknownKeys: String, Sendable, Equatable, CaseIterable {
    case ignore, reject, keep
}

/// A model-level rule that a child inherits unless it declares its own; an explicit `null` turns it off.
enum Inheritable<Value: Sendable & Equatable>: Sendable, Equatable {
    case inherit
    case off
    case set(Value)

    func resolved(parent: Value?) -> Value? {
        switch self {
        case .inherit: parent
        case .off: nil
        case .set(let value): value
        }
    }
}

/// `classForDictionary`: the first rule whose predicate holds picks the model to build.
struct ClassRule: Sendable, Equatable {
    var when: Predicate
    var use: String
    var pointer: String
}

indirect enum Predicate: Sendable, Equatable {
    case has(MappedKey)
    case equals(MappedKey, JSONValue)
    case isIn(MappedKey, [JSONValue])
    case all([Predicate])
    case any([Predicate])
    case not(Predicate)
}

/// `willTransform`: declarative steps run on the input object, in this order.
struct WillTransform: Sendable, Equatable {
    var unwrap: MappedKey?
    var rename: [(from: MappedKey, to: MappedKey)] = []
    var remove: [MappedKey] = []
    var defaults: [(key: MappedKey, value: JSONValue)] = []

    static func == (a: WillTransform, b: WillTransform) -> Bool {
        a.unwrap == b.unwrap && a.remove == b.remove
            && a.rename.map(\.from) == b.rename.map(\.from) && a.rename.map(\.to) == b.rename.map(\.to)
            && a.defaults.map(\.key) == b.defaults.map(\.key) && a.defaults.map(\.value) == b.defaults.map(\.value)
    }
}

/// `validate`: rules that make the model invalid.
struct ValidateRules: Sendable, Equatable {
    var required: [String] = []
    var requireAny: [[String]] = []
}

/// One entry of a model's `rules`: a bool expression, the message of its `rule_failed` entry, and where that entry
/// goes (a JSON Pointer relative to the object; empty for the object itself).
struct RuleEntry: Sendable, Equatable {
    var rule: String
    var message: String
    var path: String
    /// The entry's pointer in its schema file, for problems.
    var pointer: String
}

/// `transformToJSON`: steps on the wire-form object.
struct TransformToJSON: Sendable, Equatable {
    var omit: [String] = []
    var set: [(key: MappedKey, value: JSONValue)] = []

    static func == (a: TransformToJSON, b: TransformToJSON) -> Bool {
        a.omit == b.omit && a.set.map(\.key) == b.set.map(\.key) && a.set.map(\.value) == b.set.map(\.value)
    }
}

/// The file (or API body) a document came from and the pointer of the document inside it.
struct SchemaOrigin: Sendable, Equatable {
    var file: String
    var pointer: String
}
