import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// probe(_:) reads headers only, for every format the engine takes, and nothing else.
    @Suite struct ProbeTests {
        @Test(arguments: [
            ("catalog/chelsea-5d40df37.jpg", ImageProbe(format: .jpeg, width: 256, height: 256, pages: 1, hasAlpha: false)),
            ("catalog/chelsea.png", ImageProbe(format: .png, width: 256, height: 256, pages: 1, hasAlpha: false)),
            ("catalog/coffee.webp", ImageProbe(format: .webp, width: 256, height: 256, pages: 1, hasAlpha: false)),
            ("catalog/spinner.gif", ImageProbe(format: .gif, width: 14, height: 25, pages: 24, hasAlpha: true)),
            ("receipts/r-7731.png", ImageProbe(format: .png, width: 384, height: 191, pages: 1, hasAlpha: false)),
            ("hostile/bomb-60000x60000.png", ImageProbe(format: .png, width: 60_000, height: 60_000, pages: 1, hasAlpha: true)),
        ])
        func corpusHeaders(path: String, expected: ImageProbe) throws {
            #expect(ImageTransformer.probe(try Fixtures.bytes(path)) == expected)
        }

        @Test(arguments: ["hostile/script.svg", "hostile/html-named.jpg", "hostile/empty.jpg", "hostile/bad-crc.png"])
        func notAnImage(path: String) throws {
            #expect(ImageTransformer.probe(try Fixtures.bytes(path)) == nil)
        }

        @Test func avifHeader() throws {
            guard VipsRuntime.canSaveAVIF else { return }
            let avif = try ImageTransformer.derive(
                try Fixtures.bytes("catalog/coffee.webp"), spec: VariantSpec(width: 40, quality: 50, format: .format(.avif)),
                declared: [], limits: TransformLimits(), deadline: nil)
            #expect(ImageTransformer.probe(avif.bytes) == ImageProbe(format: .avif, width: 40, height: 40, pages: 1,
                                                                     hasAlpha: false))
        }

        @Test func runtime() {
            #expect(VipsRuntime.version == "8.14.1")
        }
    }
}
