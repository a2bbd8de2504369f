// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import MapperCore

struct JSONSchemaExportTests {
    /// The `$defs` entry of `model`, or its property `property`, from the export of a registry holding `documents`.
    static func definition(_ model: String, property: String? = nil, in documents: [String]) throws -> String {
        let snapshot = try SchemaRegistry().load(
            documents.enumerated().map {
                SchemaFile(name: "doc\($0).json", bytes: Array($1.utf8))
            })
        let document = try JSONValue.parse(try #require(snapshot.jsonSchema(for: model)))
        var value = try #require(document["$defs"]?[model])
        // The model's own document rides along under `x-transform` (JSONSchemaImportTests checks it).
        if case .object(let members) = value { value = .object(members.filter { $0.key != "x-transform" }) }
        if let property { value = try #require(value["properties"]?[property]) }
        return String(decoding: value.bytes, as: UTF8.self)
    }

    // MARK: - The document

    @Test func exportsASmallModelAsGolden() throws {
        let snapshot = try SchemaRegistry.make(
            """
            {"models": [
              {"name": "Owner", "properties": {"uid": {"type": "uint64", "key": "id", "required": true}, "login": "string"}},
              {"name": "Repo", "properties": {"id": "uint64", "name": {"type": "string", "key": "full_name"},
                "owner": "Owner", "stars": {"type": "uint32", "key": "stargazers_count"}, "private": "bool"}}
            ]}
            """
        ).current
        let expected = """
            {"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Repo","$ref":"#/$defs/Repo","$defs":{\
            "Owner":{"title":"Owner","type":"object","properties":{\
            "id":{"type":"integer","minimum":0,"maximum":18446744073709551615},"login":{"type":["string","null"]}},\
            "required":["id"],"x-transform":{"name":"Owner","properties":{"uid":{"type":"uint64","key":"id","required":true},"login":"string"}}},\
            "Repo":{"title":"Repo","type":"object","properties":{\
            "id":{"type":"integer","minimum":0,"maximum":18446744073709551615},\
            "full_name":{"type":["string","null"]},\
            "owner":{"anyOf":[{"$ref":"#/$defs/Owner"},{"type":"null"}]},\
            "stargazers_count":{"type":"integer","minimum":0,"maximum":4294967295},\
            "private":{"type":["boolean","integer"],"minimum":0,"maximum":1}},\
            "x-transform":{"name":"Repo","properties":{"id":"uint64","name":{"type":"string","key":"full_name"},\
            "owner":"Owner","stars":{"type":"uint32","key":"stargazers_count"},"private":"bool"}}}}}
            """
        #expect(String(decoding: try #require(snapshot.jsonSchema(for: "Repo")), as: UTF8.self) == expected)
    }

    @Test func sameSchemasGiveSameBytes() throws {
        let first = try Self.exampleRegistry().current
        let second = try Self.exampleRegistry().current
        #expect(first.modelNames.count > 10)
        for name in first.modelNames {
            let bytes = try #require(first.jsonSchema(for: name))
            #expect(first.jsonSchema(for: name) == bytes, "\(name)")
            #expect(second.jsonSchema(for: name) == bytes, "\(name)")
        }
    }

    @Test func definesRecursiveModelsOnceByReference() throws {
        let snapshot = try SchemaRegistry.make(
            """
            {"models": [
              {"name": "Node", "properties": {"children": {"type": "array", "of": "Node"}, "next": "Node"}},
              {"name": "A", "properties": {"b": "B"}},
              {"name": "B", "properties": {"a": {"type": "dictionary", "of": "A"}}}
            ]}
            """
        ).current
        let node = try JSONValue.parse(try #require(snapshot.jsonSchema(for: "Node")))
        #expect(node["$defs"].map { Self.keys($0) } == ["Node"])
        #expect(
            node["$defs"]?["Node"]?["properties"]?["children"]?["items"] == .object([("$ref", .string("#/$defs/Node"))])
        )
        let a = try JSONValue.parse(try #require(snapshot.jsonSchema(for: "A")))
        #expect(a["$ref"] == .string("#/$defs/A"))
        #expect(a["$defs"].map { Self.keys($0) } == ["A", "B"])
        #expect(
            a["$defs"]?["B"]?["properties"]?["a"]?["additionalProperties"] == .object([("$ref", .string("#/$defs/A"))]))
    }

    @Test func unknownModelHasNoSchema() throws {
        #expect(
            try SchemaRegistry.make(#"{"name": "User", "properties": {}}"#).current.jsonSchema(for: "Nobody") == nil)
    }

    static func keys(_ object: JSONValue) -> [String] {
        if case .object(let members) = object { return members.map(\.key) }
        return []
    }

    // MARK: - Values

    static let urlCharacters = #"[A-Za-z0-9._~:/?#\\[\\]@!$&'()*+,;=%-]"#
    static let nullSpellings =
        #""NIL","Nil","nil","NULL","Null","null","(NULL)","(Null)","(null)","<NULL>","<Null>","<null>""#

    /// (property spec, its schema).
    static let valueCases: [(String, String)] = [
        (#""bool""#, #"{"type":["boolean","integer"],"minimum":0,"maximum":1}"#),
        (#"{"type": "bool", "enum": [true]}"#, #"{"enum":[true,1]}"#),
        (#""int8""#, #"{"type":"integer","minimum":-128,"maximum":127}"#),
        (#""uint64""#, #"{"type":"integer","minimum":0,"maximum":18446744073709551615}"#),
        (#"{"type": "int32", "minimum": 1, "maximum": 1e1}"#, #"{"type":"integer","minimum":1,"maximum":10}"#),
        (#""float""#, #"{"type":"number","minimum":-3.4028235e+38,"maximum":3.4028235e+38}"#),
        (#"{"type": "double", "minimum": 0.5}"#, #"{"type":"number","minimum":0.5,"maximum":1.7976931348623157e+308}"#),
        (#""decimal""#, #"{"type":["number","null"]}"#),
        (#"{"type": "decimal", "required": true, "maximum": 1e3}"#, #"{"type":"number","maximum":1000}"#),
        (#""number""#, #"{"anyOf":[{"type":["number","boolean"]},{"enum":[null,"# + nullSpellings + #"]}]}"#),
        (#"{"type": "number", "required": true}"#, #"{"type":["number","boolean"]}"#),
        (#""string""#, #"{"type":["string","null"]}"#),
        (
            #"{"type": "string", "required": true, "minLength": 1, "maxLength": 5, "pattern": "^a", "enum": ["ab", "ac"]}"#,
            #"{"type":"string","minLength":1,"maxLength":5,"pattern":"^a","enum":["ab","ac"]}"#
        ),
        (#"{"type": "string", "enum": ["a"]}"#, #"{"type":["string","null"],"enum":["a",null]}"#),
        (
            #""url""#,
            #"{"type":["string","null"],"format":"uri-reference","pattern":"^[ \\t\\n\\r]*"# + urlCharacters
                + #"*[ \\t\\n\\r]*$"}"#
        ),
        (
            #"{"type": "url", "required": true}"#,
            #"{"type":"string","format":"uri-reference","pattern":"^[ \\t\\n\\r]*"#
                + urlCharacters + #"+[ \\t\\n\\r]*$"}"#
        ),
        (
            #"{"type": "url", "maxLength": 20}"#,
            #"{"anyOf":[{"type":"string","format":"uri-reference","pattern":"^[ \\t\\n\\r]*"#
                + urlCharacters
                + #"+[ \\t\\n\\r]*$","maxLength":20},{"type":["string","null"],"pattern":"^[ \\t\\n\\r]*$"}]}"#
        ),
        (#""data""#, #"{"type":["string","null"]}"#),
        (
            #"{"type": "data", "encoding": "base64"}"#,
            #"{"type":["string","null"],"contentEncoding":"base64","pattern":"#
                + #""^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw](?:==)?|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=?)?$"}"#
        ),
        (#""any""#, #"{}"#),
        (#"{"type": "any", "required": true}"#, #"{"not":{"type":"null"}}"#),
        (#""array""#, #"{"type":["array","null"]}"#),
        (
            #"{"type": "array", "of": "int8", "minLength": 1, "maxLength": 3}"#,
            #"{"type":["array","null"],"items":{"type":"integer","minimum":-128,"maximum":127},"minItems":1,"maxItems":3}"#
        ),
        (
            #"{"type": "set", "of": "string", "minLength": 1, "maxLength": 2}"#,
            #"{"type":["array","null"],"items":{"type":"string"},"minItems":1,"$comment":"maxLength 2 counts distinct elements; not expressed"}"#
        ),
        (
            #"{"type": "dictionary", "of": {"type": "array", "of": "bool"}, "maxLength": 4}"#,
            #"{"type":["object","null"],"additionalProperties":{"type":"array","items":{"type":["boolean","integer"],"minimum":0,"maximum":1}},"maxProperties":4}"#
        ),
        (#""M""#, ##"{"anyOf":[{"$ref":"#/$defs/M"},{"type":"null"}]}"##),
        (#"{"type": "M", "required": true}"#, ##"{"$ref":"#/$defs/M"}"##),
        (
            #"{"type": "string", "default": "x", "description": "A note."}"#,
            #"{"type":["string","null"],"description":"A note.","default":"x"}"#
        ),
    ]

    @Test(arguments: valueCases)
    func mapsEachTypeWithoutCoercion(_ spec: String, _ expected: String) throws {
        let document = #"{"name": "M", "properties": {"v": "# + spec + "}}"
        #expect(try Self.definition("M", property: "v", in: [document]) == expected)
    }

    @Test func acceptsDatesInEveryFormatTheyAreReadIn() throws {
        let spec =
            #"{"type": "date", "required": true, "minimum": "2000-01-01", "#
            + #""dateFormat": {"input": ["epochMillis", "yyyyMMdd"], "output": "epoch"}}"#
        let schema = try JSONValue.parse(
            Array(
                try Self.definition(
                    "M", property: "v",
                    in: [
                        #"{"name": "M", "properties": {"v": "# + spec + "}}"
                    ]
                ).utf8))
        #expect(schema["type"] == .array([.string("string"), .string("number")]))
        #expect(
            schema["pattern"]
                == .string(
                    "^(?:" + JSONSchemaExport.regularExpression(try DatePattern("yyyyMMdd")) + "|"
                        + JSONSchemaExport.rfc3339 + "|" + JSONSchemaExport.weibo + ")$"))
        #expect(schema["minimum"] == .number("-62135596800000"))
        #expect(schema["maximum"] == .number("253402300799999.999"))
        #expect(schema["$comment"] == .string(#"not expressed (dates compare as instants): minimum "2000-01-01""#))
    }

    static let year = "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"

    @Test(arguments: [
        ("dd/MM/yyyy", "(?:0[1-9]|[12][0-9]|3[01])/(?:0[1-9]|1[0-2])/" + year),
        ("h:mm a", "(?:0?[1-9]|1[0-2]):[0-5][0-9] (?:AM|PM)"),
        (
            "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
            year + "-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):"
                + #"[0-5][0-9]:[0-5][0-9]\.[0-9]{3}(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"#
        ),
        (
            "EEE, d MMM yy Z",
            "(?:Sun|Mon|Tue|Wed|Thu|Fri|Sat), (?:0?[1-9]|[12][0-9]|3[01]) "
                + "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{2} [+-](?:[01][0-9]|2[0-3])[0-5][0-9]"
        ),
        (
            "'at' H.m.s X",
            #"at (?:[01]?[0-9]|2[0-3])\.[0-5]?[0-9]\.[0-5]?[0-9] (?:Z|[+-](?:[01][0-9]|2[0-3])(?:[0-5][0-9])?)"#
        ),
    ])
    func translatesDatePatternsToRegularExpressions(_ pattern: String, _ expected: String) throws {
        #expect(JSONSchemaExport.regularExpression(try DatePattern(pattern)) == expected)
    }

    // MARK: - Model rules

    @Test func fallbackKeysKeyPathsAndRejectFollowTheReader() throws {
        let document = """
            {"name": "Keys", "unknownKeys": "reject", "blacklist": ["hidden"],
             "validate": {"requireAny": [["city", "meta"]]},
             "properties": {
               "id": {"type": "string", "key": ["id", "alt.id"], "required": true},
               "city": {"type": "string", "key": "address.city"},
               "zip": {"type": "string", "key": "address.zip", "required": true},
               "hidden": "string", "meta": "any"}}
            """
        let expected = """
            {"title":"Keys","type":"object","properties":{"id":{},"alt":{"properties":{"id":{}},"additionalProperties":false},\
            "address":{"type":"object","properties":{"city":{"type":["string","null"]},"zip":{"type":"string"}},\
            "required":["zip"],"additionalProperties":false},"meta":{},"hidden":{}},\
            "required":["address"],"additionalProperties":false,"allOf":[\
            {"if":{"required":["id"]},"then":{"properties":{"id":{"type":"string"}}},\
            "else":{"required":["alt"],"properties":{"alt":{"type":"object","required":["id"],"properties":{"id":{"type":"string"}}}}}},\
            {"anyOf":[{"required":["address"],"properties":{"address":{"type":"object","required":["city"],\
            "properties":{"city":{"not":{"type":"null"}}}}}},{"required":["meta"],"properties":{"meta":{"not":{"type":"null"}}}}]}]}
            """
        #expect(try Self.definition("Keys", in: [document]) == expected)
    }

    @Test func willTransformAndClassRulesFollowTheConversionOrder() throws {
        let documents = [
            """
            {"name": "Env", "properties": {"name": {"type": "string", "required": true}, "kind": "string", "debug": "string"},
             "willTransform": {"unwrap": "payload.data", "rename": {"title": "name"}, "remove": ["debug"],
                               "defaults": {"kind": "plain"}},
             "classForDictionary": [{"when": {"key": "kind", "in": ["special", "rare"]}, "use": "Special"}]}
            """,
            #"{"name": "Special", "extends": "Env", "unknownKeys": "reject", "properties": {"extra": "bool"}}"#,
        ]
        let object = { (name: String, extra: String, closed: String) in
            #"{"title":""# + name
                + #"","type":"object","properties":{"title":{},"name":{},"kind":{"type":["string","null"]},"#
                + extra + #""debug":{}}"# + closed + #","allOf":[{"if":{"required":["title"]},"#
                + #""then":{"properties":{"title":{"type":"string"}}},"#
                + #""else":{"required":["name"],"properties":{"name":{"type":"string"}}}},{"not":{"required":["title","name"]}}]}"#
        }
        let expected =
            #"{"title":"Env","type":"object","required":["payload"],"properties":{"payload":{"type":"object","#
            + #""required":["data"],"properties":{"data":{"type":"object","#
            + #""if":{"required":["kind"],"properties":{"kind":{"enum":["special","rare"]}}},"#
            + #""then":"#
            + object(
                "Special", #""extra":{"type":["boolean","integer"],"minimum":0,"maximum":1},"#,
                #","additionalProperties":false"#)
            + #","else":"# + object("Env", "", "") + "}}}}}"
        #expect(try Self.definition("Env", in: documents) == expected)
    }

    @Test func carriesTheModelDescription() throws {
        let document = #"{"name": "M", "description": "What M is.", "properties": {}}"#
        #expect(
            try Self.definition("M", in: [document]) == #"{"title":"M","description":"What M is.","type":"object"}"#)
    }

    // MARK: - Validation against a JSON Schema validator

    /// Models that exercise the rules the examples in config/schemas do not: fallback keys, a key path, unknown
    /// keys rejected, a blacklist, `requireAny`, `unwrap`, `rename`, `remove`, `defaults` seen by a predicate, and
    /// the no-value spellings.
    static let rulesDocument = """
        {"models": [
          {"name": "Rules", "unknownKeys": "reject", "blacklist": ["secret"],
           "validate": {"requireAny": [["email", "phone"]]},
           "properties": {
             "id": {"type": "uint32", "key": ["id", "ID"], "required": true},
             "title": {"type": "string", "key": "meta.title", "required": true},
             "secret": "string", "email": "string", "phone": "string",
             "tags": {"type": "set", "of": "string"},
             "score": "number",
             "site": "url",
             "blob": {"type": "data", "encoding": "base64"},
             "when": {"type": "date", "dateFormat": {"input": ["dd/MM/yyyy", "epoch"], "output": "iso8601"}},
             "level": {"type": "int8", "enum": [1, 2, 3]},
             "child": "Rules"}},
          {"name": "Envelope", "unknownKeys": "reject",
           "willTransform": {"unwrap": "data", "rename": {"title": "name"}, "defaults": {"kind": "plain"}},
           "properties": {"name": {"type": "string", "required": true}, "kind": "string"}},
          {"name": "Env", "properties": {"name": {"type": "string", "required": true}, "kind": "string", "debug": "int8"},
           "willTransform": {"unwrap": "payload.data", "rename": {"title": "name"}, "remove": ["debug"],
                             "defaults": {"kind": "plain"}},
           "classForDictionary": [{"when": {"key": "kind", "in": ["special", "rare"]}, "use": "Special"}]},
          {"name": "Special", "extends": "Env", "unknownKeys": "reject", "properties": {"extra": "bool"}}
        ]}
        """

    /// (model, strict-mode input, accepted by strict mode per docs/jsonschema.md).
    static let validationCases: [(String, String, Bool)] = [
        ("User", #"{"uid": 1}"#, true),
        ("User", #"{"uid": 1, "name": null, "created": "2015-09-04T00:12:21.5+08:00"}"#, true),
        ("User", #"{"uid": 1, "created": "Fri Sep 04 00:12:21 +0800 2015"}"#, true),
        ("User", #"{"uid": "1"}"#, false),
        ("User", #"{"uid": null}"#, false),
        ("User", #"{"name": "x"}"#, false),
        ("User", #"{"uid": 1, "created": "2015-13-01"}"#, false),
        ("User", #"{"uid": 1, "created": "2015-09-04T00:12:21.1234567Z"}"#, false),
        ("User", #"{"uid": 1, "created": 1441325541}"#, false),
        ("Repo", #"{"id": 1, "owner": {"id": 2, "login": "l"}, "private": true}"#, true),
        ("Repo", #"{"private": 1, "owner": null, "unknown": [1]}"#, true),
        ("Repo", #"{"owner": {}}"#, false),
        ("Repo", #"{"private": 2}"#, false),
        ("Repo", #"{"stargazers_count": -1}"#, false),
        ("Repo", #"{"id": 18446744073709551616}"#, false),
        ("Repo", #"{"id": 1.5}"#, false),
        ("Repo", #"{"id": 2.0, "full_name": "a/b"}"#, true),
        ("Book", #"{"n": "x", "id": "b1"}"#, true),
        ("Book", #"{"n": "x", "book_id": "b1", "ext": {"desc": "d", "other": 1}}"#, true),
        ("Book", #"{"n": "x", "id": "b1", "ID": 5}"#, true),
        ("Book", #"{"n": "x"}"#, false),
        ("Book", #"{"n": "x", "id": null, "ID": "b1"}"#, false),
        ("Book", #"{"n": "x", "id": 5}"#, false),
        ("Book", #"{"n": "x", "id": "b", "p": -1}"#, false),
        ("Book", #"{"n": "x", "id": "b", "price": "1.5"}"#, false),
        (
            "Book",
            #"{"n": "x", "id": "b", "price": 1.5, "published": "04/09/2015", "homepage": "https://example.com/"}"#, true
        ),
        ("Book", #"{"n": "x", "id": "b", "published": "4/9/2015"}"#, false),
        ("Book", #"{"n": "x", "id": "b", "tags": ["a", "a"], "ratings": {"r": 1.5}, "internalNote": [1]}"#, true),
        ("Book", #"{"n": "x", "id": "b", "tags": ["a", null]}"#, false),
        ("Book", #"{"n": "x", "id": "b", "ratings": {"r": "1.5"}}"#, false),
        ("Book", #"{"n": "x", "id": "b", "homepage": "http://exa mple.com"}"#, false),
        ("Drawing", #"{"main": {"radius": 1}, "shapes": [{"kind": "rect", "width": 2}, {"name": "n"}]}"#, true),
        ("Drawing", #"{"main": {"radius": -1}}"#, false),
        ("Drawing", #"{"main": {"kind": "square", "width": "2"}}"#, false),
        ("Drawing", #"{"main": {"kind": "circle", "width": "2"}}"#, true),
        ("Drawing", #"{"shapes": [{"radius": 1}, null]}"#, false),
        ("Drawing", #"{"main": [1]}"#, false),
        (
            "Album",
            #"{"photos": [{"url": "http://x/1.png", "width": 1}], "matrix": [[1, 2], [3]], "likedUserIds": [1, 1]}"#,
            true
        ),
        ("Album", #"{"byYear": {"2015": [{"height": 2}]}, "extra": {"any": ["thing"]}}"#, true),
        ("Album", #"{"matrix": [[1.5]]}"#, false),
        ("Album", #"{"byYear": {"2015": [{"width": 70000}]}}"#, false),
        ("Album", #"{"photos": {"0": {}}}"#, false),
        (
            "GithubUser",
            #"{"login": "octocat", "id": 1, "site_admin": false, "created_at": "2011-01-25T18:44:36Z", "avatar_url": "https://github.com/images/error/octocat_happy.gif", "bio": null}"#,
            true
        ),
        ("GithubUser", #"{"login": "octocat", "id": 1, "public_repos": 1.5}"#, false),
        ("GithubUser", #"{"login": "octocat", "id": 1, "site_admin": "false"}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "a@b"}"#, true),
        ("Rules", #"{"ID": 1, "meta": {"title": "t"}, "phone": "1", "secret": 5}"#, true),
        ("Rules", #"{"id": 1, "ID": "junk", "meta": {"title": "t"}, "email": "e"}"#, true),
        ("Rules", #"{"id": "1", "meta": {"title": "t"}, "email": "e"}"#, false),
        ("Rules", #"{"id": 1, "email": "e"}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t", "x": 1}, "email": "e"}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "zzz": 1}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": null}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": null, "phone": "p"}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "tags": ["a", "a", "b"]}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "tags": [1]}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "score": true}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "score": "<null>"}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "score": "5"}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "site": " http://x.y/a "}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "site": "  "}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "site": 5}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "blob": "TQ"}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "blob": "TWE="}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "blob": "TR=="}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "blob": "T"}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "when": "04/09/2015"}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "when": 1441325541.5}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "when": "2015-09-04 00:12:21"}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "when": "1441325541"}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "when": true}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "when": 1e12}"#, false),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "level": 2.0}"#, true),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "level": 4}"#, false),
        (
            "Rules",
            #"{"id": 1, "meta": {"title": "t"}, "email": "e", "child": {"ID": 2, "meta": {"title": "u"}, "phone": "p"}}"#,
            true
        ),
        ("Rules", #"{"id": 1, "meta": {"title": "t"}, "email": "e", "child": {"ID": 2, "phone": "p"}}"#, false),
        ("Rules", #"{"id": 4294967296, "meta": {"title": "t"}, "email": "e"}"#, false),
        ("Envelope", #"{"data": {"name": "x"}}"#, true),
        ("Envelope", #"{"data": {"title": "x", "kind": null}, "beside": 1}"#, true),
        ("Envelope", #"{"data": {"name": "x", "kind": "k"}}"#, true),
        ("Envelope", #"{"name": "x"}"#, false),
        ("Envelope", #"{"data": "x"}"#, false),
        ("Envelope", #"{"data": {"title": "x", "name": "y"}}"#, false),
        ("Envelope", #"{"data": {"name": "x", "extra": 1}}"#, false),
        ("Envelope", #"{"data": {}}"#, false),
        ("Envelope", #"{"data": {"title": 5}}"#, false),
        ("Env", #"{"payload": {"data": {"name": "n", "zzz": 1, "debug": [1]}}}"#, true),
        ("Env", #"{"payload": {"data": {"title": "n", "kind": "rare", "extra": true}}}"#, true),
        ("Env", #"{"payload": {"data": {"name": "n", "kind": "rare", "zzz": 1}}}"#, false),
        ("Env", #"{"payload": {"data": {"name": "n", "kind": "special", "extra": "yes"}}}"#, false),
        ("Env", #"{"payload": {"data": {"name": "n", "kind": "other", "extra": "yes"}}}"#, true),
        ("Env", #"{"payload": {"data": {"title": "n", "name": "m"}}}"#, false),
        ("Env", #"{"payload": {"data": {"kind": "special"}}}"#, false),
        ("Env", #"{"payload": {"data": [1]}}"#, false),
    ]

    @Test(.enabled(if: JSONSchemaValidator.isAvailable, "needs python3 with the jsonschema module"))
    func exportedSchemasAgreeWithStrictMode() throws {
        let snapshot = try Self.exampleRegistry().current
        var instances: [(schema: [UInt8], instance: String)] = []
        for (model, input, accepted) in Self.validationCases {
            let outcome = snapshot.run(model, input, mode: .strict)
            #expect((outcome.status == 200) == accepted, "engine, \(model) \(input): \(outcome)")
            instances.append((try #require(snapshot.jsonSchema(for: model)), input))
        }
        let verdicts = try JSONSchemaValidator.validate(instances)
        for (index, (model, input, accepted)) in Self.validationCases.enumerated() {
            #expect(verdicts[index] == accepted, "JSON Schema, \(model) \(input)")
        }
    }

    /// The example schemas of config/schemas plus `rulesDocument`.
    static func exampleRegistry() throws -> SchemaRegistry {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/schemas")
        var files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .map { SchemaFile(name: $0, bytes: Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
        files.append(SchemaFile(name: "rules.json", bytes: Array(rulesDocument.utf8)))
        let registry = SchemaRegistry()
        try registry.load(files)
        return registry
    }
}

/// Runs Python's `jsonschema` (Draft 2020-12) over exported schemas in one subprocess.
enum JSONSchemaValidator {
    static let script = """
        import json, sys
        from jsonschema import Draft202012Validator
        checked = set()
        for case in json.load(open(sys.argv[1])):
            key = json.dumps(case["schema"], sort_keys=True)
            if key not in checked:
                Draft202012Validator.check_schema(case["schema"])
                checked.add(key)
            print("1" if Draft202012Validator(case["schema"]).is_valid(case["instance"]) else "0")
        """

    static let isAvailable: Bool = (try? run(["-c", "import jsonschema"]).status == 0) ?? false

    /// One verdict per instance, in order.
    static func validate(_ cases: [(schema: [UInt8], instance: String)]) throws -> [Bool] {
        var document: [UInt8] = Array("[".utf8)
        for (index, entry) in cases.enumerated() {
            if index > 0 { document.append(UInt8(ascii: ",")) }
            document += Array(#"{"schema":"#.utf8) + entry.schema + Array(#","instance":"#.utf8)
            document += Array(entry.instance.utf8) + [UInt8(ascii: "}")]
        }
        document.append(UInt8(ascii: "]"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jsonschema-\(UUID().uuidString).json")
        try Data(document).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["-c", script, file.path])
        try #require(result.status == 0, "python3 failed: \(result.output)")
        let verdicts = result.output.split(separator: "\n").map { $0 == "1" }
        try #require(verdicts.count == cases.count, "python3 said: \(result.output)")
        return verdicts
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
