// swift-tools-version:6.0
// libFuzzer targets for mediactl's parsers. Built and run by Fuzz/run with -sanitize=fuzzer,address;
// kept out of the main package so that a plain `swift build` there never links libFuzzer.
import PackageDescription

let package = Package(
    name: "mediactl-fuzz",
    dependencies: [.package(name: "mediactl", path: "..")],
    targets: [
        .executableTarget(name: "FuzzFieldList", dependencies: [.product(name: "HTTPCaching", package: "mediactl"),
                                                            .product(name: "MediaCore", package: "mediactl")]),
        .executableTarget(name: "FuzzCacheControl", dependencies: [.product(name: "HTTPCaching", package: "mediactl"),
                                                            .product(name: "MediaCore", package: "mediactl")]),
        .executableTarget(name: "FuzzTargetedCacheControl", dependencies: [.product(name: "HTTPCaching", package: "mediactl"),
                                                            .product(name: "MediaCore", package: "mediactl")]),
        .executableTarget(name: "FuzzHTTPDate", dependencies: [.product(name: "MediaCore", package: "mediactl")]),
        .executableTarget(name: "FuzzRequestParser", dependencies: [.product(name: "HTTPServer", package: "mediactl"),
                                                                .product(name: "MediaCore", package: "mediactl")]),
        .executableTarget(name: "FuzzPolicyLoader", dependencies: [.product(name: "MediaPolicy", package: "mediactl")]),
        .executableTarget(name: "FuzzVariantQuery", dependencies: [.product(name: "MediaTransform", package: "mediactl")]),
        .executableTarget(name: "FuzzMetadataStripper", dependencies: [.product(name: "MediaTransform", package: "mediactl")]),
    ],
    swiftLanguageModes: [.v6]
)
