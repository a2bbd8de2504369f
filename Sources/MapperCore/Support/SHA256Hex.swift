// SPDX-License-Identifier: Apache-2.0

/// SHA-256 for the server's ETags.
public enum SHA256Hex {
    /// The lowercase hex SHA-256 of `bytes`.
    public static func of(_ bytes: [UInt8]) -> String { SHA256.hexDigest(bytes) }
}
