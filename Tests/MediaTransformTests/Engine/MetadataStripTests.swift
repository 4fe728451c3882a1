import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// No output carries metadata, in any format, checked on the bytes (savers differ in what `strip`
    /// really drops: libvips 8.14.1's webpsave writes EXIF, XMP and ICC chunks whatever it says).
    @Suite struct MetadataStripTests {
        /// 64×32 RGBA with two PNG text chunks.
        static let commentedPNG = SyntheticPNG.rgba(
            width: 64, height: 32, text: [("Comment", "GPS 51.5007N 0.1246W"), ("Author", "secret-author")]
        ) { x, y in (UInt8(x * 4), UInt8(y * 8), 128, 200) }

        /// Sources with metadata: EXIF + XMP + ICC (hubble), EXIF with GPS and a serial number
        /// (gps-orient6), PNG text comments (synthetic).
        static func sources() throws -> [(String, [UInt8])] {
            [
                ("large/hubble-1000.jpg", try Fixtures.bytes("large/hubble-1000.jpg")),
                ("uploads/gps-orient6.jpg", try Fixtures.bytes("uploads/gps-orient6.jpg")),
                ("synthetic commented PNG", commentedPNG),
            ]
        }

        @Test func theSourcesDoCarryMetadata() throws {
            let hubble = try Fixtures.bytes("large/hubble-1000.jpg")
            #expect(Set(Bytes.metadataFound(in: hubble)).isSuperset(of: ["Exif", "http://ns.adobe.com/xap", "ICC_PROFILE"]))
            let gps = try Fixtures.bytes("uploads/gps-orient6.jpg")
            #expect(Bytes.metadataFound(in: gps).contains("Exif"))
            #expect(Bytes.metadataFound(in: Self.commentedPNG).contains("tEXt"))
            let decoded = try #require(Decoded(Self.commentedPNG))
            #expect(decoded.metadataFields.contains("png-comment-0-Comment"))
        }

        @Test(arguments: OutputFormat.allCases)
        func noMetadataInTheOutputBytes(format: OutputFormat) throws {
            if format == .avif && !VipsRuntime.canSaveAVIF { return }
            for (name, source) in try Self.sources() {
                let out = try ImageTransformer.derive(
                    source, spec: VariantSpec(width: 48, quality: 80, format: .format(format)),
                    declared: OutputFormat.allCases, limits: TransformLimits(), deadline: nil)
                #expect(out.format == format)
                #expect(Bytes.metadataFound(in: out.bytes) == [], "\(name) → \(format)")
                for secret in ["GPS", "secret-author", "Photoshop", "Adobe"] {
                    #expect(!Bytes.contains(out.bytes, secret), "\(secret) in \(name) → \(format)")
                }
                if format == .jxl {
                    // JPEG XL is never a source here; a bare codestream has no box to hold EXIF or XMP.
                    #expect(Array(out.bytes.prefix(2)) == [0xFF, 0x0A], "\(name) → jxl")
                    continue
                }
                let decoded = try #require(Decoded(out.bytes), "\(name) → \(format) does not decode")
                let privateFields = decoded.metadataFields.filter { field in
                    field.hasPrefix("exif-") || field.hasPrefix("png-comment-")
                        || ["xmp-data", "iptc-data", "icc-profile-data", "orientation"].contains(field)
                }
                #expect(privateFields == [], "\(name) → \(format)")
            }
        }

        /// The strip step leaves no metadata field at all on the image the saver is given.
        @Test func stripStepRemovesEveryField() throws {
            let source = try Fixtures.bytes("large/hubble-1000.jpg")
            let fields: [String] = try source.withUnsafeBytes { raw in
                let context = TransformContext(source: raw, spec: VariantSpec(width: 64, quality: 80, format: .source),
                                               declared: [.jpeg], limits: TransformLimits())
                let steps: [any TransformStep] = [SniffStep(), SourceLimitStep(), FormatStep(), ScaleOnLoadStep(),
                                                  DecodeStep(), ColourStep(), FlattenStep()]
                try TransformPipeline(steps: steps).run(context, deadline: nil)
                let before = StripStep.metadataFields(of: try #require(context.image))
                #expect(before.contains("exif-data") && before.contains("xmp-data") && before.contains("icc-profile-data"))
                try StripStep().run(context)
                return StripStep.metadataFields(of: try #require(context.image))
            }
            #expect(fields == [])
        }
    }
}
