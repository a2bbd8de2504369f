// SPDX-License-Identifier: Apache-2.0

// `date` values: one anchored regular expression for every string form the property accepts, and the epoch number
// range when an epoch input format is declared. Field ranges are in the expressions (month 01–12, day 01–31, hour
// 00–23, year 0001–9999, zone hours 00–23); what a regular expression cannot see — a day that the month lacks,
// an instant pushed out of range by its offset — is left to the converter (docs/jsonschema.md).
//
//     built-in    2015-09-04, 2015-09-04T00:12:21.5+08:00 (T, t or space; Z, z, ±HH:mm or ±HHmm; 1–9 fraction
//                 digits, those after the sixth zero — a non-zero one there is `fraction_truncated`)
//                 Fri Sep 04 00:12:21 +0800 2015 (optionally .SSS after the seconds)
//     a pattern   "dd/MM/yyyy" → (?:0[1-9]|[12][0-9]|3[01])/(?:0[1-9]|1[0-2])/(?:…year…)

extension JSONSchemaExport {
    static let year4 = "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"
    static let month2 = "(?:0[1-9]|1[0-2])"
    static let day2 = "(?:0[1-9]|[12][0-9]|3[01])"
    static let hour2 = "(?:[01][0-9]|2[0-3])"
    static let sixty2 = "[0-5][0-9]"
    static let monthAbbreviations = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
    static let weekdayAbbreviations = "(?:Sun|Mon|Tue|Wed|Thu|Fri|Sat)"
    static let time = hour2 + ":" + sixty2 + ":" + sixty2

    /// `yyyy-MM-dd`, optionally with a time, a fraction and a zone.
    static let rfc3339 =
        year4 + "-" + month2 + "-" + day2
        + "(?:[Tt ]" + time + "(?:\\.[0-9]{1,6}0{0,3})?(?:[Zz]|[+-]" + hour2 + ":?" + sixty2 + ")?)?"
    /// `EEE MMM dd HH:mm:ss[.SSS] Z yyyy`.
    static let weibo =
        weekdayAbbreviations + " " + monthAbbreviations + " " + day2 + " " + time
        + "(?:\\.[0-9]{3})? [+-]" + hour2 + sixty2 + " " + year4

    /// Unix seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z.
    static let epochRange = (minimum: "-62135596800", maximum: "253402300799.999999")
    static let epochMillisRange = (minimum: "-62135596800000", maximum: "253402300799999.999")

    static func dateSchema(_ value: CompiledValue) -> JSONValue {
        var forms: [String] = []
        for case .pattern(let pattern) in value.dateInput {
            let expression = regularExpression(pattern)
            if !forms.contains(expression) { forms.append(expression) }
        }
        forms += [rfc3339, weibo]
        let pattern = JSONValue.string("^(?:" + forms.joined(separator: "|") + ")$")
        var members: Keywords
        // The first epoch format decides between seconds and milliseconds; a number string stays `coerced`.
        if let epoch = value.dateInput.first(where: \.isEpoch) {
            let range = epoch == .epochMillis ? epochMillisRange : epochRange
            members = [
                ("type", .array([.string("string"), .string("number")])), ("pattern", pattern),
                ("minimum", .number(range.minimum)), ("maximum", .number(range.maximum)),
            ]
        } else {
            members = [("type", .string("string")), ("pattern", pattern)]
        }
        if let c = value.constraints {
            var unexpressed: [String] = []
            if c.minimumInstant != nil { unexpressed.append("minimum \(c.minimumText)") }
            if c.maximumInstant != nil { unexpressed.append("maximum \(c.maximumText)") }
            if c.enumValues != nil { unexpressed.append("enum") }
            if !unexpressed.isEmpty {
                let text = "not expressed (dates compare as instants): " + unexpressed.joined(separator: ", ")
                members.append(("$comment", .string(text)))
            }
        }
        return .object(members)
    }

    /// An LDML pattern of the supported subset as a regular expression over the whole text.
    static func regularExpression(_ pattern: DatePattern) -> String {
        pattern.fields.map { field -> String in
            switch field {
            case .literal(let bytes): escaped(String(decoding: bytes, as: UTF8.self))
            case .year4: year4
            case .year2: "[0-9]{2}"
            case .month(let width): width == 2 ? month2 : "(?:0?[1-9]|1[0-2])"
            case .monthAbbreviation: monthAbbreviations
            case .monthName: "(?:January|February|March|April|May|June|July|August|September|October|November|December)"
            case .day(let width): width == 2 ? day2 : "(?:0?[1-9]|[12][0-9]|3[01])"
            case .weekdayAbbreviation: weekdayAbbreviations
            case .weekdayName: "(?:Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday)"
            case .hour24(let width): width == 2 ? hour2 : "(?:[01]?[0-9]|2[0-3])"
            case .hour12(let width): width == 2 ? "(?:0[1-9]|1[0-2])" : "(?:0?[1-9]|1[0-2])"
            case .amPm: "(?:AM|PM)"
            case .minute(let width), .second(let width): width == 2 ? sixty2 : "[0-5]?[0-9]"
            case .fraction(let digits): "[0-9]{\(digits)}"
            case .zoneBasic: "[+-]" + hour2 + sixty2
            case .zoneExtended: "(?:Z|[+-]" + hour2 + ":" + sixty2 + ")"
            case .zoneShort: "(?:Z|[+-]" + hour2 + "(?:" + sixty2 + ")?)"
            }
        }.joined()
    }

    /// `text` with ECMA-262's syntax characters escaped (`/` needs none in a JSON Schema pattern).
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            if "^$\\.*+?()[]{}|".unicodeScalars.contains(character) { out.append("\\") }
            out.unicodeScalars.append(character)
        }
        return out
    }
}
