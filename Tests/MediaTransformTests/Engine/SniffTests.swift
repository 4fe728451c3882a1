import MediaCore
import Testing
@testable import MediaTransform

/// Magic-byte sniffing and the AVIF item check (no libvips involved).
@Suite struct SniffTests {
    static func sniff(_ bytes: [UInt8]) -> SourceFormat? {
        bytes.withUnsafeBytes { SourceFormat.sniff($0) }
    }

    static func ftyp(_ brands: [String], items: [String]?) -> [UInt8] {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(body.count + 8)
            return [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + body
        }
        let ftypBody = Array(brands[0].utf8) + [0, 0, 0, 0] + brands.dropFirst().flatMap { Array($0.utf8) }
        var file = box("ftyp", ftypBody)
        if let items {
            let entries = items.enumerated().flatMap { index, type in
                box("infe", [2, 0, 0, 0, 0, UInt8(index + 1), 0, 0] + Array(type.utf8))
            }
            let iinf = box("iinf", [0, 0, 0, 0, 0, UInt8(items.count)] + entries)
            file += box("meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 24)) + iinf)
        }
        return file
    }

    @Test func magicBytes() {
        #expect(Self.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(Self.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(Self.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(Self.sniff(Array("GIF87a".utf8)) == .gif)
        #expect(Self.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(Self.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == nil)
        #expect(Self.sniff([0xFF, 0xD8]) == nil)
        #expect(Self.sniff([]) == nil)
        #expect(Self.sniff(Array("<?xml version=\"1.0\"?><svg/>".utf8)) == nil)
    }

    /// One sniffer (MediaCore's, the one the service validates with): this module only narrows it to what it decodes,
    /// so the two agree on every format both know and differ only where decoding does (HEIC, HEIF, non-AV1 AVIF).
    @Test func theServiceSnifferDecidesAndDecodingOnlyNarrowsIt() {
        let samples: [[UInt8]] = [
            [0xFF, 0xD8, 0xFF, 0xE0], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("GIF89a".utf8),
            Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), Self.ftyp(["avif", "mif1"], items: ["av01"]),
            Self.ftyp(["heic", "mif1"], items: ["hvc1"]), Self.ftyp(["mif1"], items: ["hvc1"]),
            Self.ftyp(["avif"], items: ["hvc1"]), Array("<svg/>".utf8),
        ]
        let service = samples.map { ImageSniffer.sniff($0)?.name ?? "-" }
        let decodable = samples.map { Self.sniff($0)?.rawValue ?? "-" }
        #expect(service == ["jpeg", "png", "gif", "webp", "avif", "heic", "heif", "avif", "-"])
        #expect(decodable == ["jpeg", "png", "gif", "webp", "avif", "-", "-", "-", "-"])
    }

    @Test func avifNeedsTheBrandAndAV1Items() {
        #expect(Self.sniff(Self.ftyp(["avif", "mif1", "miaf"], items: ["av01", "Exif"])) == .avif)
        #expect(Self.sniff(Self.ftyp(["mif1", "avif"], items: ["av01"])) == .avif)
        #expect(Self.sniff(Self.ftyp(["avif"], items: ["grid", "av01", "av01"])) == .avif)
        #expect(Self.sniff(Self.ftyp(["heic", "mif1", "heic"], items: ["hvc1"])) == nil)
        #expect(Self.sniff(Self.ftyp(["avif", "mif1"], items: ["hvc1"])) == nil)
        #expect(Self.sniff(Self.ftyp(["avif", "mif1"], items: ["av01", "hvc1"])) == nil)
        #expect(Self.sniff(Self.ftyp(["avif"], items: ["Exif"])) == nil)
        #expect(Self.sniff(Self.ftyp(["avif"], items: nil)) == nil)
        #expect(Self.sniff(Self.ftyp(["mif1", "heic"], items: ["av01"])) == nil)
    }

    @Test func avifItemTypesOfARealFile() {
        let types = EmbeddedFixtures.hevcBrandedAVIF.withUnsafeBytes { AVIFItems.itemTypes($0) }
        #expect(types == ["hvc1", "grid"] || types == ["grid", "hvc1"], "\(types ?? [])")
    }
}
