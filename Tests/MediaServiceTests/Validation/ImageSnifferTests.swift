import MediaCore
import MediaService
import Testing

@Suite struct ImageSnifferTests {
    @Test func magicNumbers() {
        #expect(ImageSniffer.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageSniffer.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageSniffer.sniff(Array("GIF87a".utf8)) == .gif)
        #expect(ImageSniffer.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageSniffer.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8)) == .webp)
        #expect(ImageSniffer.sniff(ImageBuilder.heif(brands: ["avif"], sizes: [])) == .avif)
    }

    @Test func mimeTypes() {
        #expect([ImageFormat.jpeg, .png, .gif, .webp, .avif, .heic, .heif].map(\.mimeType)
            == ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "image/heic", "image/heif"])
    }

    @Test func nonImagesAreNil() {
        #expect(ImageSniffer.sniff([]) == nil)
        #expect(ImageSniffer.sniff([0xFF, 0xD8]) == nil)
        #expect(ImageSniffer.sniff(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
        #expect(ImageSniffer.sniff(Array("<!doctype html>".utf8)) == nil)
        #expect(ImageSniffer.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(ImageSniffer.sniff(Array("GIF90a".utf8)) == nil)
        #expect(ImageSniffer.sniff(Array("\u{EF}\u{BB}\u{BF}<svg>".utf8)) == nil)
    }

    @Test func corpusFilesAreSniffedByContentNotName() throws {
        #expect(ImageSniffer.sniff(try Fixtures.bytes("hostile/html-named.jpg")) == nil)
        #expect(ImageSniffer.sniff(try Fixtures.bytes("hostile/script.svg")) == nil)
        #expect(ImageSniffer.sniff(try Fixtures.bytes("catalog/coffee.webp")) == .webp)
        #expect(ImageSniffer.sniff(try Fixtures.bytes("catalog/spinner.gif")) == .gif)
    }
}
