import MediaCore

/// Checks that a response body is the image it claims to be, cheaply and before anything is
/// decoded: the format comes from magic numbers (``ImageSniffer``), the structure is walked
/// (markers, chunks, blocks, boxes), and the pixel dimensions are read from the header and
/// checked against ``Configuration/maxPixels`` before the rest of the body is looked at.
///
/// Per format:
/// - JPEG: SOI, every segment length, the SOFn frame header (dimensions), entropy-coded data
///   after each SOS, and EOI as the last two bytes.
/// - PNG: signature, IHDR first with a valid CRC-32 and field values, every chunk's length and
///   CRC-32, at least one IDAT, IEND last.
/// - GIF: header, logical screen size, colour tables, every block and sub-block, trailer `0x3B` last.
/// - WebP: RIFF size equal to the body length minus 8, first chunk `VP8 `/`VP8L`/`VP8X` with its
///   dimensions, every chunk inside the RIFF size.
/// - AVIF/HEIC/HEIF: every top-level box inside the body, `meta`/`iprp`/`ipco`/`ispe` for the
///   dimensions (the largest `ispe` counts).
/// - JPEG XL: the codestream's `SizeHeader` (bare, or in the container's `jxlc`/`jxlp` box, every box inside the body).
///
/// The declared `Content-Type` is never an input. Bytes after the end marker are refused as
/// ``ImageValidationError/Code/trailingData`` (polyglots such as a JPEG carrying an HTML tail).
public struct ImageValidator: Sendable {
    /// Limits applied by ``validate(_:)``.
    public struct Configuration: Sendable, Hashable {
        /// Maximum `width × height` in pixels. Default: 50,000,000.
        public var maxPixels: Int
        /// Maximum body length in bytes, or `nil` for no limit here (the tier's
        /// `maxObjectBytes` usually applies earlier). Default: `nil`.
        public var maxBytes: Int?

        public init(maxPixels: Int = 50_000_000, maxBytes: Int? = nil) {
            self.maxPixels = maxPixels
            self.maxBytes = maxBytes
        }
    }

    /// The limits in force.
    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Validates `body` and returns its format, dimensions and length.
    ///
    /// Checks run in this order: empty body, ``Configuration/maxBytes``, magic number, header
    /// dimensions against ``Configuration/maxPixels``, then the rest of the structure.
    /// - Parameter body: the complete response body.
    /// - Returns: the sniffed format with `width`, `height` (pixels, > 0) and `byteCount`.
    /// - Throws: ``ImageValidationError`` with code `empty-body`, `over-size-limit`,
    ///   `not-an-image`, `over-pixel-limit`, `truncated-image`, `corrupt-image` or `trailing-data`.
    /// - Complexity: O(n) in the body length; nothing is decompressed.
    public func validate(_ body: [UInt8]) throws(ImageValidationError) -> ImageInfo {
        guard !body.isEmpty else { throw ImageValidationError(.emptyBody, "the body has 0 bytes") }
        if let maxBytes = configuration.maxBytes, body.count > maxBytes {
            throw ImageValidationError(.overSizeLimit, "\(body.count) bytes exceed the limit of \(maxBytes)")
        }
        guard let format = ImageSniffer.sniff(body) else {
            throw ImageValidationError(.notAnImage, "no known image signature in the first bytes")
        }
        let reader = ByteReader(body)
        let size: (width: Int, height: Int)
        switch format {
        case .jpeg: size = try validateJPEG(reader)
        case .png: size = try validatePNG(reader)
        case .gif: size = try validateGIF(reader)
        case .webp: size = try validateWebP(reader)
        case .jxl: size = try validateJXL(reader)
        default: size = try validateISOBMFF(reader, format: format)
        }
        return ImageInfo(format: format, width: size.width, height: size.height, byteCount: body.count)
    }

    /// Throws `corrupt-image` for a zero dimension and `over-pixel-limit` above the limit.
    func checkDimensions(_ width: Int, _ height: Int, _ what: String) throws(ImageValidationError) {
        guard width > 0, height > 0 else {
            throw ImageValidationError(.corruptImage, "\(what) has a zero dimension (\(width)x\(height))")
        }
        let pixels = width * height
        if pixels > configuration.maxPixels {
            throw ImageValidationError(
                .overPixelLimit,
                "\(what) is \(width)x\(height) = \(pixels) pixels, over the limit of \(configuration.maxPixels)")
        }
    }

    static func truncated(_ format: String, _ detail: String) -> ImageValidationError {
        ImageValidationError(.truncatedImage, "\(format): \(detail)")
    }

    static func corrupt(_ format: String, _ detail: String) -> ImageValidationError {
        ImageValidationError(.corruptImage, "\(format): \(detail)")
    }

    static func trailing(_ format: String, _ extra: Int, after offset: Int) -> ImageValidationError {
        ImageValidationError(.trailingData, "\(format): \(extra) bytes follow the end of the image at offset \(offset)")
    }
}
