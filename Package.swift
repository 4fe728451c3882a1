// swift-tools-version:6.0
// mediactl: a privacy-tiered, authenticated media service. Module DAG: docs/architecture.md.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "mediactl",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mediactl", targets: ["mediactl"]),
        .executable(name: "mediabench", targets: ["mediabench"]),
        .library(name: "MediaCore", targets: ["MediaCore"]),
        .library(name: "HTTPCaching", targets: ["HTTPCaching"]),
        .library(name: "MediaCrypto", targets: ["MediaCrypto"]),
        .library(name: "MediaStorage", targets: ["MediaStorage"]),
        .library(name: "MediaSigning", targets: ["MediaSigning"]),
        .library(name: "MediaPolicy", targets: ["MediaPolicy"]),
        .library(name: "MediaAudit", targets: ["MediaAudit"]),
        .library(name: "MediaAuditReports", targets: ["MediaAuditReports"]),
        .library(name: "MediaTransform", targets: ["MediaTransform"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "MediaOrigin", targets: ["MediaOrigin"]),
        .library(name: "MediaService", targets: ["MediaService"]),
        .library(name: "MediaCurl", targets: ["MediaCurl"]),
        .library(name: "MediaServer", targets: ["MediaServer"]),
        .library(name: "MediaCTL", targets: ["MediaCTL"]),
        .library(name: "MediaTestSupport", targets: ["MediaTestSupport"]),
    ],
    targets: [
        // The shared vocabulary every module may use (a leaf: no dependencies): bytes (hex, CRC-32, bounds-checked
        // reads), image formats with their one sniffer, storage classes, calendar arithmetic, JSON strings, HTTP
        // reason phrases and RFC 9457 problem details.
        .target(name: "MediaCore", swiftSettings: strict),
        // Pure RFC 9111: no I/O, no wall clock.
        .target(name: "HTTPCaching", dependencies: ["MediaCore"], swiftSettings: strict),
        // OpenSSL (libssl-dev) through a shim header; only MediaCrypto imports it.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "MediaCrypto", dependencies: ["MediaCore", "COpenSSL"], swiftSettings: strict),
        .target(name: "MediaStorage", dependencies: ["MediaCore", "MediaCrypto"], swiftSettings: strict),
        // Signed capability URLs: the signing string, the verifier, keys files, and the signer BFFs use.
        .target(name: "MediaSigning", dependencies: ["MediaCore", "MediaCrypto"], swiftSettings: strict),
        .target(name: "MediaPolicy", dependencies: ["MediaCore", "HTTPCaching"], swiftSettings: strict),
        .target(name: "MediaAudit", dependencies: ["MediaCore", "MediaCrypto"], swiftSettings: strict),
        // The audit report's JUnit XML and HTML renderings (with their SVG chart and XML escaping) for
        // `mediactl audit --junit/--html`; the text and JSON reports stay in MediaAudit.
        .target(name: "MediaAuditReports", dependencies: ["MediaCore", "MediaAudit"], swiftSettings: strict),
        // libvips (libvips-dev) through a shim header; only MediaTransform imports it. The library is opened with dlopen
        // on the first transform (Sources/CVips/shim.h): its headers are read with GLib's flags (`pkg-config glib-2.0`;
        // vips' own would link libvips and the ~90 libraries it needs into every process).
        .systemLibrary(name: "CVips", pkgConfig: "glib-2.0", providers: [.apt(["libvips-dev"])]),
        .target(name: "MediaTransform", dependencies: ["MediaCore", "CVips"], swiftSettings: strict),
        // epoll(7), eventfd(2) and mallopt(3), which the Glibc module does not export; only HTTPServer imports it.
        .systemLibrary(name: "CHTTPServerLinux"),
        .target(name: "HTTPServer", dependencies: ["MediaCore", "CHTTPServerLinux"], swiftSettings: strict),
        // The origin vocabulary: OriginFetching and its request, response, error and interim response, and the
        // access log's OriginContact. A leaf the transport (MediaCurl) and the pipeline share.
        .target(name: "MediaOrigin", dependencies: ["MediaCore"], swiftSettings: strict),
        // The pipeline; it reaches origins through MediaOrigin's OriginFetching only (the transport, MediaCurl, sits beside).
        .target(
            name: "MediaService",
            dependencies: ["MediaCore", "HTTPCaching", "MediaCrypto", "MediaStorage", "MediaSigning", "MediaPolicy",
                           "MediaAudit", "MediaTransform", "MediaOrigin"],
            swiftSettings: strict, plugins: ["BuildCommitPlugin"]),
        // Stamps the commit of the checkout into MediaService before each build (mediactl_build_info).
        .plugin(name: "BuildCommitPlugin", capability: .buildTool()),
        // libcurl's multi interface, loaded with dlopen at run time (no curl headers or -lcurl at
        // build time); only MediaCurl imports it.
        .systemLibrary(name: "CCurl"),
        // The origin transport: CurlOriginFetcher (MediaService's OriginFetching over libcurl), DefaultOriginFetcher.
        .target(name: "MediaCurl", dependencies: ["MediaCore", "HTTPCaching", "MediaOrigin", "CCurl"], swiftSettings: strict),
        // The service over HTTP: the public and admin handlers, the access log, signals, and MediaServer.
        .target(
            name: "MediaServer",
            dependencies: ["MediaCore", "HTTPCaching", "MediaCrypto", "MediaPolicy", "MediaAudit", "MediaSigning", "MediaService", "HTTPServer"],
            swiftSettings: strict),
        .target(
            name: "MediaCTL",
            dependencies: ["MediaCore", "HTTPCaching", "MediaCrypto", "MediaStorage", "MediaSigning", "MediaPolicy",
                           "MediaAudit", "MediaAuditReports", "MediaTransform", "MediaService", "MediaCurl", "HTTPServer",
                           "MediaServer"],
            resources: [.copy("Resources/samples")],
            swiftSettings: strict),
        .executableTarget(name: "mediactl", dependencies: ["MediaCTL"], swiftSettings: strict),
        // Test doubles shared by the test targets and mediabench (never linked into mediactl).
        .target(name: "MediaTestSupport", dependencies: ["MediaService", "MediaAudit", "MediaPolicy", "HTTPCaching"],
                swiftSettings: strict),
        .executableTarget(
            name: "mediabench",
            dependencies: ["MediaCore", "HTTPCaching", "MediaCrypto", "MediaStorage", "MediaPolicy", "MediaAudit",
                           "MediaService", "MediaCurl", "MediaSigning", "HTTPServer", "MediaTestSupport"],
            swiftSettings: strict),

        .testTarget(name: "MediaCoreTests", dependencies: ["MediaCore"], swiftSettings: strict),
        .testTarget(name: "HTTPCachingTests", dependencies: ["MediaCore", "HTTPCaching"], swiftSettings: strict),
        .testTarget(name: "MediaCryptoTests", dependencies: ["MediaCore", "MediaCrypto"], swiftSettings: strict),
        .testTarget(name: "MediaSigningTests", dependencies: ["MediaSigning", "MediaCrypto"], swiftSettings: strict),
        .testTarget(name: "MediaStorageTests", dependencies: ["MediaCore", "MediaStorage", "MediaCrypto"], swiftSettings: strict),
        .testTarget(name: "MediaPolicyTests", dependencies: ["MediaCore", "MediaPolicy", "HTTPCaching", "MediaTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "MediaAuditTests", dependencies: ["MediaCore", "MediaAudit", "MediaAuditReports", "MediaCrypto", "MediaTestSupport"], swiftSettings: strict),
        .testTarget(name: "MediaTransformTests", dependencies: ["MediaCore", "MediaTransform", "MediaTestSupport"], swiftSettings: strict),
        .testTarget(name: "HTTPServerTests", dependencies: ["MediaCore", "HTTPServer"], swiftSettings: strict),
        .testTarget(
            name: "MediaServiceTests",
            dependencies: ["MediaCore", "MediaTestSupport", "MediaService", "MediaCurl", "HTTPCaching", "MediaCrypto", "MediaStorage",
                           "MediaPolicy", "MediaAudit", "MediaTransform", "MediaSigning"],
            swiftSettings: strict),
        // The libcurl transport against real sockets (scripted origins, a keep-alive origin) and the fetcher contract.
        .testTarget(
            name: "MediaCurlTests",
            dependencies: ["MediaCore", "MediaCurl", "MediaService", "MediaTestSupport", "HTTPCaching"],
            swiftSettings: strict),
        .testTarget(
            name: "MediaServerTests",
            dependencies: ["MediaServer", "HTTPServer", "MediaPolicy", "MediaService", "MediaStorage", "MediaAudit", "MediaCore", "MediaCrypto", "HTTPCaching", "MediaTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "MediaCTLTests",
            dependencies: ["MediaCore", "MediaCTL", "MediaServer", "MediaCurl", "MediaAuditReports", "MediaTransform", "MediaTestSupport"],
            swiftSettings: strict),
        // Drives the built `mediactl` and a real nginx origin over real sockets.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["MediaCore", "MediaCTL", "MediaService", "MediaCurl", "MediaAudit", "MediaPolicy", "HTTPCaching",
                           "MediaCrypto", "MediaSigning", "MediaTestSupport"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
