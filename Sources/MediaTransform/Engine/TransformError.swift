import MediaCore

/// Why a transform produced no image: a stable ``code`` (what callers branch on and audit records
/// carry) and a human ``detail`` (never parsed; it may include libvips' own error text).
public typealias TransformError = DomainError<TransformErrorCode>

/// The stable codes of ``TransformError``.
public struct TransformErrorCode: ErrorCode {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The bytes claim a supported format but do not decode (truncated, corrupt, bad CRC).
    public static let undecodable = Self(rawValue: "undecodable")
    /// The source's header declares more pixels than ``TransformLimits/maxSourcePixels``, or the
    /// requested box exceeds ``TransformLimits/maxOutputPixels``.
    public static let overPixelLimit = Self(rawValue: "over-pixel-limit")
    /// Not JPEG, PNG, WebP, GIF or AVIF (SVG, PDF, TIFF, HEIC, HTML, empty…), refused before
    /// decoding; or AVIF output asked of a libvips that cannot write it.
    public static let unsupportedFormat = Self(rawValue: "unsupported-format")
    /// The decoded image could not be written in the output format.
    public static let encodeFailed = Self(rawValue: "encode-failed")
    /// The deadline passed before a step started.
    public static let deadlineExceeded = Self(rawValue: "deadline-exceeded")
    /// The variant asked for no pixels (a width or height below 1).
    public static let invalidSpec = Self(rawValue: "invalid-spec")
}

extension TransformError {
    /// What went wrong, for logs (``context``): the step and libvips' message when it gave one.
    public var detail: String { context }
}
