// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct URIReferenceTests {
    /// Valid references, grouped by the ABNF branch they exercise (RFC 3986 §3, §4.1, §4.2).
    static let valid: [String] = [
        // Examples from docs/coercion-rules.md, "url".
        "github.com", "http://a/b?c#d", "mailto:x@y", "//host", "", "/a/b", "?q", "#f",
        "http://[::1]:80/", "http://[v1.x]/",
        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
        "a:", "Z:", "h1:x", "A+b-c.d:rest", "svn+ssh://host/repo", "urn:isbn:0451450523",
        // hier-part: path-empty, path-absolute, path-rootless after a scheme
        "http:", "http:?q", "http:#f", "http:/", "http:/abs/path", "http:rootless/x", "mailto:a:b@c",
        "file:///etc/hosts", "http:///x",
        // authority = [ userinfo "@" ] host [ ":" port ]
        "http://host", "http://", "//", "///", "http://user@host", "http://user:pass@host:8080/p",
        "http://@host", "http://:@host", "http://u%20ser@h/", "http://!$&'()*+,;=:~@h",
        "http://host:", "http://:80", "http://host:0123/", "http://host:65536/",
        "http://a.b-c_d~e/", "http://%41b/", "http://!$&'()*+,;=/", "http://EXAMPLE.com/",
        "http://1.2.3.4/", "http://999.999.999.999/", "http://01.2.3.4/", "http://1.2.3/",
        "http://a?b", "http://a#b", "http://a?", "http://a#",
        "//user@[::1]:8080/x?y#z", "http://[::1]", "http://[::1]:", "http://u@[v1.x]:1",
        // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        "http://[vF.a:b]/", "http://[V7.!$&'()*+,;=]/", "http://[v12AB.~-_.]/", "http://[v0.:]/",
        // path-abempty after an authority, with empty segments
        "http://a//b", "//a//b/", "http://a/b/./../c/", "http://a/%2F%2f",
        // path-absolute (relative-ref), colons allowed after the first "/"
        "/", "/a:b", "/a/b/", "/%20", "/:@!$&'()*+,;=-._~",
        // path-noscheme: the first segment has no ":", later ones may
        "a/b:c", "./a:b", "./:", "a@b", "a;b=c", "%41", "a%2Fb", "..", ".", "a//b", "@",
        "-/x:", "1http/x:y", "a/b/c:d:e",
        // query / fragment = *( pchar / "/" / "?" )
        "?", "#", "?#", "?a/b?c", "#a/b?c", "http://a/?q=1&r=%2F#f/?", "#%23", "?:@", "#:@!$",
        "http://a?b/c?d#e/f?g",
    ]

    static let invalid: [String] = [
        // Examples from docs/coercion-rules.md, "url".
        "http://exa mple.com", "https://例え.jp", "http://a/%zz", "http://[::1", "http://a:b/", "1http:x",
        // relative-ref whose first segment holds ":" (no valid scheme in front)
        ":", ":a", ":/a", "+a:b", "-:x", ".a:b", "_a:b", "1:", "a_b:c", "a b:c", "é:x",
        // bytes outside every class
        "a b", " a", "a ", "http://a/b c", "http://a/b\t", "a\\b", "http://a/\"", "<a>", "a^b", "a`b",
        "a{b}", "a|b", "http://a/ü", "\u{7f}", "\u{0}", "a\nb", "#a#b", "?a#b#c", "http://a/b#c#d",
        // pct-encoded = "%" HEXDIG HEXDIG
        "%", "%4", "%4g", "%g4", "a%", "/a%2", "?%", "#%zz", "http://a%2/", "http://%/", "http://u%@h/",
        // authority structure
        "http://a@b@c/", "http://us[er@h/", "http://us]er@h/", "http://a]/", "http://a[/", "http://a[b]/",
        "http://a:80:90/", "http://a:b@c:d/", "http://a:8 0/", "http://a:-1/", "http://a:+1/", "http://h\u{1}/",
        "http://a^b/", "http://a\\b/", "http://a%g0/",
        // IP-literal brackets
        "http://[::1]x/", "http://[::1]]/", "http://[[::1]]/", "http://[::1]:8a/", "http://[]/", "http://[::1/",
        "http://[::1]@h/", "http://x[::1]/",
        // IPvFuture
        "http://[v.x]/", "http://[v1]/", "http://[v1.]/", "http://[vg.x]/", "http://[v1.x/y]/",
        "http://[v1.%41]/", "http://[v1.x@y]/", "http://[v1.x y]/", "http://[w1.x]/", "http://[v1x]/",
        // zone identifiers are RFC 6874, not RFC 3986
        "http://[fe80::1%25eth0]/", "http://[fe80::1%eth0]/",
    ]

    /// IPv6address (RFC 3986 §3.2.2), checked inside "http://[…]/" and "//[…]".
    static let validIPv6: [String] = [
        "::", "::1", "1::", "1:2:3:4:5:6:7:8", "::ffff:1.2.3.4", "1:2:3:4:5:6:1.2.3.4",
        // each "::" position of the nine alternatives
        "::2:3:4:5:6:7:8", "::3:4:5:6:7:8", "1::3:4:5:6:7:8", "1:2::4:5:6:7:8", "1:2:3::5:6:7:8",
        "1:2:3:4::6:7:8", "1:2:3:4:5::7:8", "1:2:3:4:5:6::8", "1:2:3:4:5:6:7::", "1::8", "1:2::",
        // ls32 as IPv4address after "::"
        "::1.2.3.4", "1::1.2.3.4", "1:2:3:4:5::1.2.3.4", "::2:3:4:5:6:1.2.3.4", "::0.0.0.0",
        "::255.255.255.255", "::1:2.3.4.5", "1:2:3:4::5:1.2.3.4",
        // h16 = 1*4HEXDIG, either case
        "ABCD:ef01:2345:6789:abcd:EF01:2345:6789", "0:0:0:0:0:0:0:0", "0001:2:3:4:5:6:7:8", "fe80::",
        "FFFF::ffff",
    ]

    static let invalidIPv6: [String] = [
        "1:2:3:4:5:6:7:8:9", ":::", "1::2::3", "::1.2.3.256", "1.2.3",
        // wrong piece counts
        "", "1", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", "1::2:3:4:5:6:7:8",
        "1:2:3:4:5:6:7::8", "1:2:3:4:5:6:7:1.2.3.4", "1:2:3:4:5:1.2.3.4", "1:2:3:4:5:6::1.2.3.4",
        // stray or doubled colons
        ":", ":1", "1:", ":1::", "1::2:", "::1:", "1:::2", "::1::", ":1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:",
        // h16 too long or not hex
        "12345::", "::fffff", "g::", "::g", "1:-2::", " ::1", "::1 ",
        // IPv4address in ls32: dec-octets 0–255 without leading zeros, last piece only, four octets
        "::01.2.3.4", "::1.2.3.04", "::256.1.1.1", "::1.2.3", "::1.2.3.4.5", "::1..3.4", "::1.2.3.",
        "::.1.2.3", "::1.2.3.4:1", "::1.2.3.4::", "1.2.3.4", "::1.2.3.-4", "::1.2.3.1000", "::ff.1.2.3",
        "1.2.3.4::",
    ]

    @Test(arguments: valid)
    func acceptsValidReference(_ text: String) {
        #expect(isValid(text))
    }

    @Test(arguments: invalid)
    func rejectsInvalidReference(_ text: String) {
        #expect(!isValid(text))
    }

    @Test(arguments: validIPv6)
    func acceptsValidIPv6Literal(_ address: String) {
        #expect(isValid("http://[\(address)]/"))
        #expect(isValid("//[\(address)]:8080"))
    }

    @Test(arguments: invalidIPv6)
    func rejectsInvalidIPv6Literal(_ address: String) {
        #expect(!isValid("http://[\(address)]/"))
        #expect(!isValid("//[\(address)]:8080"))
    }

    /// dec-octet: every value up to 255 is accepted, anything above is not, in each of the four positions.
    @Test(arguments: 0..<4)
    func acceptsDecOctetsUpTo255Only(_ position: Int) {
        for value in [0, 1, 9, 10, 99, 100, 199, 200, 249, 250, 255, 256, 260, 299, 300, 999] {
            var octets = ["1", "2", "3", "4"]
            octets[position] = String(value)
            let address = "::" + octets.joined(separator: ".")
            #expect(isValid("http://[\(address)]/") == (value <= 255), "\(address)")
        }
    }

    /// A byte after "a" is allowed exactly when it is a pchar or starts a path, query or fragment
    /// (":" then makes "a" a scheme); a bare "%" is never a complete pct-encoded.
    @Test func acceptsExactlyTheAllowedBytesAfterAFirstLetter() {
        let allowed = Set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#".utf8)
        for byte in UInt8.min...UInt8.max {
            let text = [UInt8(ascii: "a"), byte, UInt8(ascii: "b")]
            #expect(isValid(text) == allowed.contains(byte), "byte \(byte)")
        }
    }

    /// A scheme ends at the first ":" and may contain only ALPHA / DIGIT / "+" / "-" / "."; with any other
    /// byte before the ":" the text is a relative-ref with ":" in its first segment.
    @Test func readsASchemeOnlyFromSchemeCharacters() {
        let schemeBytes = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-.".utf8)
        for byte in UInt8(ascii: " ")...UInt8(ascii: "~") where byte != UInt8(ascii: ":") {
            let text = [UInt8(ascii: "x"), byte, UInt8(ascii: ":"), UInt8(ascii: "y")]
            let expected =
                schemeBytes.contains(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")
                || byte == UInt8(ascii: "#")
            #expect(isValid(text) == expected, "x\(Character(UnicodeScalar(byte))):y")
        }
    }

    @Test func validatesALongReferenceInFull() {
        let segment = "seg%20ment"
        let path = String(repeating: "/" + segment, count: 2_000)
        #expect(isValid("http://host" + path + "?q#f"))
        #expect(!isValid("http://host" + path + "%2"))
    }

    /// The one-table fast path never accepts what the grammar rejects: every listed case, and every string of
    /// up to four bytes drawn from the bytes where the two could disagree, after `http://a` and `https://`.
    @Test func plainHTTPFastPathAgreesWithTheGrammar() {
        let alphabet = Array("a1-.:@/?#%{ ".utf8)
        var cases = (Self.valid + Self.invalid).map { Array($0.utf8) }
        var tails: [[UInt8]] = [[]]
        for _ in 0..<4 {
            tails = tails.flatMap { tail in alphabet.map { tail + [$0] } }
            for prefix in ["http://a", "https://", "http://"] { cases += tails.map { Array(prefix.utf8) + $0 } }
        }
        var accepted = 0
        for bytes in cases {
            let fast = bytes.withUnsafeBytes { URIReference.isPlainHTTP($0) }
            guard fast else { continue }
            accepted += 1
            #expect(isValid(bytes), "fast path accepted \(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(accepted > 1_000)  // the fast path is taken, not just never wrong
        #expect(!isValid("http://a:b/") && !isValid("http://a{/"))
    }

    /// The sixteen-byte steps of the fast path (host, path, and the overlapping last sixteen bytes) against its
    /// byte-by-byte definition: every byte value at every position of a long URL, and every length of it.
    @Test func plainHTTPFastPathReadsEveryByteOfLongURLs() {
        let base = Array("https://api.example-host.com/users/some-one/followers/and.more/~x?page=2&per=50".utf8)
        var cases: [[UInt8]] = (9...base.count).map { Array(base.prefix($0)) }
        for position in 8..<base.count {
            for byte in UInt8.min...UInt8.max {
                var text = base
                text[position] = byte
                cases.append(text)
            }
        }
        for text in cases {
            let fast = text.withUnsafeBytes { URIReference.isPlainHTTP($0) }
            #expect(fast == Self.isPlainHTTPByDefinition(text), "\(String(decoding: text, as: UTF8.self))")
        }
    }

    /// `isPlainHTTP`'s contract, one byte at a time: `http(s)://`, a non-empty host of letters, digits, `-` and `.`
    /// ended by `/`, `?`, `#` or the end, then path bytes (RFC 3986 `pchar`, `/`, `?`; no `%`) and at most one `#`.
    private static func isPlainHTTPByDefinition(_ text: [UInt8]) -> Bool {
        let lower = text.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        let scheme = lower.starts(with: Array("https://".utf8)) ? 8 : lower.starts(with: Array("http://".utf8)) ? 7 : 0
        guard scheme > 0 else { return false }
        func isHost(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?".utf8)
        var index = scheme
        while index < text.count, isHost(text[index]) { index += 1 }
        guard index > scheme else { return false }
        guard index == text.count || [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(text[index])
        else { return false }
        let rest = text[index...]
        return rest.allSatisfy { plain.contains($0) || $0 == UInt8(ascii: "#") }
            && rest.filter { $0 == UInt8(ascii: "#") }.count <= 1
    }

    private func isValid(_ text: String) -> Bool {
        isValid(Array(text.utf8))
    }

    private func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { URIReference.isValid($0) }
    }
}
