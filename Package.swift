// swift-tools-version:6.0
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
    ],
    targets: [
        .target(name: "MapperCore", swiftSettings: swiftSettings),
        .executableTarget(
            name: "TransformServer",
            dependencies: ["MapperCore"],
            resources: [],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "MapperCoreTests", dependencies: ["MapperCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TransformServerTests",
            dependencies: ["TransformServer", "MapperCore"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
