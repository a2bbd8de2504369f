// SPDX-License-Identifier: Apache-2.0

extension JSONStrings {
    static func writeQuoted(_ s: [UInt8], into out: inout some ByteSink) {
        s.withUnsafeBytes { writeQuoted($0, into: &out) }
    }

    static func writeQuoted(_ s: ArraySlice<UInt8>, into out: inout some ByteSink) {
        s.withUnsafeBytes { writeQuoted($0, into: &out) }
    }
}
