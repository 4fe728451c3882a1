import Testing

@testable import MediaCTL

@Suite struct SuggestionTests {
    @Test func distances() {
        #expect(Suggestion.distance("", "") == 0)
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("serve", "serve") == 0)
        #expect(Suggestion.distance("serv", "serve") == 1)
        #expect(Suggestion.distance("--state-dri", "--state-dir") == 1)
        #expect(Suggestion.distance("purg", "purge") == 1)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("ca", "abc") == 3)
    }

    @Test func nearest() {
        let commands = ["serve", "demo", "fetch", "inspect", "audit", "policy", "purge", "help"]
        #expect(Suggestion.nearest(to: "serv", in: commands) == "serve")
        #expect(Suggestion.nearest(to: "fecth", in: commands) == "fetch")
        #expect(Suggestion.nearest(to: "polcy", in: commands) == "policy")
        #expect(Suggestion.nearest(to: "inpsect", in: commands) == "inspect")
        #expect(Suggestion.nearest(to: "frobnicate", in: commands) == nil)
        #expect(Suggestion.nearest(to: "xyz", in: commands) == nil)
        #expect(Suggestion.nearest(to: "hel", in: commands) == "help")
    }

    @Test func shortWordsNeedACloserMatch() {
        #expect(Suggestion.nearest(to: "ab", in: ["abcd"]) == nil)
        #expect(Suggestion.nearest(to: "abc", in: ["abcd"]) == "abcd")
        #expect(Suggestion.nearest(to: "abcd", in: ["abcdef"]) == "abcdef")
    }

    @Test func tiesGoToTheEarlierCandidate() {
        #expect(Suggestion.nearest(to: "pure", in: ["purge", "pure2"]) == "purge")
        #expect(Suggestion.nearest(to: "pure", in: ["pure2", "purge"]) == "pure2")
    }
}
