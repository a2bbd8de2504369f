// SPDX-License-Identifier: Apache-2.0

// Two fingerprints of a schema set (docs/operations.md, "Schema hot reload"):
//
// - `RegistrySnapshot.schemaSet` names what a replica serves: the first 32 lowercase hex digits of the SHA-256
//   over the effective registry's models sorted by name, each as its name, a NUL byte and its canonical bytes.
//   Versions, sources and file names do not enter, so replicas that serve the same models agree whatever order
//   they loaded them in, and however the models got there (files, registry writes).
//
//       User ‖ 0x00 ‖ {"name":"User",…} ‖ Book ‖ 0x00 ‖ …     sorted: Book first
//
// - `SchemaFile.fingerprint(of:)` names what a schema directory holds, so a poll can tell a change without
//   compiling anything: the SHA-256 over the files sorted by name, each as its name, a NUL byte, its length as
//   eight big-endian bytes and its bytes (the length keeps a byte moved across a file boundary from hashing alike).

extension RegistrySnapshot {
    /// `schemaSet`: 32 lowercase hex digits of the SHA-256 over the models sorted by name, each as name ‖ NUL ‖
    /// canonical bytes. Hashes every document: callers cache it per snapshot.
    package var schemaSet: String {
        var hasher = SHA256()
        for name in modelNames {
            hasher.update(Array(name.utf8) + [0])
            hasher.update(entries[name]!.document)
        }
        return String(SHA256.hex(hasher.finalize()).prefix(32))
    }
}

extension SchemaFile {
    /// The content fingerprint of a set of schema files (their names and bytes, in name order); equal sets of
    /// files give equal fingerprints whatever order they are listed in.
    package static func fingerprint(of files: [SchemaFile]) -> [UInt8] {
        var hasher = SHA256()
        for file in files.sorted(by: { $0.name < $1.name }) {
            var length = UInt64(file.bytes.count).bigEndian
            hasher.update(Array(file.name.utf8) + [0])
            withUnsafeBytes(of: &length) { hasher.update($0) }
            hasher.update(file.bytes)
        }
        return hasher.finalize()
    }
}
