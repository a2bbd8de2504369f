// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import MapperCore
import Testing

@testable import TransformServer

/// A registry overlay that cannot be written fails with a `FileError` naming the step, the path and the errno.
@Suite struct FileErrorTests {
    @Test func describesTheStepThePathAndTheErrno() {
        let error = FileError(operation: .rename, path: "/srv/schemas/.registry.json.tmp", errno: EACCES)
        #expect(
            error.description
                == "rename /srv/schemas/.registry.json.tmp failed: Permission denied (errno \(EACCES)).")
    }

    @Test func writingIntoAMissingDirectoryFailsAtOpeningTheTemporaryFile() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("file-error-\(UInt64.random(in: .min ... .max))").path
        do throws(FileError) {
            try RegistryOverlayFile.write(RegistryOverlay(models: [], deleted: [], lifecycles: [:]), in: directory)
            Issue.record("writing into \(directory), which does not exist, succeeded")
        } catch {
            #expect(error == FileError(operation: .open, path: directory + "/.registry.json.tmp", errno: ENOENT))
        }
    }
}
