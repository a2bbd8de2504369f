// SPDX-License-Identifier: Apache-2.0

/// A model compiled once, at registration, into immutable metadata (YYModel's `_YYModelMeta`).
///
/// Example: `Book extends Item` with `Item.id: {key: ["id", "ID"]}` and `Book.desc: {key: "ext.desc"}` compiles to
///
///     properties  [id (alternatives ["id"], ["ID"]), desc (alternatives ["ext", "desc"])]   parents first
///     keyIndex    "id" → 0, "ID" → 1, "ext" → 2          distinct FIRST components of every alternative
///     property.keyIDs  id → [0, 1], desc → [2]            so a conversion fills one slot per input key, then
///                                                         each property takes its first present alternative
///
/// Everything a conversion needs is here, resolved: inherited rules, blacklist/whitelist applied, key paths split,
/// model references as ids into the snapshot's table, defaults converted to bytes, fragments like `"desc":`
/// rendered. Instances are never mutated after the snapshot that holds them is published.
final class CompiledModel: Sendable {
    // Stored in the order a conversion reads them: the fields every object reads first, together in the object's
    // first cache lines; names, the schema and what only errors and expressions need after them.
    /// Stable id of this model's name in its registry; other models refer to it by this id.
    let id: Int
    /// Effective properties in output order: inheritance flattened, blacklist and whitelist applied.
    let properties: [CompiledProperty]
    /// Per property, in `properties` order, the plain facts the conversion loop reads first; the common case
    /// touches no reference (see `PropertyPlan`).
    let plans: [PropertyPlan]
    /// Every property's `,"name":` and `,"key":` fragments back to back; a plan holds their ranges (the first
    /// property written skips the comma).
    let fragments: [UInt8]
    /// Distinct first key components (wire form) → key id; includes blacklisted properties' keys, predicate keys
    /// and `willTransform` keys, so every key the model reads has an id (the rest are unknown keys).
    let wireKeys: KeyIndex
    /// Property names → key id, for `from=model` input.
    let modelKeys: KeyIndex
    /// Whether unread input keys are `unknown_key` errors.
    let rejectsUnknownKeys: Bool
    /// Whether unread input keys of the model's own object are written after the properties (`unknownKeys: keep`).
    let keepsUnknownKeys: Bool
    /// `strict`: warnings at the model's own properties and object are errors.
    let isStrict: Bool
    /// True when wire output can be streamed: every property writes one plain key, no two write the same key,
    /// and there is neither `transformToJSON` nor `unwrap` to apply.
    let wireIsFlat: Bool
    /// Whether a property has `transform` or `computed`: only then, or when the model has `rules`, does a conversion
    /// note where values are written and evaluate expressions (`Converter.convertProperties`).
    let hasPropertyExpressions: Bool
    /// Whether the model's objects are converted through `Converter.convertObjectWithOptions`.
    var hasObjectOptions: Bool { keepsUnknownKeys || isStrict }
    let willTransform: WillTransform?
    /// Own `classForDictionary` rules (never inherited).
    let classRules: [CompiledClassRule]
    /// Property indexes that must hold a value (`required: true` and `validate.required`), in declaration order.
    let required: [Int]
    /// `rules`, compiled; nil when the model has none (docs/rules.md).
    let rules: CompiledRules?
    let transformToJSON: TransformToJSON?
    let name: String
    /// The parent's id, when the model extends another.
    let parentID: Int?
    /// Every key path the model reads, as a trie, for finding stray keys under `unknownKeys: reject`.
    let readTrie: KeyTrie
    /// The keys model-form input may hold: every property name (blacklisted ones too) and predicate key.
    let modelReadKeys: Set<[UInt8]>
    /// `validate.requireAny` groups as property indexes, each with its names for the message.
    let requireAny: [(indexes: [Int], names: [String])]
    /// Per property: whether a model rule or a property expression reads its value; then the conversion notes
    /// where the value is written (`ExpressionState.spanFrame`). Apart from `plans`, which models without expressions
    /// read in their loop, and which this would make larger.
    let readByRules: [Bool]
    /// Per property: its entry in a conversion's frame of value offsets (`ExpressionState.spanFrame`) when an
    /// expression reads it or it has one, else -1; `spanCount` such properties.
    let spanIndex: [Int]
    let spanCount: Int
    /// The schema as registered.
    let schema: ModelSchema

    init(
        id: Int, name: String, parentID: Int?, properties: [CompiledProperty], wireKeys: KeyIndex,
        modelKeys: KeyIndex, rejectsUnknownKeys: Bool, readTrie: KeyTrie, modelReadKeys: Set<[UInt8]>,
        willTransform: WillTransform?,
        classRules: [CompiledClassRule], required: [Int], requireAny: [(indexes: [Int], names: [String])],
        transformToJSON: TransformToJSON?, rules: CompiledRules? = nil, schema: ModelSchema,
        keepsUnknownKeys: Bool = false, isStrict: Bool = false
    ) {
        self.id = id
        self.name = name
        self.parentID = parentID
        self.properties = properties
        self.wireKeys = wireKeys
        self.modelKeys = modelKeys
        self.rejectsUnknownKeys = rejectsUnknownKeys
        self.keepsUnknownKeys = keepsUnknownKeys
        self.isStrict = isStrict
        self.readTrie = readTrie
        self.modelReadKeys = modelReadKeys
        self.willTransform = willTransform
        self.classRules = classRules
        self.required = required
        self.requireAny = requireAny
        self.transformToJSON = transformToJSON
        self.rules = rules
        hasPropertyExpressions = properties.contains { $0.expression != nil }
        self.schema = schema
        var fragments: [UInt8] = []
        let ruled = Set(required + requireAny.flatMap(\.indexes))
        var read = rules?.readProperties ?? []
        for property in properties {
            if let expression = property.expression {
                read.formUnion(expression.readProperties(count: properties.count))
            }
        }
        readByRules = properties.indices.map { read.contains($0) }
        var spans = 0
        spanIndex = properties.indices.map { index in
            guard read.contains(index) || properties[index].expression != nil else { return -1 }
            defer { spans += 1 }
            return spans
        }
        spanCount = spans
        plans = properties.indices.map {
            PropertyPlan(properties[$0], ruled: ruled.contains($0) || read.contains($0), fragments: &fragments)
        }
        self.fragments = fragments
        var firstKeys = Set<[UInt8]>()
        wireIsFlat =
            transformToJSON == nil && willTransform?.unwrap == nil
            && properties.allSatisfy { !$0.keys[0].isPath && firstKeys.insert($0.keys[0].components[0]).inserted }
    }
}

/// One effective property.
final class CompiledProperty: Sendable {
    // Stored in the order the conversion loop reads them (see `CompiledModel`).
    /// `keyIDs[0]` when the property has one key and it is no key path (the common case, found by one slot
    /// read), else -1.
    let plainKeyID: Int
    let value: CompiledValue
    let hasDeclaredDefault: Bool
    /// `transform` or `computed`, compiled; nil for most properties.
    let expression: PropertyExpression?
    /// What a read value is converted as before its `transform`: `value` without constraints, which apply to the
    /// transform's result instead; `value` itself for every other property.
    let readValue: CompiledValue
    /// The `modelKeys` id of the property name.
    let modelKeyID: Int
    /// For each alternative, the `wireKeys` id of its first component.
    let keyIDs: [Int]
    /// The `key` alternatives, tried in order.
    let keys: [MappedKey]
    /// The declared default, converted at registration (set before the snapshot is published, never after).
    nonisolated(unsafe) var defaultValue: CompiledDefault?
    let name: String

    init(
        name: String, keys: [MappedKey], keyIDs: [Int], modelKeyID: Int, value: CompiledValue, hasDeclaredDefault: Bool,
        readValue: CompiledValue? = nil, expression: PropertyExpression? = nil
    ) {
        self.readValue = readValue ?? value
        self.expression = expression
        self.name = name
        self.keys = keys
        self.keyIDs = keyIDs
        self.modelKeyID = modelKeyID
        self.plainKeyID = keys.count == 1 && !keys[0].isPath && expression == nil ? keyIDs[0] : -1
        self.value = value
        self.hasDeclaredDefault = hasDeclaredDefault
    }
}

/// What the conversion loop needs to know about a property before anything else, as plain values: reading a
/// class instance's fields costs a retain and a release each time, and most properties are settled by these alone
/// (an absent key, or a common value that `Converter.writeCommonValue` writes directly).
struct PropertyPlan: Sendable {
    /// `CompiledProperty.plainKeyID`.
    let plainKeyID: Int
    /// Whether `validate` reads this property (`required`, `requireAny`): only then is it noted that it holds a
    /// value.
    let ruled: Bool
    let hasDeclaredDefault: Bool
    /// What an absent numeric property writes (`0`, or `false` for a `bool`); nil for other types.
    let implicitZero: ImplicitZero?
    /// What `writeCommonValue` may write directly; nil when the value never qualifies (constraints, containers,
    /// models, custom date formats and the rarer types).
    let common: CommonForm?
    /// `,"name":` (written before the value in model form) and `,"key":` (the first alternative's key, written in
    /// flat wire form) in the model's `fragments`.
    let nameFragment: Range<Int>
    let wireFragment: Range<Int>

    /// The fragment written before the value: with its comma unless the property is the object's first.
    @inline(__always)
    func fragment(wire: Bool, first: Bool) -> Range<Int> {
        let range = wire ? wireFragment : nameFragment
        return first ? range.lowerBound + 1..<range.upperBound : range
    }

    enum ImplicitZero: Sendable { case zero, `false` }

    enum CommonForm: Sendable {
        case string, bool, url
        /// An integer type: its bounds, and the property's value, for the `coerced` warning of an integer sent as a
        /// string. Unretained: the property holds the value, and the model holds the property and this plan.
        case integer(IntegerBounds, Unmanaged<CompiledValue>)
        /// A `date` with the built-in input formats and ISO 8601 output.
        case isoDate
    }

    init(_ property: CompiledProperty, ruled: Bool, fragments: inout [UInt8]) {
        self.ruled = ruled
        let value = property.value
        plainKeyID = property.plainKeyID
        hasDeclaredDefault = property.hasDeclaredDefault
        implicitZero =
            property.expression?.isComputed == true || !value.hasImplicitZero
            ? nil : (value.zeroIsFalse ? .false : .zero)
        switch value.kind {
        case _ where value.constraints != nil: common = nil
        case _ where property.expression != nil: common = nil  // the general path applies the expression
        case .string: common = .string
        case .bool: common = .bool
        case .url: common = .url
        case .integer(let range): common = .integer(IntegerBounds(range), Unmanaged.passUnretained(value))
        case .date where value.dateInput.isEmpty && value.dateOutput == .iso8601: common = .isoDate
        default: common = nil
        }
        var start = fragments.count
        fragments.append(.comma)
        JSONValue.writeString(property.name, into: &fragments)
        fragments.append(.colon)
        nameFragment = start..<fragments.count
        start = fragments.count
        fragments.append(.comma)
        JSONStrings.writeQuoted(property.keys[0].components[0], into: &fragments)
        fragments.append(.colon)
        wireFragment = start..<fragments.count
    }
}

/// A declared default in both output forms.
struct CompiledDefault: Sendable {
    var modelForm: [UInt8]
    var wireForm: [UInt8]
}

/// A `classForDictionary` rule with its target resolved.
struct CompiledClassRule: Sendable {
    /// The predicate over wire-form keys, and the same predicate with mapped keys replaced by property names.
    let wire: Predicate
    let modelForm: Predicate
    let useID: Int
}
