/// How much animation a variant may keep (a tier's `animation`, docs/variants.md "Animation"): an animated GIF or
/// WebP source of at most ``maxFrames`` frames and ``maxPixels`` source pixels (width × height × frames) keeps its
/// frames in a `fit=inside` variant; any other is served as its first frame.
public struct AnimationBudget: Sendable, Hashable {
    public var maxFrames: Int
    public var maxPixels: Int

    public init(maxFrames: Int, maxPixels: Int) {
        self.maxFrames = maxFrames
        self.maxPixels = maxPixels
    }

    /// Whether a source of `frames` frames, each `width` × `height`, is within the budget (more than one frame).
    public func admits(width: Int, height: Int, frames: Int) -> Bool {
        guard frames > 1, frames <= maxFrames else { return false }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        let (pixels, overflow2) = area.multipliedReportingOverflow(by: frames)
        return !overflow && !overflow2 && pixels <= maxPixels
    }
}
