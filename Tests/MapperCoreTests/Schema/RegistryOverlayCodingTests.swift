// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

@Suite struct RegistryOverlayCodingTests {
    @Test func encodedOverlayReadsBackTheSame() throws {
        let overlay = RegistryOverlay(
            models: [
                SchemaFile(
                    name: "o", bytes: Array(#"{"name":"A","properties":{}}"#.utf8), source: .registry, version: 7)
            ],
            deleted: ["B", "C\"D"])
        let bytes = overlay.encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"models":[{"version":7,"schema":{"name":"A","properties":{}}}],"deleted":["B","C\"D"]}"#)
        let decoded = try RegistryOverlay(decoding: bytes, file: ".registry.json")
        #expect(decoded.models.map(\.version) == [7])
        #expect(decoded.models.map(\.bytes) == overlay.models.map(\.bytes))
        #expect(decoded.deleted == ["B", "C\"D"])
    }

    @Test func overlayVersionsAreKeptByTheRegistry() throws {
        let registry = SchemaRegistry()
        let overlay = RegistryOverlay(
            models: [
                SchemaFile(
                    name: "o", bytes: Array(#"{"name":"A","properties":{"x":"string"}}"#.utf8), source: .registry,
                    version: 5)
            ],
            deleted: [])
        let snapshot = try registry.load(
            [SchemaFile(name: "a.json", bytes: Array(#"{"name":"A","properties":{}}"#.utf8))],
            overlay: overlay)
        #expect(snapshot.entries["A"]?.version == 5)
        #expect(snapshot.entries["A"]?.source == .registry)
    }

    @Test(arguments: [#"[]"#, #"{"models":[{"version":"1","schema":{}}]}"#, #"{"deleted":[1]}"#, "{"])
    func rejectsMalformedOverlays(text: String) {
        #expect(throws: RegistryOverlay.DecodingError.self) {
            try RegistryOverlay(decoding: Array(text.utf8), file: ".registry.json")
        }
    }
}
