import Foundation

/// What `?info=1` answers about a source image (docs/variants.md "Image info and placeholders"): its upright size,
/// format, alpha, frame count, dominant colour and ThumbHash, from ``ImageTransformer/info(_:limits:deadline:)``.
/// Nothing of the source's metadata (EXIF, XMP, ICC, comments) is in it.
public struct SourceInfo: Sendable, Hashable {
    /// The JSON answer's media type.
    public static let mediaType = "application/json"
    /// The version of the answer's contents, part of the variant key (`info=1`): a change to the algorithms or the
    /// members makes new keys, never mixes old and new answers.
    public static let version = 1

    /// Width in pixels as shown (EXIF orientation applied).
    public var width: Int
    /// Height in pixels as shown.
    public var height: Int
    /// The source's format.
    public var format: SourceFormat
    /// Whether the source has an alpha channel.
    public var hasAlpha: Bool
    /// Frames (1 for a still image).
    public var frames: Int
    /// The colour most of the thumbnail's visible pixels share (``DominantColour``); `nil` when every pixel is
    /// transparent.
    public var dominantColour: DominantColour?
    /// The ThumbHash of ``thumbnail``.
    public var thumbHash: [UInt8]
    /// The decoded thumbnail the hash and the colour were computed from (at most 100 × 100, upright, sRGB); not
    /// served.
    public var thumbnail: RGBAPixels

    public init(width: Int, height: Int, format: SourceFormat, hasAlpha: Bool, frames: Int,
                dominantColour: DominantColour?, thumbHash: [UInt8], thumbnail: RGBAPixels) {
        self.width = width
        self.height = height
        self.format = format
        self.hasAlpha = hasAlpha
        self.frames = frames
        self.dominantColour = dominantColour
        self.thumbHash = thumbHash
        self.thumbnail = thumbnail
    }

    /// The answer, members in this order, no white space:
    /// `{"width":1000,"height":750,"format":"jpeg","hasAlpha":false,"frames":1,"dominantColor":"#1f2a44",
    /// "thumbHash":"3OcRJYB4d3h/iIeHeEh3eIhw+j2w"}` (`thumbHash` in standard base64 with padding, as the reference
    /// decoders take it; `dominantColor` `null` for a wholly transparent image).
    public var json: [UInt8] {
        let colour = dominantColour.map { "\"\($0.hex)\"" } ?? "null"
        let text = "{\"width\":\(width),\"height\":\(height),\"format\":\"\(format.rawValue)\",\"hasAlpha\":\(hasAlpha),"
            + "\"frames\":\(frames),\"dominantColor\":\(colour),\"thumbHash\":\"\(Data(thumbHash).base64EncodedString())\"}"
        return Array(text.utf8)
    }
}

/// Pixels as 8-bit RGBA, row by row, alpha unassociated.
public struct RGBAPixels: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes.
    public var bytes: [UInt8]

    public init(width: Int, height: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}
