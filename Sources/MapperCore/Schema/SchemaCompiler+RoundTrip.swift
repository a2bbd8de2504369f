// SPDX-License-Identifier: Apache-2.0

/// `/normalize` output must read back as the same model (docs/schema.md, "transformToJSON"): a `transformToJSON`
/// that removes what a rule needs, or writes over what a property reads, is a schema problem.
extension SchemaCompiler {
    /// One way the model's `transformToJSON` breaks the round trip: where in its steps, and why.
    struct RoundTripConflict: Equatable {
        /// `omit/<i>` or `set/<escaped key>`, below `/transformToJSON`.
        var step: String
        var message: String
    }

    /// Reports the model's round-trip conflicts: at the step when the model declares `transformToJSON` itself;
    /// at the model when it inherits one, unless the model that declares it has the same conflict (reported there).
    mutating func checkRoundTrip(_ model: ModelSchema) {
        let conflicts = roundTripConflicts(of: model.name)
        guard !conflicts.isEmpty else { return }
        if case .set = model.transformToJSON {
            for conflict in conflicts {
                problem(model, model.origin.pointer + "/transformToJSON/" + conflict.step, conflict.message)
            }
            return
        }
        let declaring = chain(of: model.name)?.dropLast().last {
            if case .set = $0.transformToJSON { true } else { false }
        }
        let reported = declaring.map { roundTripConflicts(of: $0.name) } ?? []
        for conflict in conflicts where !reported.contains(conflict) {
            problem(model, model.origin.pointer, "the inherited transformToJSON: " + conflict.message)
        }
    }

    /// Every conflict of the model's effective `transformToJSON` with its effective properties and rules:
    /// an `omit` of a required property (`required: true` or `validate.required`) or of every member of a
    /// `requireAny` group, and a `set` key equal to, a prefix of or an extension of a property's key or key path.
    func roundTripConflicts(of name: String) -> [RoundTripConflict] {
        guard let steps = resolved(name, \.transformToJSON) else { return [] }
        let properties = effectiveProperties(of: name)
        let rules = resolved(name, \.validate)
        let names = Set(properties.map(\.name))
        let required = Set(properties.filter(\.required).map(\.name) + (rules?.required ?? []).filter(names.contains))
        let omitted = Set(steps.omit)
        let unreadable = ": /normalize output could not be read back as the same model"
        var conflicts: [RoundTripConflict] = []
        for (i, omit) in steps.omit.enumerated() where required.contains(omit) {
            conflicts.append(
                RoundTripConflict(step: "omit/\(i)", message: "omit names \"\(omit)\", which is required" + unreadable))
        }
        for group in rules?.requireAny ?? [] where !group.isEmpty && group.allSatisfy(omitted.contains) {
            let at = steps.omit.firstIndex(of: group[0])!
            conflicts.append(
                RoundTripConflict(
                    step: "omit/\(at)",
                    message:
                        "omit names every member of the requireAny group [\(group.joined(separator: ", "))]"
                        + unreadable))
        }
        for (key, _) in steps.set {
            for property in properties {
                for alternative in property.keys {
                    let s = key.components
                    let p = alternative.components
                    let relation: String
                    if s == p {
                        relation = "is the key"
                    } else if p.count > s.count && p.starts(with: s) {
                        relation = "is a prefix of the key path"
                    } else if s.count > p.count && s.starts(with: p) {
                        relation = "extends the key"
                    } else {
                        continue
                    }
                    conflicts.append(
                        RoundTripConflict(
                            step: "set/" + JSONPointer.escape(key.source),
                            message:
                                "set key \"\(key.source)\" \(relation) \"\(alternative.source)\" of property \"\(property.name)\""
                                + unreadable))
                }
            }
        }
        return conflicts
    }
}
