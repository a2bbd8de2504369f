// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

struct StringBytesTests {
    @Test func comparesExactBytes() {
        #expect("application/json".hasBytes(of: "application/json"))
        #expect(!"Application/json".hasBytes(of: "application/json"))
        #expect(!"application/json ".hasBytes(of: "application/json"))
        #expect(!"application/jso".hasBytes(of: "application/json"))
        #expect("".hasBytes(of: ""))
        #expect("東京".hasBytes(of: "東京"))
        // Canonically equivalent to "Kit" for `==`, but other bytes.
        #expect(!"\u{212A}it".hasBytes(of: "Kit"))
    }

    @Test func ignoresTheCaseOfASCIILettersOnly() {
        #expect("Content-Type".equalsIgnoringASCIICase("content-type"))
        #expect("X-REQUEST-ID".equalsIgnoringASCIICase("x-request-id"))
        #expect(!"content-type".equalsIgnoringASCIICase("content-typ"))
        // Bytes that differ only in bit 0x20 but are not letters are different characters.
        #expect(!"a@b".equalsIgnoringASCIICase("a`b"))
        #expect(!"[x]".equalsIgnoringASCIICase("{x}"))
        #expect(!"\u{e9}".equalsIgnoringASCIICase("\u{c9}"))  // é and É: only ASCII case folds
        // KELVIN SIGN (E2 84 AA) and SCRIPT SMALL G (E2 84 8A): same length, a byte apart by 0x20, not letters.
        #expect(!"\u{212A}".equalsIgnoringASCIICase("\u{210A}"))
        #expect("".equalsIgnoringASCIICase(""))
        #expect(!"".equalsIgnoringASCIICase("a"))
    }

    @Test func findsResponseHeadersWhateverTheirCase() {
        var response = HTTPResponse.json(.ok, [])
        response.headers.append(("X-Request-Id", "abc"))
        #expect(response.header("content-type") == "application/json; charset=utf-8")
        #expect(response.header("X-REQUEST-ID") == "abc")
        #expect(response.header("x-request-i") == nil)
    }
}
