import Testing
@testable import MediaTransform

/// How `fmt=auto` reads `Accept` (over a fixed order, AVIF before WebP before JPEG, so each case shows what is accepted),
/// and the calibrated order it follows by width (``FormatRanking``).
@Suite struct FormatNegotiationTests {
    static let all: [OutputFormat] = [.jpeg, .webp, .avif, .png]

    func choose(_ accept: String?, width: Int = 144, declared: [OutputFormat] = all, avif: Bool = true) -> FormatChoice {
        FormatNegotiation.choose(accept: accept, declared: declared, width: width, maxAVIFWidth: 576, avifAvailable: avif,
                                 jxlAvailable: false, order: [.jxl, .avif, .webp, .jpeg])
    }

    /// The calibrated order (benchmarks/results/2026-12-06-format-calibration.md): AVIF, then JPEG XL, then JPEG before
    /// WebP up to 288 px; from 576 px JPEG XL, then WebP, then JPEG (AVIF takes more than 3× JPEG's time there).
    @Test func theCalibratedOrderDecidesByWidth() {
        let chromium = "image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        let withJXL: [OutputFormat] = [.jpeg, .webp, .avif, .png, .jxl]
        func auto(_ accept: String, _ width: Int, _ declared: [OutputFormat] = withJXL) -> FormatChoice {
            FormatNegotiation.choose(accept: accept, declared: declared, width: width, maxAVIFWidth: 576,
                                     avifAvailable: true, jxlAvailable: true)
        }
        #expect(FormatRanking.order(at: 72) == [.avif, .jxl, .jpeg, .webp])
        #expect(FormatRanking.order(at: 575) == [.avif, .jxl, .jpeg, .webp])
        #expect(FormatRanking.order(at: 1152) == [.jxl, .webp, .jpeg])
        #expect(auto(chromium, 144) == .format(.avif))
        #expect(auto(chromium, 288) == .format(.avif))
        #expect(auto(chromium, 576) == .format(.jxl))
        #expect(auto(chromium, 1152) == .format(.jxl))
        #expect(auto("image/jxl,image/webp", 144) == .format(.jxl))
        // WebP alone: fewer bytes than JPEG only from 576 px; below, JPEG for an opaque still and WebP for a source with
        // alpha or frames (instead of PNG or GIF).
        #expect(auto("image/webp,*/*", 288) == .legacyOr(.webp))
        #expect(auto("image/png,*/*", 288) == .legacy)
        #expect(auto("image/webp,*/*", 576) == .format(.webp))
        #expect(auto(chromium, 576, [.jpeg, .webp, .avif, .png]) == .format(.webp))
        // A tier without JPEG: its legacy format is another, tried in its own place.
        #expect(auto("image/webp", 144, [.webp]) == .format(.webp))
        #expect(auto("image/png", 144, [.webp, .png]) == .legacy)
    }

    @Test func browsers() {
        let chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        let safari17 = "image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
        let firefox = "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
        let firefox65 = "image/webp,*/*"
        let safari14 = "image/webp,image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5"
        let safari13 = "image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5"
        #expect(choose(chrome) == .format(.avif))
        #expect(choose(safari17) == .format(.avif))
        #expect(choose(firefox) == .format(.avif))
        #expect(choose(firefox65) == .format(.webp))
        #expect(choose(safari14) == .format(.webp))
        #expect(choose(safari13) == .legacy)
        #expect(choose("*/*") == .legacy)
        // Above maxAVIFWidth, or without an AVIF encoder: WebP.
        #expect(choose(chrome, width: 577) == .format(.webp))
        #expect(choose(chrome, width: 576) == .format(.avif))
        #expect(choose(safari17, avif: false) == .format(.webp))
    }

    @Test func wildcardsNeverCount() {
        #expect(choose("image/*") == .legacy)
        #expect(choose("image/*,*/*;q=0.8") == .legacy)
        #expect(choose("image/*;q=0,image/webp") == .format(.webp))
    }

    @Test func zeroWeightExcludes() {
        #expect(choose("image/webp;q=0") == .legacy)
        #expect(choose("image/webp;q=0.000") == .legacy)
        #expect(choose("image/webp;q=0.001") == .format(.webp))
        #expect(choose("image/avif;q=0,image/webp") == .format(.webp))
        #expect(choose("image/avif;Q=0,image/webp") == .format(.webp))
        // Named twice: a refusal wins.
        #expect(choose("image/webp,image/webp;q=0") == .legacy)
        #expect(choose("image/webp;q=0,image/webp;q=1") == .legacy)
    }

    @Test func weightsOnlySeparateAcceptableFromRefused() {
        #expect(choose("image/avif;q=0.1,image/webp;q=1") == .format(.avif))
        #expect(choose("image/webp;q=0.5") == .format(.webp))
    }

    @Test func emptyMissingAndGarbage() {
        #expect(choose(nil) == .legacy)
        #expect(choose("") == .legacy)
        #expect(choose(" , ,, ") == .legacy)
        #expect(choose("garbage") == .legacy)
        #expect(choose("\u{0}\u{1}\u{FFFD};;;,,,==//") == .legacy)
        #expect(choose("image/avifx,image/webp2,image/avif+xml,text/webp,webp,avif") == .legacy)
        #expect(choose("image/") == .legacy)
        #expect(choose("/webp") == .legacy)
    }

    @Test func syntax() {
        #expect(choose("IMAGE/AVIF") == .format(.avif))
        #expect(choose("image/avif ; q=0.5") == .format(.avif))
        #expect(choose(" \timage/webp\t,") == .format(.webp))
        #expect(choose("image/avif;;q=0.5") == .format(.avif))
        #expect(choose("image/avif;q=0.5;ext=1") == .format(.avif))
        #expect(choose(#"image/avif;level="1,2;q=0",image/webp;q=0"#) == .format(.avif))
        #expect(choose(#"image/webp;a="x\"y,z""#) == .format(.webp))
        // Malformed elements are ignored.
        #expect(choose("image/avif;q=1.5,image/webp") == .format(.webp))
        #expect(choose("image/avif;q=0.0001") == .legacy)
        #expect(choose("image/avif;q=") == .legacy)
        #expect(choose("image/avif;q") == .legacy)
        #expect(choose(#"image/avif;q="1""#) == .legacy)
        #expect(choose("image/avif junk") == .legacy)
        #expect(choose(#"image/webp;a="unterminated"#) == .legacy)
        #expect(choose(#"image/webp;a="x\"#) == .legacy)
        // A quoted comma does not split; after it the next element is read.
        #expect(choose(#"text/html;a=",",image/webp"#) == .format(.webp))
    }

    @Test func onlyDeclaredFormats() {
        let chrome = "image/avif,image/webp"
        #expect(choose(chrome, declared: [.jpeg, .png]) == .legacy)
        #expect(choose(chrome, declared: [.webp]) == .format(.webp))
        #expect(choose(chrome, declared: [.avif]) == .format(.avif))
        #expect(choose(chrome, width: 1152, declared: [.avif]) == .legacy)
    }

    @Test func acceptsEntryPoint() {
        #expect(FormatNegotiation.accepts(.webp, accept: "image/webp;q=0.2"))
        #expect(!FormatNegotiation.accepts(.webp, accept: "image/*"))
        #expect(!FormatNegotiation.accepts(.avif, accept: nil))
    }
}
