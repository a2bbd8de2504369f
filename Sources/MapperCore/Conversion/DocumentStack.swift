// SPDX-License-Identifier: Apache-2.0

/// The JSON documents one conversion reads from: the request body (document 0) and any objects rebuilt by
/// `willTransform` (documents 1…), each a byte buffer with its tape.
///
/// Rebuilt documents own copies of their bytes and tokens so their addresses stay fixed while the conversion runs.
struct DocumentStack {
    /// Plain pointers only, so reading a document copies no references.
    struct Document {
        let bytes: UnsafeRawBufferPointer
        let tokens: UnsafeBufferPointer<JSONToken>
    }

    /// Document 0, kept apart so that a conversion without `willTransform` allocates nothing here.
    private let input: Document
    /// Documents 1…, once there is one (a conversion without `willTransform` then holds only a nil reference).
    private var rebuilt: CopyOnWriteBox<Rebuilt>?

    /// Documents 1…, with per document the input pointers of values that came from elsewhere (renamed keys,
    /// injected defaults, by token) and the keys that repeated in the object it was rebuilt from.
    private struct Rebuilt {
        var documents: [Document] = []
        var origins: [[Int: String]] = []
        var merged: [[(key: [UInt8], pointer: String)]] = []
        var owned: [OwnedDocument] = []
    }

    init(input bytes: UnsafeRawBufferPointer, tokens: UnsafeBufferPointer<JSONToken>) {
        input = Document(bytes: bytes, tokens: tokens)
    }

    subscript(_ index: Int) -> Document { index == 0 ? input : rebuilt!.value.documents[index - 1] }

    /// The input pointer of the value at `token`, when it came from elsewhere (only rebuilt documents have any).
    /// Inlined: every member the converter enters asks, and for the input itself the answer is a comparison.
    @inline(__always)
    func origin(_ document: Int, _ token: Int) -> String? {
        document == 0 ? nil : rebuilt!.value.origins[document - 1][token]
    }

    /// The keys that repeated in the object `document` was rebuilt from (none for the input itself).
    func mergedDuplicates(_ document: Int) -> [(key: [UInt8], pointer: String)] {
        document == 0 ? [] : rebuilt!.value.merged[document - 1]
    }

    /// Adds a rebuilt document; returns its index.
    mutating func add(
        bytes: [UInt8], tape: JSONTape, origins: [Int: String],
        mergedDuplicates: [(key: [UInt8], pointer: String)]
    ) -> Int {
        let rebuilt = self.rebuilt.writableBox { Rebuilt() }
        let document = OwnedDocument(bytes: bytes, tokens: tape.tokens)
        rebuilt.value.owned.append(document)
        rebuilt.value.documents.append(
            Document(
                bytes: UnsafeRawBufferPointer(rebasing: document.bytes[0..<bytes.count]),
                tokens: UnsafeBufferPointer(rebasing: document.tokens[0..<tape.tokens.count])))
        rebuilt.value.origins.append(origins)
        rebuilt.value.merged.append(mergedDuplicates)
        return rebuilt.value.documents.count
    }

    /// Forgets every rebuilt document (their memory is freed once nothing refers to it).
    mutating func removeRebuilt() {
        if rebuilt != nil { rebuilt = nil }
    }

    func decodedKey(_ document: Int, _ token: Int) -> [UInt8] {
        let document = self[document]
        return JSONStrings.decoded(document.tokens[token], in: document.bytes)
    }
}

/// Heap copies of a rebuilt document, freed when the conversion ends (or the next batch element starts).
private final class OwnedDocument {
    let bytes: UnsafeMutableRawBufferPointer
    let tokens: UnsafeMutableBufferPointer<JSONToken>

    init(bytes source: [UInt8], tokens source2: [JSONToken]) {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 8)
        source.withUnsafeBytes { bytes.copyMemory(from: $0) }
        let tokens = UnsafeMutableBufferPointer<JSONToken>.allocate(capacity: max(source2.count, 1))
        _ = tokens.initialize(from: source2)
        self.bytes = bytes
        self.tokens = tokens
    }

    deinit {
        bytes.deallocate()
        tokens.deallocate()
    }
}

/// A value in one of the documents.
struct ValueRef: Equatable {
    var document: Int
    var index: Int
}
