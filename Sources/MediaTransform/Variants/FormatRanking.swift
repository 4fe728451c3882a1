/// The order `fmt=auto` tries formats in, by output width: the fewest bytes at equal quality first, among the formats
/// that make a variant within 3× JPEG's time (docs/variants.md "`fmt=auto`").
///
/// Measured by `benchmarks/variants/calibrate.sh` (benchmarks/results/2026-12-06-format-calibration.md): each format
/// at its default quality (JPEG 80, WebP 85, AVIF 70, JPEG XL 80, the qualities at which its median SSIMULACRA2
/// matches JPEG q80's at the middle width), median bytes over six images, and the time from source bytes to encoded
/// variant. JPEG stands for the legacy format (JPEG, or PNG for a source with alpha).
///
/// | width | order (median bytes) | over 3× JPEG's time |
/// |---|---|---|
/// | 144 | AVIF 4,341 < JPEG XL 4,447 < JPEG 4,450 < WebP 5,272 | none |
/// | 288 | AVIF 11,616 < JPEG XL 12,600 < JPEG 13,032 < WebP 14,590 | none |
/// | 576 | JPEG XL 26,278 < WebP 29,862 < JPEG 32,540 | AVIF (3.5×) |
public enum FormatRanking {
    /// The calibrated widths, ascending, each with its order.
    public static let calibrated: [(width: Int, order: [OutputFormat])] = [
        (144, [.avif, .jxl, .jpeg, .webp]),
        (288, [.avif, .jxl, .jpeg, .webp]),
        (576, [.jxl, .webp, .jpeg]),
    ]

    /// The order at `width`: the row of the widest calibrated width at or below it (the narrowest row below 144).
    public static func order(at width: Int) -> [OutputFormat] {
        (calibrated.last { $0.width <= width } ?? calibrated[0]).order
    }
}
