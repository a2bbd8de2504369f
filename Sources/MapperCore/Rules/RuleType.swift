// SPDX-License-Identifier: Apache-2.0

/// The static type of an expression as the compiler infers it. Deliberately coarse: lists and maps do not carry
/// element types, and `dyn` (unknown until run time) matches everything, as CEL's checker treats `dyn`.
enum RuleType: String, Sendable, Equatable {
    case dyn, null, bool, int, uint, double, string, bytes, list, map, timestamp, duration, type

    var isNumeric: Bool { self == .int || self == .uint || self == .double }

    /// Whether an argument of this type can be passed where `parameter` is expected.
    func fits(_ parameter: RuleType) -> Bool { self == parameter || self == .dyn || parameter == .dyn }

    /// The CEL name, as compile errors show it.
    var celName: String {
        switch self {
        case .null: "null_type"
        case .timestamp: "google.protobuf.Timestamp"
        case .duration: "google.protobuf.Duration"
        default: rawValue
        }
    }
}
