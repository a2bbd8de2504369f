// SPDX-License-Identifier: Apache-2.0

/// Timestamps and durations (docs/rules.md, "Timestamps and durations"): RFC 3339 text, CEL's duration text
/// (`"1h30m"`, `"1.5s"`), the proleptic Gregorian calendar for the accessors, and fixed-offset time zones.
enum RuleTime {
    static let nanosPerSecond: Int128 = 1_000_000_000

    // MARK: - Calendar (days since 1970-01-01 ↔ year, month, day; Hinnant's algorithms)

    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func floorDivide(_ a: Int128, _ b: Int128) -> (quotient: Int128, remainder: Int128) {
        var q = a / b
        var r = a % b
        if r < 0 { q -= 1; r += b }
        return (q, r)
    }

    // MARK: - Parsing

    /// Parses RFC 3339 (`2009-02-13T23:31:30.5Z`, `…+01:00`) into nanoseconds since the epoch.
    static func parseTimestamp(_ text: String) -> Int128? {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var value = 0
            for i in at..<at + count {
                guard b[i].isASCIIDigit else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 20, let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2),
            b[7] == UInt8(ascii: "-"), let day = digits(8, 2), b[10] | 0x20 == UInt8(ascii: "t"),
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            b[16] == UInt8(ascii: ":"), let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var position = 19
        var nanos: Int128 = 0
        if position < b.count, b[position] == UInt8(ascii: ".") {
            position += 1
            var count = 0
            while position < b.count, b[position].isASCIIDigit {
                if count < 9 { nanos = nanos * 10 + Int128(b[position] - 0x30) }
                count += 1
                position += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 9) { nanos *= 10 }
        }
        guard position < b.count else { return nil }
        var offsetSeconds = 0
        if b[position] | 0x20 == UInt8(ascii: "z") {
            position += 1
        } else {
            guard let offset = parseOffset(Array(b[position...])) else { return nil }
            offsetSeconds = offset
            position = b.count
        }
        guard position == b.count else { return nil }
        let seconds =
            days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Int128(seconds) * nanosPerSecond + nanos
    }

    /// `+HH:MM` / `-HH:MM` as seconds east of UTC.
    static func parseOffset(_ b: [UInt8]) -> Int? {
        guard b.count == 6, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"), b[3] == UInt8(ascii: ":"),
            b[1].isASCIIDigit, b[2].isASCIIDigit, b[4].isASCIIDigit, b[5].isASCIIDigit
        else { return nil }
        let hours = Int(b[1] - 0x30) * 10 + Int(b[2] - 0x30)
        let minutes = Int(b[4] - 0x30) * 10 + Int(b[5] - 0x30)
        guard hours < 24, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return b[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Parses CEL's duration text: an optional sign and one or more decimal numbers with units `h m s ms us µs ns`
    /// (`"1h30m"`, `"-1.5s"`, `"0"`), into nanoseconds.
    static func parseDuration(_ text: String) -> Int128? {
        var b = Array(text.utf8)[...]
        var negative = false
        if let first = b.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            b = b.dropFirst()
        }
        if b.elementsEqual("0".utf8) { return 0 }
        guard !b.isEmpty else { return nil }
        var total: Int128 = 0
        while !b.isEmpty {
            var whole: Int128 = 0
            var fraction: Int128 = 0
            var fractionScale: Int128 = 1
            var sawDigit = false
            while let d = b.first, d.isASCIIDigit {
                whole = whole * 10 + Int128(d - 0x30)
                guard whole < Int128(1) << 80 else { return nil }
                sawDigit = true
                b = b.dropFirst()
            }
            if b.first == UInt8(ascii: ".") {
                b = b.dropFirst()
                while let d = b.first, d.isASCIIDigit {
                    if fractionScale < 1_000_000_000_000_000_000 {
                        fraction = fraction * 10 + Int128(d - 0x30)
                        fractionScale *= 10
                    }
                    sawDigit = true
                    b = b.dropFirst()
                }
            }
            guard sawDigit else { return nil }
            let unit: Int128
            let units: [(String, Int128)] = [
                ("ns", 1), ("us", 1000), ("µs", 1000), ("ms", 1_000_000), ("s", nanosPerSecond),
                ("m", 60 * nanosPerSecond), ("h", 3600 * nanosPerSecond),
            ]
            guard
                let match = units.first(where: {
                    b.starts(with: $0.0.utf8) && !($0.0 == "m" && b.starts(with: "ms".utf8))
                })
            else { return nil }
            unit = match.1
            b = b.dropFirst(match.0.utf8.count)
            total += whole * unit + fraction * unit / fractionScale
            guard total < Int128(1) << 100 else { return nil }
        }
        return negative ? -total : total
    }

    // MARK: - Text

    /// RFC 3339 in UTC with `Z`; the fraction in groups of three digits (none, 3, 6 or 9), or trimmed of trailing zeros
    /// when `trimmed` (CEL's `string(timestamp)`).
    static func format(timestamp nanos: Int128, trimmed: Bool) -> String {
        let (seconds, fraction) = floorDivide(nanos, nanosPerSecond)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let date = civil(days: Int(days))
        let s = Int(secondOfDay)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text =
            "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))T\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))"
        text += fractionText(Int(fraction), trimmed: trimmed)
        return text + "Z"
    }

    /// `.123`, `.123456`, `.123456789` (or trimmed to its last non-zero digit), or nothing for zero.
    private static func fractionText(_ nanos: Int, trimmed: Bool) -> String {
        guard nanos > 0 else { return "" }
        var digits = Array(String(nanos + 1_000_000_000).utf8.dropFirst())
        if trimmed {
            while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        } else {
            while digits.count > 3, digits.suffix(3).elementsEqual("000".utf8) { digits.removeLast(3) }
        }
        return "." + String(decoding: digits, as: UTF8.self)
    }

    /// CEL's `string(duration)`: seconds with the fraction trimmed, as `"1.5s"`, `"-0.000000001s"`, `"0s"`.
    static func format(duration nanos: Int128) -> String {
        let magnitude = nanos < 0 ? -nanos : nanos
        let seconds = magnitude / nanosPerSecond
        let fraction = Int(magnitude % nanosPerSecond)
        return (nanos < 0 ? "-" : "") + String(seconds) + fractionText(fraction, trimmed: true) + "s"
    }

    // MARK: - Accessors

    /// The calendar field that `accessor` names, of `nanos` shifted to `zone` (`UTC`, `+HH:MM`, `-HH:MM`).
    static func field(_ accessor: RuleBuiltin, of nanos: Int128, zone: String?) throws(RuleFailure) -> Int64 {
        var offset = 0
        if let zone, zone != "UTC", zone != "Z" {
            let bytes = Array(zone.utf8)
            if let parsed = parseOffset(bytes) {
                offset = parsed
            } else if bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
                let parsed = parseOffset([UInt8(ascii: "+")] + bytes)
            {
                offset = parsed
            } else {
                throw RuleFailure("unsupported time zone '\(zone)': use UTC or a fixed offset such as +05:30")
            }
        }
        let local = nanos + Int128(offset) * nanosPerSecond
        let (seconds, fraction) = floorDivide(local, nanosPerSecond)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let date = civil(days: Int(days))
        switch accessor {
        case .getFullYear: return Int64(date.year)
        case .getMonth: return Int64(date.month - 1)
        case .getDayOfMonth: return Int64(date.day - 1)
        case .getDate: return Int64(date.day)
        case .getDayOfYear: return Int64(Int(days) - RuleTime.days(year: date.year, month: 1, day: 1))
        case .getDayOfWeek: return Int64(floorDivide(days + 4, 7).remainder)  // 1970-01-01 was a Thursday
        case .getHours: return Int64(secondOfDay / 3600)
        case .getMinutes: return Int64(secondOfDay / 60 % 60)
        case .getSeconds: return Int64(secondOfDay % 60)
        default: return Int64(fraction / 1_000_000)
        }
    }

    /// The duration accessors: whole hours, minutes, seconds, and the millisecond part.
    static func field(_ accessor: RuleBuiltin, ofDuration nanos: Int128) -> Int64 {
        switch accessor {
        case .getHours: Int64(nanos / (3600 * nanosPerSecond))
        case .getMinutes: Int64(nanos / (60 * nanosPerSecond))
        case .getSeconds: Int64(nanos / nanosPerSecond)
        default: Int64(nanos % nanosPerSecond / 1_000_000)
        }
    }
}
