// SPDX-License-Identifier: Apache-2.0
//
// Accept-Encoding (RFC 9110 §12.5.3), reduced to the one question the server asks: may this response be gzipped?
//
//   Accept-Encoding = #( codings [ weight ] )       codings = content-coding / "identity" / "*"
//   weight = OWS ";" OWS "q=" qvalue                qvalue  = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
//
// The decision, for "gzip, x-gzip;q=0.5, *;q=0":
// - gzip counts when a `gzip` or `x-gzip` member (x-gzip is gzip, RFC 9110 §8.4.1.3) has q > 0; when both are
//   listed, the higher weight wins. Listed with q=0 only, gzip is refused even if `*` would allow it.
// - Otherwise a `*` member with q > 0 accepts it (§12.5.3: `*` matches any coding not listed).
// - A member that does not parse — a bad qvalue such as q=1.5 or q=0.1234, a parameter other than one `q`, a
//   character outside tchar in the coding — is ignored as if absent. Empty list elements are skipped (§5.6.1).
// - No header, or an empty value, means no gzip: §12.5.3 lets a server pick any coding when the header is absent,
//   and identity is the choice every client can read.
// Codings and the `q` name are case-insensitive; whitespace (SP, HTAB) around `,` `;` and `=` is tolerated.

enum AcceptEncoding {
    /// True when an `Accept-Encoding` value allows a gzip-coded response (see the rules above).
    static func acceptsGzip(_ headerValue: String?) -> Bool {
        guard var value = headerValue else { return false }
        value.makeContiguousUTF8()  // a no-op for native strings
        return value.utf8.withContiguousStorageIfAvailable { acceptsGzip(bytes: $0) } ?? false
    }

    /// The same decision over the raw bytes of a field value.
    static func acceptsGzip(bytes value: UnsafeBufferPointer<UInt8>) -> Bool {
        var gzipWeight: Int?  // the highest weight of a gzip or x-gzip member, in thousandths
        var anyWeight: Int?  // the highest weight of a * member
        var start = value.startIndex
        while start <= value.endIndex {
            let end = value[start...].firstIndex(of: comma) ?? value.endIndex
            if let (coding, weight) = member(value[start..<end]) {
                switch coding {
                case .gzip: gzipWeight = max(gzipWeight ?? 0, weight)
                case .any: anyWeight = max(anyWeight ?? 0, weight)
                case .other: break
                }
            }
            start = end + 1
        }
        if let gzipWeight { return gzipWeight > 0 }
        return (anyWeight ?? 0) > 0
    }

    private enum Coding {
        case gzip, any, other
    }

    /// One list member, `coding [ OWS ";" OWS "q" OWS "=" OWS qvalue ]`, or nil when it is empty or malformed.
    private static func member(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> (Coding, Int)? {
        let semicolonIndex = text.firstIndex(of: semicolon)
        let name = trimmed(text[..<(semicolonIndex ?? text.endIndex)])
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else { return nil }
        var weight = 1000
        if let semicolonIndex {
            guard let parsed = qParameter(text[(semicolonIndex + 1)...]) else { return nil }
            weight = parsed
        }
        let coding: Coding =
            if name.count == 1 && name.first == asterisk {
                .any
            } else if equalsIgnoringCase(name, "gzip") || equalsIgnoringCase(name, "x-gzip") { .gzip } else { .other }
        return (coding, weight)
    }

    /// `q OWS "=" OWS qvalue` as thousandths (0–1000), or nil when the parameter is anything else.
    private static func qParameter(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        let parameter = trimmed(text)
        guard let first = parameter.first, first | 0x20 == UInt8(ascii: "q") else { return nil }
        let afterName = trimmed(parameter.dropFirst())
        guard afterName.first == equals else { return nil }
        return qvalue(trimmed(afterName.dropFirst()))
    }

    /// RFC 9110 §12.4.2: "0", "0.5", "0.125", "1", "1.000" — at most three decimals, never above 1.
    private static func qvalue(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard let first = text.first, first == zero || first == one else { return nil }
        let afterUnit = text.dropFirst()
        guard let dot = afterUnit.first else { return first == one ? 1000 : 0 }
        let decimals = afterUnit.dropFirst()
        guard dot == period, decimals.count <= 3, decimals.allSatisfy({ $0 >= zero && $0 <= nine }) else { return nil }
        if first == one { return decimals.allSatisfy { $0 == zero } ? 1000 : nil }
        var thousandths = 0
        for position in 0..<3 {
            let digit = position < decimals.count ? Int(decimals[decimals.startIndex + position] - zero) : 0
            thousandths = thousandths * 10 + digit
        }
        return thousandths
    }

    private static func trimmed(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var text = text
        while let first = text.first, first == space || first == tab { text = text.dropFirst() }
        while let last = text.last, last == space || last == tab { text = text.dropLast() }
        return text
    }

    /// ASCII case-insensitive comparison with a lowercase literal.
    private static func equalsIgnoringCase(_ text: Slice<UnsafeBufferPointer<UInt8>>, _ lowercase: String) -> Bool {
        text.count == lowercase.utf8.count
            && zip(text, lowercase.utf8).allSatisfy { byte, expected in
                let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                return lowered == expected
            }
    }

    /// RFC 9110 §5.6.2 tchar: "!#$%&'*+-.^_`|~", digits and letters.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static let comma = UInt8(ascii: ",")
    private static let semicolon = UInt8(ascii: ";")
    private static let equals = UInt8(ascii: "=")
    private static let asterisk = UInt8(ascii: "*")
    private static let period = UInt8(ascii: ".")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let zero = UInt8(ascii: "0")
    private static let one = UInt8(ascii: "1")
    private static let nine = UInt8(ascii: "9")
}

extension HTTPRequestHead {
    /// Whether the client accepts a gzip-coded answer (RFC 9110 §5.3: repeated fields are one list).
    var acceptsGzip: Bool {
        // Most clients send no Accept-Encoding: answer that without building the joined list.
        guard headers.contains(where: { $0.name == HTTPHeader.Request.acceptEncoding }) else { return false }
        return AcceptEncoding.acceptsGzip(
            headers.filter { $0.name == HTTPHeader.Request.acceptEncoding }.map(\.value).joined(separator: ", "))
    }
}
