import MediaCore

/// Why ``ImageValidator`` refused a body: a stable ``code`` plus a human-readable context
/// (format and offset) that never contains body bytes.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public typealias ImageValidationError = DomainError<ImageValidationErrorCode>

/// The stable codes of ``ImageValidationError``.
///
/// A stable refusal reason, used in audit records (`reason`) and problem responses.
public struct ImageValidationErrorCode: ErrorCode {
    public let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }
    /// A code from its stable string, e.g. `"corrupt-image"`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The body has zero bytes.
    public static let emptyBody = Self("empty-body")
    /// No known image magic number (HTML, SVG, text, anything else). The declared
    /// `Content-Type` never changes this.
    public static let notAnImage = Self("not-an-image")
    /// The structure ends before its end marker (JPEG EOI, PNG IEND, GIF trailer, RIFF size, box size).
    public static let truncatedImage = Self("truncated-image")
    /// The structure is inconsistent: bad CRC, bad marker, bad chunk or box, zero dimensions.
    public static let corruptImage = Self("corrupt-image")
    /// `width × height` from the header exceeds ``ImageValidator/Configuration/maxPixels``.
    public static let overPixelLimit = Self("over-pixel-limit")
    /// Bytes follow the image's end marker (a polyglot such as a JPEG with an HTML tail).
    public static let trailingData = Self("trailing-data")
    /// The body exceeds ``ImageValidator/Configuration/maxBytes``.
    public static let overSizeLimit = Self("over-size-limit")
}
