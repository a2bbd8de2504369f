// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A directory laid out the way the kubelet lays out a ConfigMap volume, and updated the way it updates one:
///
///     schemas/
///       ..2026_11_27_13_00_00.000000001/   the files of one version (a real directory)
///       ..data -> ..2026_11_27_13_00_00.000000001
///       user.json -> ..data/user.json       what the container sees: symlinks through ..data
///
/// `publish` writes a new timestamped directory, points a `..data_tmp` symlink at it, renames that over `..data`
/// (the atomic swap: a reader sees the old set or the new one), adds or removes the visible symlinks, then removes
/// the old directory.
struct ConfigMapVolume {
    let directory: URL
    private var generation = 0
    private var current: String?
    private var visible: Set<String> = []

    init(at directory: URL, files: [String: String]) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try publish(files)
    }

    mutating func publish(_ files: [String: String]) throws {
        generation += 1
        let version = "..2026_11_27_13_00_00." + String(format: "%09d", generation)
        let versionURL = directory.appendingPathComponent(version)
        try FileManager.default.createDirectory(at: versionURL, withIntermediateDirectories: false)
        for (name, text) in files { try Data(text.utf8).write(to: versionURL.appendingPathComponent(name)) }
        let temporary = directory.appendingPathComponent("..data_tmp").path
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: version)
        guard rename(temporary, directory.appendingPathComponent("..data").path) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
        for name in Set(files.keys).subtracting(visible) {
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent(name).path,
                withDestinationPath: "..data/" + name)
        }
        for name in visible.subtracting(files.keys) {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        visible = Set(files.keys)
        if let current { try FileManager.default.removeItem(at: directory.appendingPathComponent(current)) }
        current = version
    }
}
