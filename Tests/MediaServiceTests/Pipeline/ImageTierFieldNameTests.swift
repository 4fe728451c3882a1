@testable import MediaService
import Testing

/// The image tier's kept response fields are found in any ASCII case and spelled canonically; nothing else is.
@Suite struct ImageTierFieldNameTests {
    @Test func everyKeptNameInAnyCase() {
        for (lower, canonical) in Responder.imageTierFieldsKept {
            #expect(Responder.keptImageTierName(lower) == canonical)
            #expect(Responder.keptImageTierName(lower.uppercased()) == canonical)
            #expect(Responder.keptImageTierName(canonical) == canonical)
        }
    }

    @Test func otherNamesAreDropped() {
        for name in ["Age", "Set-Cookie", "Cache-Control", "X-ETag", "ETags", "", "Content-Length", "Server",
                     "\u{FF25}Tag", "Vary\u{301}"] {
            #expect(Responder.keptImageTierName(name) == nil, "\(name)")
        }
    }
}
