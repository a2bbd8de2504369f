// swift-tools-version:6.3
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

/// One place for the language settings every target shares.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "TransformServer",
    products: [
        .library(name: "MapperCore", targets: ["MapperCore"]),
        .executable(name: "TransformServer", targets: ["TransformServer"]),
        .executable(name: "TransformBench", targets: ["TransformBench"]),
    ],
    targets: [
        .target(name: "MapperCore", dependencies: ["CSHA256"], swiftSettings: swiftSettings),
        // C: the request parser, GNU socket calls, the system zlib and libcurl, and SHA-256 on the CPU's SHA instructions.
        .target(name: "CHTTPParser"),
        .target(name: "CSocket"),
        .target(name: "CSHA256"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The system libcurl, for the etcd registry store (docs/cluster.md).
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .executableTarget(
            name: "TransformServer",
            dependencies: ["MapperCore", "CHTTPParser", "CSocket", "CZlib", "CCurl"],
            resources: [],
            swiftSettings: swiftSettings
        ),
        // MapperCore timed without HTTP (docs/performance.md).
        .executableTarget(name: "TransformBench", dependencies: ["MapperCore"], swiftSettings: swiftSettings),
        .testTarget(name: "MapperCoreTests", dependencies: ["MapperCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CHTTPParserTests", dependencies: ["CHTTPParser"], exclude: ["Fuzz"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TransformServerTests",
            dependencies: ["TransformServer", "MapperCore"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)
