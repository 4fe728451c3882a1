import MediaCore

/// The colour most of an image's visible pixels share: every pixel falls into one of 4,096 boxes (4 bits per
/// channel), weighted by its alpha; the heaviest box wins (the first in red–green–blue order on a tie), and its
/// colour is the alpha-weighted mean of the pixels in it, rounded. Unlike the average colour (a photo of a red car on
/// grey tarmac averages to brown), it is a colour the image shows, for a placeholder's background.
public struct DominantColour: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    /// `#rrggbb`, lower-case.
    public var hex: String { "#" + Hex.encode([red, green, blue]) }
}

extension DominantColour {
    /// The dominant colour of `pixels`, or `nil` when every pixel is transparent.
    public init?(of pixels: RGBAPixels) {
        var weight = [Int](repeating: 0, count: 4096)
        var sums = [Int](repeating: 0, count: 4096 * 3)
        let bytes = pixels.bytes
        for j in stride(from: 0, to: bytes.count - 3, by: 4) {
            let alpha = Int(bytes[j + 3])
            guard alpha > 0 else { continue }
            let box = Int(bytes[j] >> 4) << 8 | Int(bytes[j + 1] >> 4) << 4 | Int(bytes[j + 2] >> 4)
            weight[box] += alpha
            sums[box * 3] += alpha * Int(bytes[j])
            sums[box * 3 + 1] += alpha * Int(bytes[j + 1])
            sums[box * 3 + 2] += alpha * Int(bytes[j + 2])
        }
        var best = 0
        for box in 1..<4096 where weight[box] > weight[best] { best = box }
        let total = weight[best]
        guard total > 0 else { return nil }
        func mean(_ offset: Int) -> UInt8 { UInt8((sums[best * 3 + offset] * 2 + total) / (2 * total)) }
        self.init(red: mean(0), green: mean(1), blue: mean(2))
    }
}
