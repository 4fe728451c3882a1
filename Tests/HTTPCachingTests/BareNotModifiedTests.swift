@testable import HTTPCaching
import MediaCore
import Testing

/// A 304 without validators answering a conditional request the cache generated for exactly one stored
/// response updates that response (RFC 9111 §4.3.3–4.3.4, RFC 9110 §13.1; issue "HTTP caching conformance,
/// round 2", item 1).
@Suite struct BareNotModifiedTests {
    let t0 = Fixture.t0

    @Test func theOneResponseAskedAboutIsSelected() {
        let a = Fixture.stored([("ETag", "\"a1\""), ("Cache-Control", "max-age=2, must-revalidate")])
        let conditional = ConditionalRequest.fields(candidates: [a], validating: 0)
        #expect(conditional["If-None-Match"] == "\"a1\"")
        let asked = ConditionalRequest.validated(candidates: [a], by: conditional)
        #expect(asked == 0)
        #expect(NotModified.select([a], for: [:], validating: asked) == [0])
        // Without knowing what was asked, a bare 304 selects nothing for a response that has a validator.
        #expect(NotModified.select([a], for: [:]) == [])
    }

    @Test func secondaryKeyedResponsesAskedAboutOneByOne() {
        // Two stored responses (Vary: Abc) with distinct tags: the conditional lists both, so a bare 304 is ambiguous.
        let a = Fixture.stored([("ETag", "\"a1\""), ("Vary", "Abc")]), b = Fixture.stored([("ETag", "\"b1\""), ("Vary", "Abc")])
        let both = ConditionalRequest.fields(candidates: [a, b], validating: 0)
        #expect(both["If-None-Match"] == "\"a1\", \"b1\"")
        #expect(ConditionalRequest.validated(candidates: [a, b], by: both) == nil)
        #expect(NotModified.select([a, b], for: [:], validating: nil) == [])
        // One tag listed: that response.
        #expect(ConditionalRequest.validated(candidates: [a, b], by: ["If-None-Match": "\"b1\""]) == 1)
        #expect(ConditionalRequest.validated(candidates: [a, b], by: ["If-None-Match": "W/\"b1\""]) == 1)
    }

    @Test func lastModifiedOnlyConditionalNamesItsResponse() {
        let lm = HTTPDate.format(t0 - 1000)
        let a = Fixture.stored([("Last-Modified", lm)])
        let conditional = ConditionalRequest.fields(candidates: [a], validating: 0)
        #expect(conditional["If-Modified-Since"] == lm)
        #expect(ConditionalRequest.validated(candidates: [a], by: conditional) == 0)
        #expect(ConditionalRequest.validated(candidates: [a], by: [:]) == nil)
    }

    @Test func validatorsOnThe304StillDecide() {
        let a = Fixture.stored([("ETag", "\"a1\"")])
        // A 304 naming another tag selects nothing even when the cache asked about `a` (case C14).
        #expect(NotModified.select([a], for: ["ETag": "\"zz\""], validating: 0) == [])
        #expect(NotModified.select([a], for: ["ETag": "\"a1\""], validating: 0) == [0])
    }
}
