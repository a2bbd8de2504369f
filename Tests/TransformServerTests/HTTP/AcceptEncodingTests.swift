// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

@Suite struct AcceptEncodingTests {
    /// (header value, accepts gzip) — RFC 9110 §12.5.3 and the rules in AcceptEncoding.swift.
    static let table: [(String?, Bool)] = [
        (nil, false),
        ("", false),
        ("   ", false),
        ("gzip", true),
        ("GZIP", true),
        ("GZip", true),
        ("x-gzip", true),
        ("X-GZIP", true),
        ("identity", false),
        ("br", false),
        ("deflate, br", false),
        ("gzip, deflate, br", true),
        ("br, gzip;q=0.001", true),
        ("gzip;q=1", true),
        ("gzip;q=1.0", true),
        ("gzip;q=1.000", true),
        ("gzip;q=0.5", true),
        ("gzip;q=0.", false),
        ("gzip;q=0", false),
        ("gzip;q=0.0", false),
        ("gzip;q=0.000", false),
        ("gzip;Q=0.5", true),
        ("gzip;Q=0", false),
        ("*", true),
        ("*;q=0.5", true),
        ("*;q=0", false),
        ("gzip;q=0, *", false),
        ("*, gzip;q=0", false),
        ("x-gzip;q=0, *;q=1", false),
        ("gzip;q=0, x-gzip;q=0.5", true),
        ("identity, *;q=0.1", true),
        ("identity;q=1, *;q=0", false),
        // Whitespace around separators.
        (" gzip ", true),
        ("br ,\tgzip ; q=0.8 ", true),
        ("gzip ; q = 0.8", true),
        ("gzip\t;\tq=0", false),
        // Empty list elements are skipped (RFC 9110 §5.6.1).
        (", ,gzip,", true),
        (",,", false),
        // Malformed members count as absent.
        ("gzip;q=1.5", false),
        ("gzip;q=2", false),
        ("gzip;q=0.1234", false),
        ("gzip;q=.5", false),
        ("gzip;q=-1", false),
        ("gzip;q=", false),
        ("gzip;q", false),
        ("gzip;", false),
        ("gzip;level=1", false),
        ("gzip;q=0.5;q=0.5", false),
        ("gzip;q=abc", false),
        ("gzip;q=1.001", false),
        ("gz ip", false),
        ("gzip/1", false),
        ("gzip;q=abc, *", true),
        ("gzip;q=1.5, *;q=0.2", true),
        ("\"gzip\"", false),
        ("gzip2", false),
        ("gzipx, xgzip", false),
        ("gzïp", false),
    ]

    @Test(arguments: table)
    func decidesWhetherGzipIsAcceptable(headerValue: String?, accepts: Bool) {
        #expect(AcceptEncoding.acceptsGzip(headerValue) == accepts)
    }
}
