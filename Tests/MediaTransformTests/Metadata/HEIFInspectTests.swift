import Testing
@testable import MediaTransform

@Suite struct HEIFInspectTests {
    typealias B = ImageBytes

    func detail(_ bytes: [UInt8]) -> String? { StripRefusal.detail(bytes) }

    @Test func withoutMetadataItemsUnchanged() throws {
        let avif = B.heif(items: [B.infe(id: 1, type: "av01")])
        #expect(try MetadataStripper.strip(avif) == StrippedImage(bytes: avif, removed: [], orientation: nil))
        let noMeta = B.box("ftyp", B.ascii("avif") + B.u32be(0) + B.ascii("avifmif1")) + B.box("mdat", [1])
        #expect(try MetadataStripper.strip(noMeta) == StrippedImage(bytes: noMeta, removed: [], orientation: nil))
        // A mime item that is not XMP is refused too (its payload cannot be judged).
    }

    @Test func exifAndXMPItemsAreRefused() {
        let exif = B.heif(items: [B.infe(id: 1, type: "av01"), B.infe(id: 2, type: "Exif")])
        #expect(detail(exif) == "AVIF: the file carries metadata items Exif, which cannot be removed losslessly")
        let both = B.heif(items: [B.infe(id: 1, type: "av01"), B.infe(id: 2, type: "Exif"),
                                  B.infe(id: 3, type: "mime", contentType: "application/rdf+xml")])
        #expect(detail(both) == "AVIF: the file carries metadata items Exif, XMP (application/rdf+xml), which cannot be removed losslessly")
        let text = B.heif(items: [B.infe(id: 1, type: "av01"), B.infe(id: 2, type: "mime", contentType: "text/plain")])
        #expect(detail(text) == "AVIF: the file carries metadata items mime (text/plain), which cannot be removed losslessly")
        let unnamed = B.heif(items: [B.infe(id: 2, type: "mime")])
        #expect(detail(unnamed) == "AVIF: the file carries metadata items mime (no content type), which cannot be removed losslessly")
    }

    @Test func heicIsNamedHEIF() {
        let heic = B.heif(brand: "heic", compatible: ["mif1", "heic"], items: [B.infe(id: 1, type: "hvc1"), B.infe(id: 2, type: "Exif")])
        #expect(detail(heic) == "HEIF: the file carries metadata items Exif, which cannot be removed losslessly")
        // avif as a compatible brand only.
        let compatible = B.heif(brand: "mif1", compatible: ["mif1", "avif"], items: [B.infe(id: 2, type: "Exif")])
        #expect(detail(compatible) == "AVIF: the file carries metadata items Exif, which cannot be removed losslessly")
    }

    @Test func otherBoxLayouts() {
        let ftyp = B.box("ftyp", B.ascii("avif") + B.u32be(0) + B.ascii("avif"))
        // iinf version 1 (32-bit entry count), infe version 3 (32-bit item_ID).
        let infe3 = B.fullBox("infe", version: 3, B.u32be(7) + B.u16be(0) + B.ascii("Exif") + [0])
        let iinf1 = B.fullBox("iinf", version: 1, B.u32be(1) + infe3)
        #expect(detail(ftyp + B.box("meta", [0, 0, 0, 0] + iinf1)) == "AVIF: the file carries metadata items Exif, which cannot be removed losslessly")
        // infe version 0: item_ID, protection index, name, content type.
        let infe0 = B.fullBox("infe", version: 0, B.u16be(1) + B.u16be(0) + B.ascii("xmp") + [0] + B.ascii("application/rdf+xml") + [0])
        #expect(detail(ftyp + B.box("meta", [0, 0, 0, 0] + B.fullBox("iinf", version: 0, B.u16be(1) + infe0)))
            == "AVIF: the file carries metadata items XMP (application/rdf+xml), which cannot be removed losslessly")
        // A 64-bit largesize mdat and a size-0 (to the end) last box.
        let large = B.u32be(1) + B.ascii("mdat") + [0, 0, 0, 0, 0, 0, 0, 20] + [1, 2, 3, 4]
        let toEnd = B.u32be(0) + B.ascii("free") + [9, 9]
        let file = ftyp + large + toEnd
        #expect(detail(file) == nil)
    }

    @Test func malformedBoxesAreRefused() {
        let ftyp = B.box("ftyp", B.ascii("avif") + B.u32be(0) + B.ascii("avif"))
        #expect(detail(ftyp + B.u32be(100) + B.ascii("meta")) == "AVIF: box 'meta' at offset 20 is 100 bytes long, outside its container (8…8 bytes)")
        #expect(detail(ftyp + B.u32be(4) + B.ascii("free")) == "AVIF: box 'free' at offset 20 is 4 bytes long, outside its container (8…8 bytes)")
        #expect(detail(ftyp + [0, 0, 0]) == "AVIF: 3 bytes at offset 20 are too few for a box header")
        #expect(detail(ftyp + B.u32be(1) + B.ascii("mdat") + [0xFF, 0, 0, 0, 0, 0, 0, 0]) == "AVIF: box 'mdat' at offset 20 has an unreadable 64-bit size")
        #expect(detail(ftyp + B.box("meta", [0, 0])) == "AVIF: box 'meta' at offset 20 is too short for its version and flags")
        #expect(detail(ftyp + B.box("meta", [0, 0, 0, 0] + B.fullBox("iinf", version: 0, [0]))) == "AVIF: box 'iinf' at offset 32 is too short for its entry count")
        #expect(detail(ftyp + B.box("meta", [0, 0, 0, 0] + B.fullBox("iinf", version: 0, B.u16be(1) + B.fullBox("infe", version: 2, [0, 1]))))
            == "AVIF: box 'infe' at offset 46 is too short for its item type")
        #expect(detail(B.u32be(8) + B.ascii("ftyp") + B.box("meta", [])) == "HEIF: box 'meta' at offset 8 is too short for its version and flags")
    }
}
