@testable import MediaTransform

/// An encoded output decoded again through the engine's own loaders into memory, for pixel and
/// field checks.
struct Decoded {
    let image: VipsImageHandle
    let probe: ImageProbe

    /// `nil` when the bytes are not an image the engine reads.
    init?(_ bytes: [UInt8]) {
        let decoded: (VipsImageHandle, ImageProbe)? = bytes.withUnsafeBytes { raw in
            // The memory copy no longer reads from `raw`, so it may outlive this closure.
            guard let format = SourceFormat.sniff(raw),
                  let probe = try? HeaderReader.read(raw, as: format),
                  let image = try? HeaderReader.open(raw, as: format).inMemory(.undecodable, "test decode")
            else { return nil }
            return (image, probe)
        }
        guard let decoded else { return nil }
        (image, probe) = decoded
    }

    /// The band values at (x, y).
    func pixel(_ x: Int, _ y: Int) -> [Double]? { image.pixel(x: x, y: y) }

    /// The image's metadata fields (what the strip step removes).
    var metadataFields: [String] { StripStep.metadataFields(of: image) }
}
