// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import MapperCore

struct JSONPointerTests {
    /// RFC 6901 §3: `~` becomes `~0` and `/` becomes `~1`; everything else, UTF-8 included, is copied.
    @Test(arguments: [
        ("", ""), ("plain", "plain"), ("~", "~0"), ("/", "~1"), ("a/b", "a~1b"), ("m~n", "m~0n"),
        ("~/~/", "~0~1~0~1"), ("a~/b~~//c", "a~0~1b~0~0~1~1c"), ("/lead", "~1lead"), ("trail~", "trail~0"),
        ("café/東京", "café~1東京"),
    ])
    func escapesAReferenceToken(token: String, escaped: String) {
        var out = Array("/prefix/".utf8)
        Array(token.utf8).withUnsafeBytes { JSONPointer.appendEscaped($0, to: &out) }
        #expect(String(decoding: out, as: UTF8.self) == "/prefix/" + escaped)
    }
}
