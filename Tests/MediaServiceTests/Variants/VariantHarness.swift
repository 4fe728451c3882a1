import Foundation
import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport

/// Policies and origin replies for the derived-image suites: the default tiers with `variants` (and
/// `metadata: strip` on avatar and private), routes `large` (public), `uploads` (avatar), `receipts` (private)
/// and `one-time` (no-store), each with its corpus images.
enum VariantHarness {
    static let variants = #"{ "widths": [72, 144, 288, 576, 1152], "formats": ["jpeg", "webp", "avif", "png"], "maxDpr": 3, "quality": 80 }"#

    static let policy = """
    { "tiers": {
        "public":  { "storage": "disk", "maxTTL": 31536000, "variants": \(variants),
                     "downstreamCacheControl": "public, max-age=31536000, immutable" },
        "avatar":  { "storage": "disk", "versionParameter": "v", "unversionedMaxTTL": 300, "maxTTL": 31536000,
                     "variants": \(variants), "metadata": "strip" },
        "private": { "storage": "encrypted-disk", "cache": "private", "credentials": "bearer-required",
                     "partition": "credential", "maxTTL": 600, "downstreamCacheControl": "private, no-store",
                     "variants": \(variants), "metadata": "strip" },
        "memory":  { "storage": "memory", "variants": \(variants) },
        "no-store":{ "storage": "none", "variants": \(variants) } },
      "routes": [
        { "name": "large",    "mount": "/large/",    "origin": "http://origin.test/large/",    "tier": "public" },
        { "name": "uploads",  "mount": "/uploads/",  "origin": "http://origin.test/uploads/",  "tier": "avatar" },
        { "name": "receipts", "mount": "/receipts/", "origin": "http://origin.test/receipts/", "tier": "private" },
        { "name": "scratch",  "mount": "/scratch/",  "origin": "http://origin.test/scratch/",  "tier": "memory" },
        { "name": "one-time", "mount": "/one-time/", "origin": "http://origin.test/one-time/", "tier": "no-store" } ] }
    """

    static let cacheable = HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=3600"), ("ETag", "\"src-1\"")])

    /// A harness whose origin serves the corpus images under their routes (receipts only to `Bearer t1`).
    static func make(transforms: TransformConfiguration = .init()) throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: policy, transforms: transforms)
        let origin = harness.origin
        let astronaut = try Fixtures.bytes("large/astronaut-4000.jpg")
        let hubble = try Fixtures.bytes("large/hubble-1000.jpg")
        let upload = try Fixtures.bytes("uploads/gps-orient6.jpg")
        let receipt = try Fixtures.bytes("receipts/r-7732.jpg")
        let horse = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        origin.setReply(.init(fields: cacheable, body: astronaut), for: "http://origin.test/large/astronaut-4000.jpg")
        origin.setReply(.init(fields: cacheable, body: hubble), for: "http://origin.test/large/hubble-1000.jpg")
        origin.setReply(.init(fields: cacheable, body: upload), for: "http://origin.test/uploads/gps-orient6.jpg")
        origin.setReply(.init(fields: cacheable, body: upload), for: "http://origin.test/uploads/gps-orient6.jpg?v=2")
        origin.setReply(.init(fields: cacheable, body: horse), for: "http://origin.test/scratch/horse.jpg")
        origin.setReply(.init(fields: cacheable, body: horse), for: "http://origin.test/one-time/horse.jpg")
        origin.setReply(.init(status: 403), for: "http://origin.test/receipts/r-7732.jpg")
        origin.setReply(.init(fields: cacheable, body: receipt), for: "http://origin.test/receipts/r-7732.jpg",
                        authorization: .value("Bearer t1"))
        return harness
    }

    /// Whether `haystack` holds `needle` anywhere (Foundation's `Data.range(of:)`, compiled optimised).
    static func contains(_ haystack: [UInt8], _ needle: some Collection<UInt8>) -> Bool {
        let needle = Array(needle)
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return Data(haystack).range(of: Data(needle)) != nil
    }

    /// Whether any of the 32-byte runs of `bytes` at multiples of 32 (and its last 32 bytes) appears in `haystack`.
    static func sharesARun(_ haystack: [UInt8], with bytes: [UInt8]) -> Bool {
        guard bytes.count >= 32 else { return false }
        var starts = Array(stride(from: 0, to: bytes.count - 32, by: 32))
        starts.append(bytes.count - 32)
        return starts.contains { contains(haystack, bytes[$0..<($0 + 32)]) }
    }

    /// The bytes of a JPEG from its first SOS marker (`FF DA`) to the end: the entropy-coded data.
    static func scanData(_ jpeg: [UInt8]) -> [UInt8]? {
        var index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            if marker == 0xDA { return Array(jpeg[index...]) }
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            index += 2 + length
        }
        return nil
    }
}
