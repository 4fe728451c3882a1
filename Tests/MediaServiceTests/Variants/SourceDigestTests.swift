import Foundation
import HTTPCaching
import MediaCore
import MediaCrypto
@testable import MediaService
import MediaTestSupport
import Testing

/// A source on a tier with variants carries its body's SHA-256 in its stored head, computed once when it is stored;
/// a variant miss reads it instead of hashing the source again (docs/variants.md, "Pay for the source once").
@Suite struct SourceDigestTests {
    @Test func theStoredSourceCarriesItsDigestAndVariantsReadIt() async throws {
        let harness = try VariantHarness.make()
        defer { Task { await harness.close() } }
        let hubble = try Fixtures.bytes("large/hubble-1000.jpg")
        #expect(await harness.get("/large/hubble-1000.jpg").status == 200)
        let runtime = try #require(harness.service.runtimes["public"])
        let key = try #require(runtime.disk?.inventory().first?.key)
        var entry = try #require(runtime.disk?.entry(for: key))
        var head = try #require(StoredHead.decode(entry.metadata.head))
        #expect(head.bodyDigest == SHA256.hash(hubble).hex)
        // A digest that is not the body's own shows that a variant miss reads the stored one, never rehashes.
        head.bodyDigest = String(repeating: "0", count: 64)
        entry.metadata.head = head.encoded()
        let disk = try #require(runtime.disk)
        try runtime.store(entry, in: disk, for: key, recordingFirst: {})
        let variant = await harness.get("/large/hubble-1000.jpg?w=144")
        #expect(variant.status == 200)
        let variantKey = try #require(runtime.disk?.inventory().map(\.key).first { $0 != key })
        let variantEntry = try #require(runtime.disk?.entry(for: variantKey))
        let variantHead = try #require(StoredHead.decode(variantEntry.metadata.head))
        #expect(variantHead.sourceDigest == String(repeating: "0", count: 64))
        #expect(variantHead.bodyDigest == nil)
        // Tiers without variants pay nothing.
        #expect(await harness.get("/one-time/horse.jpg").status == 200)
    }
}
