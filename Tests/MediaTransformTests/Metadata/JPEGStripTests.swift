import Testing
@testable import MediaTransform

@Suite struct JPEGStripTests {
    typealias B = ImageBytes

    /// The APP1 Exif segment carrying only Orientation, written out by hand.
    static func orientationSegment(littleEndian: Bool, _ orientation: UInt8) -> [UInt8] {
        [0xFF, 0xE1, 0x00, 0x22] + B.ascii("Exif") + [0, 0] + B.minimalTIFF(littleEndian: littleEndian, orientation: orientation)
    }

    @Test func gpsUploadKeepsOnlyItsOrientation() throws {
        let original = try Fixtures.bytes("uploads/gps-orient6.jpg")
        let stripped = try MetadataStripper.strip(original)
        #expect(stripped.removed == ["APP1 Exif"])
        #expect(stripped.orientation == 6)
        // The 316-byte camera EXIF became the 36-byte orientation segment, right after SOI and APP0 (18 bytes).
        #expect(stripped.bytes.count == 233_173)
        #expect(Array(stripped.bytes[0..<20]) == Array(original[0..<20]))
        #expect(Array(stripped.bytes[20..<56]) == Self.orientationSegment(littleEndian: false, 6))
        #expect(B.markersBeforeSOS(stripped.bytes) == [0xE0, 0xE1, 0xDB, 0xDB, 0xC0, 0xC4, 0xC4, 0xC4, 0xC4])
        #expect(stripped.bytes.occurrences(of: B.ascii("Exif") + [0, 0]) == 1)
        for text in ["SN-4417-2208", "2026:06:14 09:41:07", "Acme Optics", "Pocket 9"] {
            #expect(original.contains(bytes: B.ascii(text)), "\(text) is in the original")
            #expect(!stripped.bytes.contains(bytes: B.ascii(text)), "\(text) survived")
        }
        let sos = try #require(B.firstSOS(stripped.bytes))
        let originalSOS = try #require(B.firstSOS(original))
        #expect(!Array(stripped.bytes[..<sos]).contains(bytes: [0x88, 0x25]))  // GPS IFD pointer tag
        #expect(Array(original[..<originalSOS]).contains(bytes: [0x88, 0x25]))
        // From the first SOS to EOI, byte-identical (the original ends at its EOI).
        #expect(Array(stripped.bytes[sos...]) == Array(original[originalSOS...]))
        #expect(stripped.bytes.suffix(2) == [0xFF, 0xD9])
    }

    @Test(.enabled(if: Vips.available)) func gpsUploadStillDecodesToTheSamePixels() throws {
        let original = try Fixtures.bytes("uploads/gps-orient6.jpg")
        let stripped = try MetadataStripper.strip(original).bytes
        #expect(try Vips.average(stripped, suffix: "jpg") == "19.242299")
        #expect(try Vips.average(original, suffix: "jpg") == "19.242299")
        #expect(try Vips.header("orientation", stripped, suffix: "jpg") == "6")
        #expect(try Vips.header("width", stripped, suffix: "jpg") == "872")
    }

    @Test func cameraExifWithXMPAndICC() throws {
        let original = try Fixtures.bytes("catalog/hubble-b981f74f.jpg")
        let stripped = try MetadataStripper.strip(original)
        #expect(stripped.removed == ["APP12 Ducky", "APP1 Exif", "APP1 XMP"])
        #expect(stripped.orientation == 1)
        #expect(stripped.bytes.count == 25_613)
        // Orientation 1 needs no segment: only APP0, the ICC profile and the tables remain.
        #expect(B.markersBeforeSOS(stripped.bytes) == [0xE0, 0xE2, 0xDB, 0xDB, 0xC0, 0xC4, 0xC4, 0xC4, 0xC4])
        #expect(stripped.bytes.occurrences(of: B.ascii("ICC_PROFILE") + [0]) == 1)
        #expect(!stripped.bytes.contains(bytes: B.ascii("http://ns.adobe.com/xap/1.0/")))
        #expect(!stripped.bytes.contains(bytes: B.ascii("Exif") + [0, 0]))
    }

    @Test func commentsAreRemoved() throws {
        let rocket = try MetadataStripper.strip(try Fixtures.bytes("catalog/rocket-cfc075d1.jpg"))
        #expect(rocket.removed == ["COM"])
        #expect(rocket.orientation == nil)
        #expect(B.markersBeforeSOS(rocket.bytes) == [0xE0, 0xE2, 0xDB, 0xDB, 0xC0, 0xC4, 0xC4, 0xC4, 0xC4])
        #expect(!rocket.bytes.contains(bytes: B.ascii("cmp3.10.3.2Lq3")))
        let astronaut = try MetadataStripper.strip(try Fixtures.bytes("catalog/astronaut-4530ade2.jpg"))
        #expect(astronaut.removed == ["COM"])
        #expect(astronaut.bytes.count == 18_194 - 40)  // a 36-byte comment, its marker and length
    }

    @Test(arguments: ["catalog/camera-74877ec7.jpg", "catalog/chelsea-5d40df37.jpg", "catalog/coffee-237a7131.jpg",
                      "catalog/coins-1fea11f1.jpg", "catalog/horse-d29d871c.jpg", "catalog/motorcycle-f14d29f1.jpg",
                      "avatars/u1001.jpg", "avatars/u1001.next.jpg", "avatars/u1002.next.jpg",
                      "receipts/attachment-3301.jpg", "receipts/r-7732.jpg"])
    func withoutMetadataByteIdentical(path: String) throws {
        let original = try Fixtures.bytes(path)
        let stripped = try MetadataStripper.strip(original)
        #expect(stripped == StrippedImage(bytes: original, removed: [], orientation: nil))
    }

    /// camera-74877ec7.jpg: SOI, APP0 (18 bytes), then DQT.
    static func camera() throws -> [UInt8] { try Fixtures.bytes("catalog/camera-74877ec7.jpg") }

    @Test func everyKindOfAPPSegment() throws {
        let camera = try Self.camera()
        let icc = B.segment(0xE2, B.ascii("ICC_PROFILE") + [0, 1, 1] + [1, 2, 3])
        let adobe = B.segment(0xEE, B.ascii("Adobe") + [0, 100, 0, 0, 0, 0, 1])
        let inserted: [[UInt8]] = [
            B.segment(0xE1, B.ascii("http://ns.adobe.com/xap/1.0/") + [0] + B.ascii("<x:xmpmeta/>")),
            B.segment(0xE1, B.ascii("http://ns.adobe.com/xmp/extension/") + [0] + B.ascii("0123456789ABCDEF0123456789ABCDEF") + [0, 0, 0, 9, 0, 0, 0, 0] + B.ascii("<rdf:RDF>")),
            icc,
            B.segment(0xE2, B.ascii("MPF") + [0, 0x4D, 0x4D, 0, 0x2A]),
            B.segment(0xE2, B.ascii("FPXR") + [0, 0, 1]),
            B.segment(0xE3, B.ascii("Meta") + [0]),
            B.segment(0xEB, B.ascii("JP") + [0, 0]),
            B.segment(0xEC, B.ascii("Ducky") + [0, 1, 0, 4, 0, 0, 0, 80]),
            B.segment(0xED, B.ascii("Photoshop 3.0") + [0] + B.ascii("8BIM")),
            adobe,
            B.segment(0xEE, B.ascii("Other") + [0]),
            B.segment(0xEF, [1, 2, 3]),
            B.segment(0xFE, B.ascii("a comment")),
            B.segment(0xE1, B.ascii("unknown") + [0]),
            B.segment(0xE1, []),
        ]
        let stripped = try MetadataStripper.strip(B.insert(inserted.flatMap { $0 }, into: camera, at: 20))
        #expect(stripped.removed == ["APP1 XMP", "APP1 XMP extension", "APP2 MPF", "APP2 FlashPix", "APP3", "APP11",
                                     "APP12 Ducky", "APP13 Photoshop", "APP14", "APP15", "COM", "APP1", "APP1"])
        #expect(stripped.bytes == B.insert(icc + adobe, into: camera, at: 20))
        #expect(stripped.orientation == nil)
    }

    @Test func littleEndianExifKeepsItsByteOrder() throws {
        let camera = try Self.camera()
        let exif = B.exifSegment(B.cameraTIFF(littleEndian: true, orientation: 8))
        let stripped = try MetadataStripper.strip(B.insert(exif, into: camera, at: 20))
        #expect(stripped.removed == ["APP1 Exif"])
        #expect(stripped.orientation == 8)
        #expect(stripped.bytes == B.insert(Self.orientationSegment(littleEndian: true, 8), into: camera, at: 20))
    }

    @Test func orientationSegmentGoesAfterSOIAndTheAPP0Segments() throws {
        let camera = try Self.camera()
        let app0 = Array(camera[2..<20])
        let jfxx = B.segment(0xE0, B.ascii("JFXX") + [0, 0x13])
        let exif = B.exifSegment(B.cameraTIFF(littleEndian: false, orientation: 6))
        let segment = Self.orientationSegment(littleEndian: false, 6)
        let body = Array(camera[20...])
        // EXIF before APP0 (out of order): the new segment still follows APP0.
        #expect(try MetadataStripper.strip([0xFF, 0xD8] + exif + app0 + body).bytes == [0xFF, 0xD8] + app0 + segment + body)
        // After every APP0 that follows SOI.
        #expect(try MetadataStripper.strip([0xFF, 0xD8] + app0 + jfxx + exif + body).bytes == [0xFF, 0xD8] + app0 + jfxx + segment + body)
        // No APP0: right after SOI.
        #expect(try MetadataStripper.strip([0xFF, 0xD8] + exif + body).bytes == [0xFF, 0xD8] + segment + body)
    }

    @Test func orientationOneOrInvalidWritesNoSegment() throws {
        let camera = try Self.camera()
        for (orientation, expected) in [(1, 1), (0, nil), (9, nil), (65535, nil)] as [(Int, Int?)] {
            let exif = B.exifSegment(B.cameraTIFF(littleEndian: false, orientation: orientation))
            let stripped = try MetadataStripper.strip(B.insert(exif, into: camera, at: 20))
            #expect(stripped == StrippedImage(bytes: camera, removed: ["APP1 Exif"], orientation: expected), "\(orientation)")
        }
        // Orientation as LONG, or with count 2, is not the tag's form: not read.
        let long = B.exifSegment(B.tiff(littleEndian: false, [(0x0112, 4, 1, [0, 0, 0, 6])]))
        #expect(try MetadataStripper.strip(B.insert(long, into: camera, at: 20)).orientation == nil)
        let two = B.exifSegment(B.tiff(littleEndian: false, [(0x0112, 3, 2, [0, 6, 0, 6])]))
        #expect(try MetadataStripper.strip(B.insert(two, into: camera, at: 20)).orientation == nil)
    }

    @Test func malformedExifIsRemovedWithoutAnOrientation() throws {
        let camera = try Self.camera()
        let broken: [[UInt8]] = [
            [],                                                        // no TIFF at all
            B.ascii("XX") + [0, 42, 0, 0, 0, 8],                       // no byte-order mark
            B.ascii("MM") + [0, 43, 0, 0, 0, 8],                       // not 42
            B.ascii("MM") + [0, 42, 0xFF, 0xFF, 0xFF, 0xF0],           // IFD0 far outside
            B.ascii("MM") + [0, 42, 0, 0, 0, 8, 0xFF, 0xFF, 1, 0x12],  // 65535 entries, one byte of them
            B.ascii("II") + [42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0],  // entry cut short
        ]
        for tiff in broken {
            let stripped = try MetadataStripper.strip(B.insert(B.exifSegment(tiff), into: camera, at: 20))
            #expect(stripped == StrippedImage(bytes: camera, removed: ["APP1 Exif"], orientation: nil), "\(tiff)")
        }
    }

    @Test func theFirstExifWithAnOrientationCounts() throws {
        let camera = try Self.camera()
        let first = B.exifSegment(B.cameraTIFF(littleEndian: false, orientation: nil))
        let second = B.exifSegment(B.cameraTIFF(littleEndian: true, orientation: 3))
        let third = B.exifSegment(B.cameraTIFF(littleEndian: false, orientation: 5))
        let stripped = try MetadataStripper.strip(B.insert(first + second + third, into: camera, at: 20))
        #expect(stripped.orientation == 3)
        #expect(stripped.removed == ["APP1 Exif", "APP1 Exif", "APP1 Exif"])
        #expect(stripped.bytes == B.insert(Self.orientationSegment(littleEndian: true, 3), into: camera, at: 20))
    }

    @Test func strippingIsIdempotentAndAMinimalSegmentIsNotReportedAgain() throws {
        let original = try Fixtures.bytes("uploads/gps-orient6.jpg")
        let once = try MetadataStripper.strip(original)
        let twice = try MetadataStripper.strip(once.bytes)
        #expect(twice == StrippedImage(bytes: once.bytes, removed: [], orientation: 6))
    }

    @Test func fillBytesBeforeMarkers() throws {
        let camera = try Self.camera()
        // A removed COM and a kept DQT, each preceded by fill bytes FF: the kept one is copied with them.
        let filled = [0xFF, 0xD8] + Array(camera[2..<20]) + [0xFF, 0xFF] + B.segment(0xFE, B.ascii("x")) + [0xFF] + Array(camera[20...])
        let stripped = try MetadataStripper.strip(filled)
        #expect(stripped.removed == ["COM"])
        #expect(stripped.bytes == [0xFF, 0xD8] + Array(camera[2..<20]) + [0xFF] + Array(camera[20...]))
    }

    /// SOI, DQT, SOF0, DHT, SOS and then `scans`.
    static func scanTest(_ scans: [UInt8]) -> [UInt8] {
        let dqt = B.segment(0xDB, [0] + Array(repeating: 1, count: 64))
        let sof = B.segment(0xC0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])
        let dht = B.segment(0xC4, [0x00] + [0, 1] + Array(repeating: 0, count: 14) + [0])
        let sos = B.segment(0xDA, [1, 1, 0, 0, 63, 0])
        return [0xFF, 0xD8] + dqt + sof + dht + sos + scans
    }

    @Test func scanDataIsWalkedToTheRealEOI() throws {
        // Entropy data with stuffing (FF 00), a restart marker, fill bytes; then a DHT whose payload holds
        // FF D9, a COM between scans (removed: metadata, whatever scan it follows), a second scan, EOI, a tail.
        let dhtWithEOIBytes = B.segment(0xC4, [0x10, 0xFF, 0xD9, 0xFF, 0xD9])
        let between = B.segment(0xFE, B.ascii("between scans"))
        let scan2 = B.segment(0xDA, [1, 1, 0, 1, 63, 0])
        let image = Self.scanTest([0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF] + dhtWithEOIBytes + between + scan2 + [0x78, 0xFF, 0x00, 0xFF, 0xD9])
        let stripped = try MetadataStripper.strip(image + B.ascii("<html>tail</html>") + [0xFF, 0xD9])
        let withoutComment = Self.scanTest([0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF] + dhtWithEOIBytes + scan2
                                           + [0x78, 0xFF, 0x00, 0xFF, 0xD9])
        #expect(stripped == StrippedImage(bytes: withoutComment, removed: ["COM", "trailing data"], orientation: nil))
    }

    @Test func polyglotTailIsDropped() throws {
        let original = try Fixtures.bytes("hostile/jpeg-with-html-tail.jpg")
        let stripped = try MetadataStripper.strip(original)
        #expect(stripped.removed == ["COM", "trailing data"])
        #expect(stripped.bytes.count == 2_896)
        #expect(stripped.bytes.suffix(2) == [0xFF, 0xD9])
        #expect(!stripped.bytes.contains(bytes: B.ascii("<script")))
        #expect(original.contains(bytes: B.ascii("<script")))
        // It is avatars/u1002.jpg with an HTML tail.
        #expect(stripped.bytes == (try MetadataStripper.strip(try Fixtures.bytes("avatars/u1002.jpg"))).bytes)
    }

    func detail(_ bytes: [UInt8]) -> String? { StripRefusal.detail(bytes) }

    @Test func malformedFilesAreRefused() throws {
        #expect(detail([0xFF, 0xD8]) == "JPEG: the file ends at offset 2, before the first SOS")
        #expect(detail([0xFF, 0xD8, 0xFF]) == "JPEG: the file ends at offset 3, before the first SOS")
        #expect(detail([0xFF, 0xD8, 0xFF, 0xFF, 0xFF]) == "JPEG: the file ends at offset 5, before the first SOS")
        #expect(detail([0xFF, 0xD8, 0x00]) == "JPEG: expected a marker at offset 2, found 0x00")
        #expect(detail([0xFF, 0xD8, 0xFF, 0xD8]) == "JPEG: a second SOI at offset 2")
        #expect(detail([0xFF, 0xD8, 0xFF, 0xD9]) == "JPEG: EOI at offset 2 before any SOS (no image data)")
        #expect(detail([0xFF, 0xD8, 0xFF, 0x00]) == "JPEG: FF 00 at offset 2 where a marker must be")
        #expect(detail([0xFF, 0xD8, 0xFF, 0xE1, 0x00]) == "JPEG: the file ends at offset 5, inside the APP1 segment at offset 2")
        #expect(detail([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01]) == "JPEG: segment APP1 at offset 2 has length 1 (at least 2)")
        #expect(detail([0xFF, 0xD8, 0xFF, 0xDB, 0x01, 0x00] + Array(repeating: 0, count: 10))
            == "JPEG: segment DQT at offset 2 is 256 bytes long, past the end of the file (16 bytes)")
        #expect(detail(Self.scanTest([0x12, 0x34])) == "JPEG: the file ends at offset 118, after the SOS at offset 106 without an EOI (truncated)")
        #expect(detail(Self.scanTest([0x12, 0xFF])) == "JPEG: the file ends at offset 118, after the SOS at offset 106 without an EOI (truncated)")
        #expect(detail(Self.scanTest([0x12, 0xFF, 0xD8])) == "JPEG: an SOI at offset 117 inside the image data")
        #expect(detail(Self.scanTest([0x12, 0xFF, 0xC4, 0x00, 0x09])) == "JPEG: segment DHT at offset 117 is 9 bytes long, past the end of the file (121 bytes)")
        #expect(detail(Self.scanTest([0x12, 0xFF, 0xFE, 0x00, 0x02, 0x99])) == "JPEG: expected a marker at offset 121, found 0x99")
        #expect(detail(try Fixtures.bytes("hostile/truncated.jpg")) == "JPEG: the file ends at offset 6000, after the SOS at offset 360 without an EOI (truncated)")
        #expect(throws: MetadataStripError(detail: "JPEG: the file does not start with SOI (FF D8)")) {
            try JPEGMetadataStripper.strip([0xFF, 0xD9])
        }
    }
}
