import Foundation
import MediaService

/// A service over a temporary state directory that a benchmark makes, runs and closes.
protocol BenchServiceFixture: Sendable {
    var service: MediaService { get }
    var stateDirectory: String { get }
}

extension BenchServiceFixture {
    /// The members of the suites' public tier (no braces): `storage`, a year's TTL, the image types, `memoryBytes`.
    static func publicTier(storage: String, memoryBytes: Int) -> String {
        """
        "storage": "\(storage)", "cache": "shared", "credentials": "strip",
                        "maxTTL": 31536000, "maxObjectBytes": 10485760, "maxPixels": 50000000,
                        "memoryBytes": \(memoryBytes),
                        "contentTypes": ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"],
                        "downstreamCacheControl": "public, max-age=31536000, immutable"
        """
    }

    /// Stops the service and removes its state directory.
    func close() {
        let service = self.service
        ServiceBenchmarks.wait { await service.stop() }
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }
}
