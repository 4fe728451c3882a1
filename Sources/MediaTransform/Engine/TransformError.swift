/// Why a transform produced no image: a stable ``code`` (what callers branch on and audit records
/// carry) and a human ``detail`` (never parsed; it may include libvips' own error text).
public struct TransformError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable reason.
    public var code: Code
    /// What went wrong, for logs: the step and libvips' message when it gave one.
    public var detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }

    /// The stable reason codes (an open set: new codes may be added).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The bytes claim a supported format but do not decode (truncated, corrupt, bad CRC).
        public static let undecodable = Code(rawValue: "undecodable")
        /// The source's header declares more pixels than ``TransformLimits/maxSourcePixels``, or the
        /// requested box exceeds ``TransformLimits/maxOutputPixels``.
        public static let overPixelLimit = Code(rawValue: "over-pixel-limit")
        /// Not JPEG, PNG, WebP, GIF or AVIF (SVG, PDF, TIFF, HEIC, HTML, empty…), refused before
        /// decoding; or AVIF output asked of a libvips that cannot write it.
        public static let unsupportedFormat = Code(rawValue: "unsupported-format")
        /// The decoded image could not be written in the output format.
        public static let encodeFailed = Code(rawValue: "encode-failed")
        /// The deadline passed before a step started.
        public static let deadlineExceeded = Code(rawValue: "deadline-exceeded")
        /// The variant asked for no pixels (a width or height below 1).
        public static let invalidSpec = Code(rawValue: "invalid-spec")

        public var description: String { rawValue }
    }
}
