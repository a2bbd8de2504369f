// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

/// Swift Codable doing TransformBench's work (scripts/bench-core.sh): a package of its own, so the main package
/// never builds it and it depends on nothing but Foundation.
let package = Package(
    name: "CodableBench",
    products: [
        .executable(name: "CodableBench", targets: ["CodableBench"])
    ],
    targets: [
        .executableTarget(
            name: "CodableBench",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
