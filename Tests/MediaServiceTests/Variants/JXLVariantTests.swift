import Foundation
import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
@testable import MediaTransform
import Testing

/// JPEG XL variants (docs/variants.md): `fmt=jxl` on a tier that declares it, negotiated from `Accept` in the calibrated
/// order (after AVIF up to 288 px, first from 576 px), validated like an origin's image, stored and audited; metadata stripped (a bare codestream has no
/// boxes to carry any).
@Suite struct JXLVariantTests {
    static let policy = """
    { "tiers": {
        "public": { "storage": "disk", "maxTTL": 31536000, "metadata": "strip",
                    "variants": { "widths": [72, 144, 288, 576], "formats": ["jpeg", "webp", "avif", "jxl"], "maxDpr": 2 } },
        "plain":  { "storage": "memory", "variants": { "widths": [144, 576], "formats": ["jpeg", "webp"] } } },
      "routes": [
        { "name": "uploads", "mount": "/uploads/", "origin": "http://origin.test/uploads/", "tier": "public" },
        { "name": "plain", "mount": "/plain/", "origin": "http://origin.test/uploads/", "tier": "plain" } ] }
    """
    /// Chromium 156's image `Accept`.
    static let chromiumAccept = "image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

    static func harness() throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: policy)
        harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=3600")]),
                                      body: try Fixtures.bytes("uploads/gps-orient6.jpg")),
                                for: "http://origin.test/uploads/gps-orient6.jpg")
        return harness
    }

    @Test func fmtJxlIsEncodedValidatedStoredAndStripped() async throws {
        #expect(VipsRuntime.canSaveJXL)
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        let first = await harness.get("/uploads/gps-orient6.jpg?w=144&fmt=jxl")
        #expect(first.status == 200)
        #expect(first.fields["Content-Type"] == "image/jxl")
        #expect(first.outcome.variant == "w=144,fit=inside,fmt=jxl,q=80")
        #expect(Array(first.body.prefix(2)) == [0xFF, 0x0A])
        let info = try ImageValidator().validate(first.body)
        #expect(info.format == .jxl)
        #expect(info.width == 144)
        #expect(first.fields["Mediactl-Image-Width"] == "144")
        #expect(first.fields["Mediactl-Image-Height"] == String(info.height))
        for marker in ["Exif", "GPS", "xml ", "http://ns.adobe.com"] {
            #expect(!VariantHarness.contains(first.body, Array(marker.utf8)), "\(marker)")
        }
        let again = await harness.get("/uploads/gps-orient6.jpg?w=144&fmt=jxl")
        #expect(again.fields[.cacheStatus]?.hasPrefix("mediactl; hit") == true, "\(first.fields[.cacheStatus] ?? "") / \(again.fields[.cacheStatus] ?? "")")
        #expect(again.body == first.body)
        let stored = try harness.auditRecords().map(\.entry).filter { $0.event == .store && $0.transform != nil }
        #expect(stored.map { $0.transform?.rawValue } == ["w=144,fit=inside,fmt=jxl,q=80"])
    }

    @Test func autoServesJxlWhereItRanksFirstAndAcceptNamesIt() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        let cases: [(query: String, accept: String, type: String)] = [
            ("w=576", Self.chromiumAccept, "image/jxl"),
            ("w=144", Self.chromiumAccept, "image/avif"),
            ("w=144", "image/jxl,image/webp", "image/jxl"),
            ("w=576", "image/avif,image/webp,*/*", "image/webp"),
            ("w=576", "image/jxl;q=0,image/webp", "image/webp"),
            ("w=144", "image/jxl;q=0,image/webp", "image/jpeg"),
            ("w=576", "image/*,*/*;q=0.8", "image/jpeg"),
        ]
        for (query, accept, type) in cases {
            let answer = await harness.get("/uploads/gps-orient6.jpg?\(query)&fmt=auto", [("Accept", accept)])
            #expect(answer.status == 200, "\(query) \(accept)")
            #expect(answer.fields["Content-Type"] == type, "\(query) \(accept)")
            #expect(answer.fields["Vary"] == "Accept", "\(query) \(accept)")
        }
        // A tier that does not declare jxl never serves it, and refuses fmt=jxl by name.
        #expect(await harness.get("/plain/gps-orient6.jpg?w=576&fmt=auto", [("Accept", Self.chromiumAccept)])
            .fields["Content-Type"] == "image/webp")
        let refused = await harness.get("/plain/gps-orient6.jpg?w=144&fmt=jxl")
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains(#""detail":"fmt=jxl is not allowed: fmt must be one of jpeg, webp, auto""#))
    }

    @Test func negotiationAndAvailability() throws {
        let declared: [OutputFormat] = [.jpeg, .webp, .avif, .jxl]
        #expect(FormatNegotiation.choose(accept: Self.chromiumAccept, declared: declared, width: 1152, maxAVIFWidth: 576,
                                         avifAvailable: true, jxlAvailable: true) == .format(.jxl))
        #expect(FormatNegotiation.choose(accept: Self.chromiumAccept, declared: declared, width: 144, maxAVIFWidth: 576,
                                         avifAvailable: true, jxlAvailable: false) == .format(.avif))
        let declaration = VariantDeclaration(widths: [144], formats: [.jpeg, .jxl])
        #expect(throws: VariantError(detail: "fmt=jxl is not allowed: fmt must be one of jpeg, auto (JPEG XL encoding is unavailable)")) {
            try VariantQuery.parse("w=144&fmt=jxl", declaration: declaration, passThrough: [], accept: nil,
                                   avifAvailable: true, jxlAvailable: false)
        }
        #expect(try VariantQuery.parse("w=144&fmt=jxl", declaration: declaration, passThrough: [], accept: nil,
                                       avifAvailable: true, jxlAvailable: true)?.spec.keyText == "w=144,fit=inside,fmt=jxl,q=80")
    }
}
