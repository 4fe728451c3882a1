import Foundation
import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// Animated variants (docs/variants.md "Animation"): within the tier's budget, a `fit=inside` variant of an
    /// animated source keeps its frames, as WebP or GIF; otherwise it is the first frame.
    @Suite struct AnimationTests {
        static let budget = AnimationBudget(maxFrames: 120, maxPixels: 50_000_000)

        static func pan() throws -> [UInt8] {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Fixtures/made/hubble-pan-6f.gif")
            return [UInt8](try Data(contentsOf: url))
        }

        static func derive(_ source: [UInt8], _ format: FormatChoice, fit: Fit = .inside,
                           budget: AnimationBudget? = budget) throws -> DerivedImage {
            var spec = VariantSpec(width: 144, height: fit == .cover ? 144 : nil, fit: fit, quality: 80, format: format)
            spec.animation = budget
            return try ImageTransformer.derive(source, spec: spec, declared: [.jpeg, .webp, .avif, .png],
                                               limits: TransformLimits(), deadline: nil)
        }

        /// Each choice's output format and frames for the 6-frame 200 × 150 pan: WebP for WebP, AVIF and JPEG XL
        /// (libvips writes neither animated); GIF for the source's own format and the legacy format, WebP for the legacy format of a client that accepts
        /// WebP; explicit
        /// JPEG and PNG are stills.
        @Test(arguments: [
            (FormatChoice.format(.webp), OutputFormat.webp, 6), (.format(.avif), .webp, 6), (.format(.jxl), .webp, 6),
            (.source, .gif, 6), (.legacy, .gif, 6), (.legacyOr(.webp), .webp, 6), (.format(.jpeg), .jpeg, 1),
            (.format(.png), .png, 1),
        ])
        func framesAreKeptInAFormatThatCarriesThem(choice: FormatChoice, format: OutputFormat, frames: Int) throws {
            let out = try Self.derive(try Self.pan(), choice)
            #expect(out.format == format)
            #expect((out.width, out.height, out.frames) == (144, 108, frames))
            #expect(out.sourceFrames == (frames == 1 ? 6 : 1))
            let probe = try #require(ImageTransformer.probe(out.bytes))
            #expect((probe.width, probe.height, probe.pages) == (144, 108, frames))
        }

        @Test func overTheBudgetACoverCropOrNoBudgetIsTheFirstFrame() throws {
            let source = try Self.pan()
            for (budget, fit) in [(AnimationBudget(maxFrames: 5, maxPixels: 50_000_000), Fit.inside),
                                  (AnimationBudget(maxFrames: 120, maxPixels: 200 * 150 * 6 - 1), .inside),
                                  (Self.budget, .cover), (nil, .inside)] as [(AnimationBudget?, Fit)] {
                let out = try Self.derive(source, .format(.webp), fit: fit, budget: budget)
                #expect(out.frames == 1 && out.sourceFrames == 6, "\(String(describing: budget)) \(fit)")
                #expect(ImageTransformer.probe(out.bytes)?.pages == 1)
            }
            #expect(AnimationBudget(maxFrames: 6, maxPixels: 200 * 150 * 6).admits(width: 200, height: 150, frames: 6))
        }

        /// Only the delays, loop count and page height go through; the GIF keeps its 100 ms delays.
        @Test func anAnimationCarriesItsTimingAndNoMetadata() throws {
            let out = try Self.derive(try Self.pan(), .source)
            let image = try out.bytes.withUnsafeBytes { bytes in
                try HeaderReader.open(bytes, as: .gif)
            }
            #expect(image.int("loop") == 0)
            #expect(image.pages == 6)
            // What libvips' GIF loader reports of any GIF (its own fields and the palette), and the timing: no comment,
            // no XMP or application extension beyond the loop count.
            #expect(StripStep.metadataFields(of: image).sorted()
                == ["background", "delay", "loop", "n-pages", "palette-bit-depth", "vips-loader", "vips-sequential"])
            #expect(!Bytes.contains(out.bytes, "XMP") && !Bytes.contains(out.bytes, "ICCRGBG1"))
        }

        @Test func keysSayWhetherFramesMayBeKept() {
            var spec = VariantSpec(width: 144, quality: 80, format: .format(.webp))
            #expect(spec.keyText == "w=144,fit=inside,fmt=webp,q=80")
            spec.animation = Self.budget
            #expect(spec.keyText == "w=144,fit=inside,fmt=webp,q=80,anim")
            #expect(spec.normalised(format: .gif) == "w=144,fit=inside,fmt=gif")
            let cover = { var spec = VariantSpec(width: 144, height: 144, fit: .cover, quality: 80, format: .source)
                          spec.animation = Self.budget
                          return spec }()
            #expect(cover.keyText == "w=144,h=144,fit=cover,fmt=source,q=80")
        }
    }
}
