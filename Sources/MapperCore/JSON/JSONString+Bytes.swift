// SPDX-License-Identifier: Apache-2.0

extension [UInt8] {
    /// Appends `text` as a canonical JSON string: quoted, escaping only `"`, `\` and U+0000–U+001F
    /// (docs/semantics.md, "Writing the output"), the same bytes as every conversion output. The server writes its
    /// error bodies and log lines with it.
    package mutating func appendJSONString(_ text: String) { JSONValue.writeString(text, into: &self) }
}
