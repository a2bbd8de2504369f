// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// The JSON of compatibility answers (docs/lifecycle.md): `against` and `differences`, shared by the 409 of a write
/// and the dry run's 200.
enum CompatibilityJSON {
    /// `[1, 2]` for one model; `{"A": [1], "B": [3, 4]}` for a bundle.
    static func against(_ report: CompatibilityReport, bundle: Bool) -> [UInt8] {
        func list(_ versions: [Int]) -> [UInt8] { Array("[\(versions.map(String.init).joined(separator: ","))]".utf8) }
        guard bundle else { return list(report.against.values.first ?? []) }
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, name) in report.against.keys.sorted().enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += ErrorResponse.jsonString(name) + [UInt8(ascii: ":")] + list(report.against[name]!)
        }
        return out + [UInt8(ascii: "}")]
    }

    /// `[{"view", "path", "code", "message"}, …]`, each with `model` first when `withModel`.
    static func differences(_ differences: [CompatibilityDifference], withModel: Bool) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (i, difference) in differences.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            if withModel {
                out += Array("\"model\":".utf8) + ErrorResponse.jsonString(difference.model) + [UInt8(ascii: ",")]
            }
            out +=
                Array("\"view\":\"\(difference.view.rawValue)\",\"path\":".utf8)
                + ErrorResponse.jsonString(difference.path)
                + Array(",\"code\":".utf8) + ErrorResponse.jsonString(difference.code)
                + Array(",\"message\":".utf8) + ErrorResponse.jsonString(difference.message) + [UInt8(ascii: "}")]
        }
        return out + [UInt8(ascii: "]")]
    }
}
