// SPDX-License-Identifier: Apache-2.0

/// One reason a proposed version is not compatible with an earlier one (docs/lifecycle.md, Differences).
public struct CompatibilityDifference: Sendable, Equatable {
    /// The side of the model: `input` or `output`.
    public var view: CompatibilityView
    /// A JSON Pointer into that view's JSON Schema of the proposed version (of the earlier one for what was
    /// removed).
    public var path: String
    /// Confluent's change name, UPPER_SNAKE (`TYPE_NARROWED`, `REQUIRED_ATTRIBUTE_ADDED`, …).
    public var code: String
    /// One sentence.
    public var message: String
    /// The model the difference is in (bundles).
    public var model: String

    /// Creates a difference.
    public init(view: CompatibilityView, path: String, code: String, message: String, model: String) {
        self.view = view
        self.path = path
        self.code = code
        self.message = message
        self.model = model
    }
}
