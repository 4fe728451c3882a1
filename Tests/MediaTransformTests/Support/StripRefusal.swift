import Testing

@testable import MediaTransform

/// Why ``MediaTransform/MetadataStripper`` refuses bytes: the strip tests' `detail(_:)`.
enum StripRefusal {
    /// The refusal's detail (its code checked: `metadata-not-strippable`), or `nil` when the bytes are stripped.
    static func detail(_ bytes: [UInt8]) -> String? {
        do throws(MetadataStripError) {
            _ = try MetadataStripper.strip(bytes)
            return nil
        } catch {
            #expect(error.code == "metadata-not-strippable")
            return error.detail
        }
    }
}
