import Testing
@testable import MediaPolicy

/// `forwardRequestHeaders` (hardening item 6): client fields an image tier passes to its origin.
@Suite struct ForwardedFieldsPolicyTests: TierPolicyTesting {
    static let allowed = #"allowed: an array of at most 16 distinct field names (RFC 9110 tokens) other than Authorization, Cookie, Host, Content-Length, Expect and hop-by-hop fields, e.g. ["Accept-Language"]"#

    @Test func namesAreKeptInPolicyOrderAndDefaultToNone() throws {
        let set = try PolicyFixture.load(PolicyFixture.tierPolicy(#"{ "storage": "memory", "forwardRequestHeaders": ["Accept-Language", "X_Tenant"] }"#))
        #expect(set.tiers["t"]?.forwardRequestHeaders == ["Accept-Language", "X_Tenant"])
        #expect(set.forwardedUnderscoreNames == ["x_tenant"])
        let plain = try PolicyFixture.load(PolicyFixture.tierPolicy(#"{ "storage": "memory" }"#))
        #expect(plain.tiers["t"]?.forwardRequestHeaders == [])
        #expect(plain.forwardedUnderscoreNames == [])
    }

    @Test(arguments: [
        ("Authorization", "Authorization follows the tier's credentials (forward or bearer-required), not forwardRequestHeaders"),
        ("cookie", "a cookie is one user's and never reaches an origin"),
        ("HOST", "Host names the origin and is set from the route"),
        ("Connection", "Connection is hop-by-hop (RFC 9110 §7.6.1)"),
        ("Proxy-Authorization", "Proxy-* fields are hop-by-hop"),
        ("Transfer-Encoding", "Transfer-Encoding frames one message"),
    ])
    func fieldsThatCannotBeForwardedNameTheReason(_ name: String, _ reason: String) {
        #expect(messages(#"{ "storage": "memory", "forwardRequestHeaders": ["Accept", "\#(name)"] }"#) == [
            #"Policies/test.json: tiers.t.forwardRequestHeaders[1]: "\#(name)" cannot be forwarded: \#(reason); \#(Self.allowed)"#,
        ])
    }

    @Test func shapesAndDuplicates() {
        #expect(messages(#"{ "storage": "memory", "forwardRequestHeaders": "Accept" }"#) == [
            #"Policies/test.json: tiers.t.forwardRequestHeaders: "Accept" is a string; \#(Self.allowed)"#,
        ])
        #expect(messages(#"{ "storage": "memory", "forwardRequestHeaders": ["Accept", "accept"] }"#) == [
            #"Policies/test.json: tiers.t.forwardRequestHeaders[1]: "accept" is listed twice; \#(Self.allowed)"#,
        ])
        #expect(messages(#"{ "storage": "memory", "forwardRequestHeaders": ["Accept Language"] }"#) == [
            #"Policies/test.json: tiers.t.forwardRequestHeaders[0]: "Accept Language" is not a field name; \#(Self.allowed)"#,
        ])
        let seventeen = (0..<17).map { "\"X-F\($0)\"" }.joined(separator: ", ")
        #expect(messages(#"{ "storage": "memory", "forwardRequestHeaders": [\#(seventeen)] }"#).first?
            .hasPrefix("Policies/test.json: tiers.t.forwardRequestHeaders: 17 entries are more than 16; ") == true)
    }
}
