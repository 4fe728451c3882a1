import Foundation
import HTTPCaching
import MediaCore
import MediaPolicy
import MediaService
import MediaTestSupport

/// A `MediaService` for the variants suite: the route `large` mounts `/large/` on
/// `http://origin.test/large/` in the tier `public`, which declares the default policy's variants
/// (`Policies/default.json`: widths 72…1152, JPEG/WebP/AVIF/PNG, `maxDpr` 3, quality 80), with storage
/// class `storage` and a memory budget of `memoryBytes` (default 512 MiB: nothing measured is evicted).
/// The origin is a ``CountingOriginFetcher`` answering the two large corpus images; writes are not
/// synchronised (`synchronizesWrites: false`, as the other service benchmarks run).
final class VariantFixture: BenchServiceFixture {
    let service: MediaService
    let origin: CountingOriginFetcher
    let stateDirectory: String

    static let originBase = "http://origin.test/large/"

    init(sources: [(name: String, bytes: [UInt8])], storage: String, memoryBytes: Int = 512 << 20) throws {
        stateDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mediabench-variants-\(getpid())-\(UUID().uuidString)").path
        let json = """
        { "tiers": {
            "public": { \(Self.publicTier(storage: storage, memoryBytes: memoryBytes)),
                        "variants": { "widths": [72, 144, 288, 576, 1152], "formats": ["jpeg", "webp", "avif", "png"],
                                      "maxDpr": 3, "quality": 80 } } },
          "routes": [ { "name": "large", "mount": "/large/", "origin": "\(Self.originBase)", "tier": "public" } ] }
        """
        let policies = try PolicyLoader().load(sources: [.init(name: "Policies/bench-variants.json", text: json)])
        origin = CountingOriginFetcher()
        for source in sources {
            origin.setReply(.init(status: 200, fields: ServiceFixture.originFields(eTag: "\"large-1\""), body: source.bytes),
                            for: Self.originBase + source.name)
        }
        service = try MediaService(policies: policies, fetcher: origin, configuration: .init(
            stateDirectory: stateDirectory, synchronizesWrites: false))
    }

}
