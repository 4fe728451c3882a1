import Foundation
import HTTPCaching
import MediaCore
import MediaPolicy
import MediaService

/// A `MediaService` over a one-route policy and a temporary state directory, for the service suite.
///
/// The route `catalog` mounts `/catalog/` on `originBase` (default `http://origin.test/catalog/`)
/// in the tier `public`, whose storage class is `storage` (`memory`, `disk` or `encrypted-disk`),
/// with a memory budget of `memoryBytes` (default 512 MiB, so no measured entry is evicted).
/// The clock is the system clock, as served.
final class ServiceFixture: BenchServiceFixture {
    let service: MediaService
    let stateDirectory: String

    init(fetcher: any OriginFetching, storage: String, originBase: String = "http://origin.test/catalog/",
         memoryBytes: Int = 512 << 20, synchronizesWrites: Bool = true) throws {
        stateDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mediabench-service-\(getpid())-\(UUID().uuidString)").path
        let json = """
        { "tiers": {
            "public": { \(Self.publicTier(storage: storage, memoryBytes: memoryBytes)) } },
          "routes": [ { "name": "catalog", "mount": "/catalog/", "origin": "\(originBase)", "tier": "public" } ] }
        """
        let policies = try PolicyLoader().load(sources: [.init(name: "Policies/bench.json", text: json)])
        service = try MediaService(policies: policies, fetcher: fetcher, configuration: .init(
            stateDirectory: stateDirectory, synchronizesWrites: synchronizesWrites))
    }


    /// The 16 KB catalog JPEG the suite serves (`Tests/Fixtures/corpus/catalog/chelsea-5d40df37.jpg`, 16,092 bytes).
    static func catalogJPEG() throws -> [UInt8] {
        try corpusFile("catalog/chelsea-5d40df37.jpg")
    }

    /// A corpus file's bytes (`Tests/Fixtures/corpus/<relative>`).
    static func corpusFile(_ relative: String) throws -> [UInt8] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("Tests/Fixtures/corpus/" + relative).path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("cannot read \(path)")
        }
        return Array(data)
    }

    /// The origin's answer fields for a JPEG: public, one year, immutable, with validators (`eTag`, default the
    /// catalog image's).
    static func originFields(eTag: String = "\"5d40df37\"") -> HTTPFields {
        [
            (.cacheControl, "public, max-age=31536000, immutable"),
            (.contentType, "image/jpeg"),
            (.date, HTTPDate.format(Int64(Date().timeIntervalSince1970))),
            (.eTag, eTag),
            (.lastModified, "Sun, 06 Nov 1994 08:49:37 GMT"),
        ]
    }

    /// Client request fields as a browser-like image client sends them.
    static let clientFields: HTTPFields = [
        (.host, "127.0.0.1:8080"),
        (.userAgent, "mediabench/1"),
        (.accept, "image/avif,image/webp,image/*,*/*;q=0.8"),
        (.acceptEncoding, "gzip, deflate"),
    ]
}

/// A benchmark setup failure, with what went wrong.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
