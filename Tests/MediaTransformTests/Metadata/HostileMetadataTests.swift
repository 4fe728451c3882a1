import Testing
@testable import MediaTransform

/// Every file of Tests/Fixtures/corpus/hostile, and the whole corpus: each strips or throws, never traps.
@Suite struct HostileMetadataTests {
    func outcome(_ path: String) throws -> String {
        let bytes = try Fixtures.bytes(path)
        do throws(MetadataStripError) {
            let stripped = try MetadataStripper.strip(bytes)
            return "\(stripped.bytes.count) bytes, removed \(stripped.removed)"
        } catch {
            return error.description
        }
    }

    @Test func hostileFiles() throws {
        #expect(try Fixtures.paths(in: "hostile") == [
            "hostile/bad-crc.png", "hostile/bomb-12000x12000-valid.png", "hostile/bomb-60000x60000.png", "hostile/empty.jpg",
            "hostile/html-named.jpg", "hostile/jpeg-with-html-tail.jpg", "hostile/script.svg", "hostile/truncated.jpg",
        ])
        #expect(try outcome("hostile/bad-crc.png") == "metadata-not-strippable: PNG: chunk IHDR at offset 8 has CRC 0x2C103F31, computed 0xD3103F31")
        // Container-valid: stripping does not decode, it has nothing to remove (the decoder's limits refuse them).
        #expect(try outcome("hostile/bomb-12000x12000-valid.png") == "140051 bytes, removed []")
        #expect(try outcome("hostile/bomb-60000x60000.png") == "15001 bytes, removed []")
        #expect(try outcome("hostile/empty.jpg") == "metadata-not-strippable: the file is empty")
        #expect(try outcome("hostile/html-named.jpg") == "metadata-not-strippable: not a JPEG, PNG, WebP, GIF, AVIF or HEIF file (it starts with 3C 21 64 6F 63 74 79 70)")
        #expect(try outcome("hostile/jpeg-with-html-tail.jpg") == "2896 bytes, removed [\"COM\", \"trailing data\"]")
        #expect(try outcome("hostile/script.svg") == "metadata-not-strippable: not a JPEG, PNG, WebP, GIF, AVIF or HEIF file (it starts with 3C 73 76 67 20 78 6D 6C)")
        #expect(try outcome("hostile/truncated.jpg") == "metadata-not-strippable: JPEG: the file ends at offset 6000, after the SOS at offset 360 without an EOI (truncated)")
    }

    @Test func everyPrefixOfEveryHostileAndSmallFileStripsOrThrows() throws {
        // Cut at many lengths: each either throws or returns, and what returns strips again to itself.
        for path in ["hostile/jpeg-with-html-tail.jpg", "uploads/gps-orient6.jpg", "catalog/chelsea.png",
                     "catalog/coffee.webp", "catalog/spinner.gif", "hostile/bad-crc.png"] {
            let bytes = try Fixtures.bytes(path)
            for length in Array(0...600) + stride(from: 601, to: bytes.count, by: max(1, bytes.count / 97)) {
                if let stripped = try? MetadataStripper.strip(Array(bytes.prefix(length))) {
                    #expect(try MetadataStripper.strip(stripped.bytes).bytes == stripped.bytes, "\(path) cut at \(length)")
                }
            }
        }
    }

    @Test func everyByteFlippedInTheHeadersStripsOrThrows() throws {
        // Small files (each flip strips the whole file): the headers of the gps upload, hubble's APP segments.
        let gps = try Fixtures.bytes("uploads/gps-orient6.jpg")
        let gpsHeader = Array(gps[..<(try #require(ImageBytes.firstSOS(gps)))]) + Array(try Fixtures.bytes("avatars/u1002.next.jpg")[20...])
        let inputs = [("gps header", gpsHeader), ("hubble", try Fixtures.bytes("catalog/hubble-b981f74f.jpg")),
                      ("r-7731.png", try Fixtures.bytes("receipts/r-7731.png")), ("coffee.webp", try Fixtures.bytes("catalog/coffee.webp")),
                      ("spinner.gif", try Fixtures.bytes("catalog/spinner.gif"))]
        for (path, bytes) in inputs {
            for offset in 0..<min(bytes.count, 400) {
                for value: UInt8 in [0x00, 0xFF, bytes[offset] ^ 0x80] {
                    var mutated = bytes
                    mutated[offset] = value
                    if let stripped = try? MetadataStripper.strip(mutated) {
                        #expect(try MetadataStripper.strip(stripped.bytes).bytes == stripped.bytes, "\(path) byte \(offset) = \(value)")
                    }
                }
            }
        }
    }

    static let corpusDirectories = ["avatars", "catalog", "large", "receipts", "uploads"]

    @Test func theWholeCorpusStripsIdempotently() throws {
        for directory in Self.corpusDirectories {
            for path in try Fixtures.paths(in: directory) {
                let stripped = try MetadataStripper.strip(try Fixtures.bytes(path))
                let again = try MetadataStripper.strip(stripped.bytes)
                // Orientation 1 (the default) is not written again, so a second pass finds none.
                let kept = stripped.orientation == 1 ? nil : stripped.orientation
                #expect(again == StrippedImage(bytes: stripped.bytes, removed: [], orientation: kept), "\(path)")
            }
        }
    }

    @Test(.enabled(if: Vips.available)) func theWholeCorpusDecodesToTheSamePixelsAfterStripping() throws {
        for directory in Self.corpusDirectories {
            for path in try Fixtures.paths(in: directory) {
                let original = try Fixtures.bytes(path)
                let suffix = String(path.split(separator: ".").last ?? "")
                let before = try Vips.average(original, suffix: suffix)
                #expect(before != nil, "\(path) does not decode")
                #expect(try Vips.average(try MetadataStripper.strip(original).bytes, suffix: suffix) == before, "\(path)")
            }
        }
    }
}
