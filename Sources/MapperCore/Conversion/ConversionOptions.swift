// SPDX-License-Identifier: Apache-2.0

/// How to run one conversion (docs/api.md, "Query parameters", and the server's limits).
public struct ConversionOptions: Sendable, Equatable {
    /// `lax` reports lossy steps as warnings; `strict` reports them as errors.
    public enum Mode: String, Sendable { case lax, strict }
    /// `wire` is keyed by mapped keys, `model` by property names.
    public enum Form: String, Sendable { case wire, model }

    /// `mode=`.
    public var mode: Mode = .lax
    /// `from=`: the form of the input.
    public var input: Form = .wire
    /// The form of the output: `model` for `/convert`, `wire` for `/normalize` and `keys=mapped`.
    public var output: Form = .model
    /// `hash=true`: compute `X-Model-Hash`.
    public var hash = false
    /// JSON nesting limit (the top-level container is depth 1).
    public var maxDepth = 512
    /// Report entries listed at most (counts still include all).
    public var maxReportEntries = 1_000
    /// Most threads one array or dictionary batch is converted on at once, each taking a run of consecutive
    /// elements long enough to be worth a thread (`RegistrySnapshot.minimumElementsPerRun`); 1 converts every
    /// batch on the calling thread. The answer is the same either way.
    public var batchWorkers = 1
    /// Whether a successful single-object `convert` keeps its report's entries, paths and messages, for
    /// `Converted.diagnostics`. Off, a success answers only `warnings` and `diagnosticCodes` (all the server and
    /// the CLI read of one), and its warnings' JSON Pointers are not rendered unless an entry that needs a
    /// rendered one arrives (`Diagnostics.deferPointers`); a failure's report is complete either way, and the
    /// count is the same.
    public var keepsEntries = true
    /// The step budget of the expressions evaluated for one object (`maxRuleSteps`, docs/rules.md).
    public var maxRuleSteps = 10_000
    /// Bytes of text and elements of lists an object's expressions may build in total (the body limit).
    public var maxRuleBytes = 8_388_608

    /// The defaults of docs/api.md, "Query parameters".
    /// Common values are written without the general conversion (`Converter.writeCommonValue`); off only in the
    /// test that checks both ways agree.
    var commonValueShortcuts = true

    public init() {}
}
