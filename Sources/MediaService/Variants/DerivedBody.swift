import MediaTransform

/// What the derive stage stores and serves under a variant key: an image (``DerivedImage``), or the source's
/// ``SourceInfo`` as JSON (`?info=1`), or a stored one of either made again from the same source bytes.
struct DerivedBody: Sendable {
    var bytes: [UInt8]
    /// `Content-Type`: the image's format, or `application/json`.
    var mediaType: String
    /// An image's size in pixels (`Mediactl-Image-Width`/`-Height`); `nil` for info.
    var width: Int?
    var height: Int?
    /// The audit `transform` and ``StoredHead/transform``: the normalised parameters.
    var transform: String
    /// Above 1: an image of an animated source of which only the first frame was written.
    var sourceFrames: Int = 1

    init(bytes: [UInt8], mediaType: String, width: Int?, height: Int?, transform: String, sourceFrames: Int = 1) {
        self.bytes = bytes
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.transform = transform
        self.sourceFrames = sourceFrames
    }

    /// `image`, made for `spec`; an animation's transform ends in `,animated`.
    init(_ image: DerivedImage, spec: VariantSpec) {
        self.init(bytes: image.bytes, mediaType: image.format.mimeType, width: image.width, height: image.height,
                  transform: spec.normalised(format: image.format) + (image.frames > 1 ? ",animated" : ""),
                  sourceFrames: image.sourceFrames)
    }

    /// `info` as its JSON answer.
    init(_ info: SourceInfo) {
        self.init(bytes: info.json, mediaType: SourceInfo.mediaType, width: nil, height: nil,
                  transform: VariantSpec.infoText)
    }
}
