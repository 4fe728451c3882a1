@testable import MediaTransform

/// The declaration most variant tests parse against (the example of the policy format) and shorthands.
enum VariantFixture {
    static let widths = [72, 144, 288, 576, 1152]

    /// `{ "widths": [72, 144, 288, 576, 1152], "formats": ["jpeg","webp","avif","png"], "maxDpr": 3, "quality": 80 }`
    static let declaration = VariantDeclaration(widths: widths, formats: [.jpeg, .webp, .avif, .png], maxDpr: 3, quality: 80)

    static func parse(_ query: String?, _ declaration: VariantDeclaration = declaration, passThrough: [String] = ["v"],
                      accept: String? = nil, hints: ClientHints? = nil,
                      avifAvailable: Bool = true) throws(VariantError) -> ParsedVariantQuery? {
        try VariantQuery.parse(query, declaration: declaration, passThrough: passThrough, accept: accept, hints: hints,
                               avifAvailable: avifAvailable)
    }

    /// The key text of the parsed spec, `nil` for no variant, or the error's detail.
    static func outcome(_ query: String?, _ declaration: VariantDeclaration = declaration, passThrough: [String] = ["v"],
                        accept: String? = nil, avifAvailable: Bool = true) -> String? {
        do throws(VariantError) {
            return try parse(query, declaration, passThrough: passThrough, accept: accept, avifAvailable: avifAvailable)?.spec.keyText
        } catch {
            return "error: " + error.detail
        }
    }
}
