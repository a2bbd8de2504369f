// SPDX-License-Identifier: Apache-2.0

/// The closed set of built-in type names of docs/schema.md, "Types"; any other type name is a model.
enum BuiltinType: String, CaseIterable, Sendable {
    case bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float, double
    case string, number, decimal, date, url, data, any, array, set, dictionary, uuid, calendarDate

    var isContainer: Bool { self == .array || self == .set || self == .dictionary }

    /// The inclusive range of an integer type.
    var integerRange: ClosedRange<Int128>? {
        switch self {
        case .int8: Int128(Int8.min)...Int128(Int8.max)
        case .uint8: 0...Int128(UInt8.max)
        case .int16: Int128(Int16.min)...Int128(Int16.max)
        case .uint16: 0...Int128(UInt16.max)
        case .int32: Int128(Int32.min)...Int128(Int32.max)
        case .uint32: 0...Int128(UInt32.max)
        case .int64: Int128(Int64.min)...Int128(Int64.max)
        case .uint64: 0...Int128(UInt64.max)
        default: nil
        }
    }
}

/// A type as written in a schema: a built-in scalar, a container with an optional element spec, or a model name.
indirect enum TypeReference: Sendable, Equatable {
    case builtin(BuiltinType)
    case container(BuiltinType, of: ValueSchema?)
    case model(String)
}
