// SPDX-License-Identifier: Apache-2.0

/// The outcome of checking proposed versions against kept ones (docs/lifecycle.md, Compatibility).
public struct CompatibilityReport: Sendable, Equatable {
    /// The level checked, per model.
    public var levels: [String: CompatibilityLevel] = [:]
    /// The kept versions each model was compared with, oldest first.
    public var against: [String: [Int]] = [:]
    /// Every difference found; empty when compatible.
    public var differences: [CompatibilityDifference] = []

    /// Creates an empty (compatible) report.
    public init() {}

    /// True when no difference was found.
    public var isCompatible: Bool { differences.isEmpty }
}

extension RegistrySnapshot {
    /// The level and view that apply to `name`: its own configuration, else `defaults`.
    public func effectiveConfig(of name: String, defaults: CompatibilityConfig) -> (
        CompatibilityLevel, CompatibilityView
    ) {
        let own = lifecycles[name]?.config ?? CompatibilityConfig()
        return (own.level ?? defaults.level ?? .none, own.view ?? defaults.view ?? .both)
    }

    /// Checks `name` as `proposed` defines it against the versions of it this snapshot keeps: the latest one, or
    /// every kept one for a `_transitive` level. Adds to `report`.
    public func checkCompatibility(
        of name: String, proposed: RegistrySnapshot, level: CompatibilityLevel,
        view: CompatibilityView, into report: inout CompatibilityReport
    ) {
        report.levels[name] = level
        guard level != .none, let kept = lifecycles[name]?.versions, !kept.isEmpty else {
            report.against[name] = []
            return
        }
        let versions = level.isTransitive ? kept : [kept[kept.count - 1]]
        report.against[name] = versions.map(\.version)
        let views: [CompatibilityView] = view == .both ? [.input, .output] : [view]
        var seen: Set<String> = []
        for version in versions {
            let previous: RegistrySnapshot
            do throws(PinningError) {
                previous = try pinned(name, version: version.version)
            } catch {
                // Not comparable is not compatible.
                report.differences.append(
                    CompatibilityDifference(
                        view: views[0], path: "", code: "COMBINED_TYPE_SUBSCHEMAS_CHANGED",
                        message: error.description, model: name))
                continue
            }
            for side in views {
                guard let old = previous.compatibilityDocument(for: name, view: side, marked: true),
                    let new = proposed.compatibilityDocument(for: name, view: side, marked: true)
                else { continue }
                var directions: [Bool] = []
                if level.checksBackward { directions.append(true) }
                if level.checksForward { directions.append(false) }
                for backward in directions {
                    var inclusion = SchemaInclusion(
                        old: backward ? old : new, new: backward ? new : old,
                        backward: backward, writerClosed: side == .output)
                    inclusion.run()
                    for found in inclusion.differences {
                        let message =
                            versions.count > 1 ? "against version \(version.version): \(found.message)" : found.message
                        let key = "\(side)|\(found.path)|\(found.code)|\(found.message)"
                        guard seen.insert(key).inserted else { continue }
                        report.differences.append(
                            CompatibilityDifference(
                                view: side, path: found.path, code: found.code,
                                message: message, model: name))
                    }
                }
            }
        }
    }
}
