// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

struct RouterTests {
    /// Paths are matched exactly on their bytes after percent-decoding (docs/api.md, "Endpoints at a glance"): a `/` is
    /// a separator wherever it stands, even before a combining mark, which a split by Characters would fold into one
    /// cluster with it.
    @Test(
        arguments: [
            ("/health", "/health", nil), ("/ready", "/ready", nil), ("/metrics", "/metrics", nil),
            ("/schemas", "/schemas", nil), ("/schemas/User", "/schemas/{model}", "User"),
            ("/schemas/User/jsonschema", "/schemas/{model}/jsonschema", "User"),
            ("/convert/User", "/convert/{model}", "User"), ("/normalize/User", "/normalize/{model}", "User"),
            ("/validate/User", "/validate/{model}", "User"), ("/compare/User", "/compare/{model}", "User"),
            ("/convert/User/array", "/convert/{model}/array", "User"),
            ("/validate/User/array", "/validate/{model}/array", "User"),
            ("/normalize/User/dictionary", "/normalize/{model}/dictionary", "User"),
            ("/convert/東京", "/convert/{model}", "東京"),
            ("/convert/\u{301}User", "/convert/{model}", "\u{301}User"),
        ] as [(String, String, String?)])
    func matchesEveryRoute(path: String, template: String, model: String?) throws {
        let route = try #require(Router.match(path))
        #expect(route.template == template)
        #expect(route.model == model)
    }

    @Test(arguments: [
        "", "health", "/", "//", "/health/", "/Health", "/convert", "/convert/", "/convert//array", "/convert/User/",
        "/convert/User/list", "/validate/User/dictionary", "/convert/User/array/extra", "/schemas/User/jsonschema/x",
        "/\u{301}health", "/convert/User/\u{301}", "/convert/User/array\u{301}",
    ])
    func refusesEverythingElse(path: String) {
        #expect(Router.match(path) == nil, "\(path)")
    }

    /// The methods each route serves, as the `Allow` header of a 405 lists them (HEAD wherever GET is).
    @Test(
        arguments: [
            ("/health", ["GET", "HEAD"]), ("/schemas", ["GET", "POST", "HEAD"]),
            ("/schemas/User", ["GET", "PUT", "DELETE", "HEAD"]), ("/schemas/User/jsonschema", ["GET", "HEAD"]),
            ("/convert/User", ["POST"]), ("/compare/User", ["POST"]), ("/validate/User/array", ["POST"]),
        ] as [(String, [String])])
    func allowsExactlyItsMethods(path: String, allowed: [String]) throws {
        let route = try #require(Router.match(path))
        #expect(route.allowedMethods.map(\.name) == allowed)
        for method in ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "get", "post"] {
            #expect(route.allows(HTTPMethod(method)) == allowed.contains(method), "\(method) \(path)")
        }
    }

    @Test func splitsTargetsIntoPathAndQuery() {
        #expect(Router.split(target: "/convert/User?mode=strict&x=1") == ("/convert/User", "mode=strict&x=1"))
        #expect(Router.split(target: "/convert/User?") == ("/convert/User", ""))
        #expect(Router.split(target: "/convert/User") == ("/convert/User", nil))
        #expect(Router.split(target: "http://example.com:8080/health?x") == ("/health", "x"))
        #expect(Router.split(target: "http://example.com") == ("/", nil))
    }

    @Test func percentDecodesWholePaths() {
        #expect(Router.percentDecode("/convert/User") == "/convert/User")
        #expect(Router.percentDecode("/convert/%55ser") == "/convert/User")
        #expect(Router.percentDecode("/a%2Fb") == "/a/b")
        #expect(Router.percentDecode("/%E6%9D%B1") == "/東")
        #expect(Router.percentDecode("/%G1") == nil)
        #expect(Router.percentDecode("/%4") == nil)
        #expect(Router.percentDecode("/%FF") == nil)  // not UTF-8
    }

    @Test func routeKindsCarryTheModelTheirPathNames() throws {
        #expect(try #require(Router.match("/convert/User/array")).kind == .conversion(.convert, .array, model: "User"))
        #expect(try #require(Router.match("/merge/User")).kind == .merge(model: "User"))
        #expect(try #require(Router.match("/schemas/User/versions/03")).kind == .version(model: "User", number: "03"))
        #expect(try #require(Router.match("/schemas/User/config")).kind == .config(model: "User"))
        #expect(try #require(Router.match("/schemas/import")).kind == .importSchema)
        #expect(try #require(Router.match("/schemas")).model == nil)
    }
}
