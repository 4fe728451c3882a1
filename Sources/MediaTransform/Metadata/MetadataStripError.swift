/// Why an image's metadata could not be removed losslessly: an unsupported or malformed file, or an AVIF
/// or HEIF whose metadata items cannot be dropped without rewriting the file.
public struct MetadataStripError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Always ``notStrippable`` (`metadata-not-strippable`).
    public var code: String
    /// One line naming the format and the problem, with the byte offset where one applies:
    /// `JPEG: segment APP1 at offset 20 is 5000 bytes long, past the end of the file (233 bytes)`.
    public var detail: String

    /// The only code: `metadata-not-strippable`.
    public static let notStrippable = "metadata-not-strippable"

    public init(detail: String) {
        code = MetadataStripError.notStrippable
        self.detail = detail
    }

    /// `metadata-not-strippable: <detail>`.
    public var description: String { "\(code): \(detail)" }
}
