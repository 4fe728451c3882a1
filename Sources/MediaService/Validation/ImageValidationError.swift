import MediaCore

/// Why ``ImageValidator`` refused a body: a stable ``code`` plus a human-readable context.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public struct ImageValidationError: CodedError {
    /// A stable refusal reason, used in audit records (`reason`) and problem responses.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// A code from its stable string, e.g. `"corrupt-image"`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The body has zero bytes.
        public static let emptyBody = Code("empty-body")
        /// No known image magic number (HTML, SVG, text, anything else). The declared
        /// `Content-Type` never changes this.
        public static let notAnImage = Code("not-an-image")
        /// The structure ends before its end marker (JPEG EOI, PNG IEND, GIF trailer, RIFF size, box size).
        public static let truncatedImage = Code("truncated-image")
        /// The structure is inconsistent: bad CRC, bad marker, bad chunk or box, zero dimensions.
        public static let corruptImage = Code("corrupt-image")
        /// `width × height` from the header exceeds ``ImageValidator/Configuration/maxPixels``.
        public static let overPixelLimit = Code("over-pixel-limit")
        /// Bytes follow the image's end marker (a polyglot such as a JPEG with an HTML tail).
        public static let trailingData = Code("trailing-data")
        /// The body exceeds ``ImageValidator/Configuration/maxBytes``.
        public static let overSizeLimit = Code("over-size-limit")
    }

    /// The stable reason code.
    public let code: Code
    /// What was wrong, for people (format and offset). Never contains body bytes.
    public let context: String

    public init(_ code: Code, _ context: String) {
        self.code = code
        self.context = context
    }
}
