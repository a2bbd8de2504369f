// SPDX-License-Identifier: Apache-2.0
@testable import MapperCore

// String conveniences for the date tests: the production API reads bytes and appends to byte buffers.

extension Instant {
    /// An instant from whole Unix seconds and extra microseconds.
    static func make(seconds: Int64 = 0, micros: Int64 = 0) -> Instant {
        Instant(microseconds: seconds * 1_000_000 + micros)
    }
}

extension BuiltinDateParser {
    static func parse(_ text: String) -> DateReading {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}

extension DatePattern {
    func parse(_ text: String) -> DateReading {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    func format(_ instant: Instant) -> String {
        var out: [UInt8] = []
        format(instant, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension DateFormatting {
    static func readEpoch(_ text: String, millis: Bool = false) -> DateReading {
        var text = text
        return text.withUTF8 { readEpoch(UnsafeRawBufferPointer($0), millis: millis) }
    }

    static func written(_ instant: Instant, as format: DateFormat) -> String {
        var out: [UInt8] = []
        write(instant, as: format, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension DateReading {
    /// `.instant(.make(seconds:micros:), truncated:)`.
    static func at(_ seconds: Int64, micros: Int64 = 0, truncated: Bool = false) -> DateReading {
        .instant(.make(seconds: seconds, micros: micros), truncated: truncated)
    }
}
