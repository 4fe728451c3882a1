import HTTPCaching
import MediaCore
import MediaService
import Testing

@Suite struct HeaderHygieneTests {
    static let client = HTTPFields([
        ("Host", "mediactl.local"),
        ("Accept", "image/avif,image/*"),
        ("X-Forwarded-Host", "evil.example"),
        ("x-forwarded-for", "10.0.0.1"),
        ("Forwarded", "host=evil.example"),
        ("Cookie", "sid=S1"),
        ("Authorization", "Bearer t1"),
        ("Connection", "keep-alive, X-Secret-Hop"),
        ("X-Secret-Hop", "1"),
        ("Keep-Alive", "timeout=5"),
        ("TE", "trailers"),
        ("Transfer-Encoding", "chunked"),
        ("Proxy-Authorization", "Basic eDp5"),
        ("X-Real-IP", "10.0.0.2"),
        ("X-Original-URL", "/admin"),
        ("X-Original-Host", "evil.example"),
        ("X-Method-Override", "DELETE"),
        ("X-Custom-IP-Authorization", "127.0.0.1"),
        ("Cache-Control", "no-cache"),
        ("User-Agent", "app/1.0"),
        ("Accept-Language", "de"),
        ("Referer", "https://app.example/"),
        ("Content-Type", "image/png"),
        ("Pragma", "no-cache"),
    ])

    /// C06 and hardening item 6: an allow-list, so names no deny-list foresaw stay with mediactl too.
    @Test func imageTiersPassOnlyCacheDirectivesAndTheirOwnUserAgent() {
        let out = HeaderHygiene.originRequestFields(from: Self.client, forwardAuthorization: false)
        #expect(out == HTTPFields([("Cache-Control", "no-cache"), ("Pragma", "no-cache"), ("User-Agent", "mediactl/0.1.0")]))
    }

    @Test func bearerTiersKeepAuthorization() {
        let out = HeaderHygiene.originRequestFields(from: Self.client, forwardAuthorization: true)
        #expect(out == HTTPFields([("Authorization", "Bearer t1"), ("Cache-Control", "no-cache"), ("Pragma", "no-cache"),
                                   ("User-Agent", "mediactl/0.1.0")]))
    }

    @Test func forwardedNamesPassInAnyCaseAndUserAgentWhenNamed() {
        let out = HeaderHygiene.originRequestFields(from: Self.client, forwardAuthorization: false,
                                                    forwarding: ["accept-language", "USER-AGENT", "X-Absent"])
        #expect(out == HTTPFields([("Cache-Control", "no-cache"), ("User-Agent", "app/1.0"), ("Accept-Language", "de"),
                                   ("Pragma", "no-cache")]))
    }

    @Test func aNameTheConnectionListsNeverPassesEvenWhenForwarded() {
        let out = HeaderHygiene.originRequestFields(from: Self.client, forwardAuthorization: false, forwarding: ["x-secret-hop"])
        #expect(out == HTTPFields([("Cache-Control", "no-cache"), ("Pragma", "no-cache"), ("User-Agent", "mediactl/0.1.0")]))
        let listed = HTTPFields([("Connection", "Authorization"), ("Authorization", "Bearer t")])
        #expect(HeaderHygiene.originRequestFields(from: listed, forwardAuthorization: true)
                == HTTPFields([("User-Agent", "mediactl/0.1.0")]))
    }

    @Test func aRequestBodyKeepsItsOwnMetadata() {
        let client = HTTPFields([("Content-Type", "image/png"), ("Content-Encoding", "gzip"), ("Content-Language", "de"),
                                 ("Content-Length", "5"), ("X-Real-IP", "1")])
        #expect(HeaderHygiene.originRequestFields(from: client, forwardAuthorization: false, carriesBody: true)
                == HTTPFields([("Content-Type", "image/png"), ("Content-Encoding", "gzip"), ("Content-Language", "de"),
                               ("User-Agent", "mediactl/0.1.0")]))
        #expect(HeaderHygiene.originRequestFields(from: client, forwardAuthorization: false)
                == HTTPFields([("User-Agent", "mediactl/0.1.0")]))
    }

    @Test func mixedCaseAuthorization() {
        let client = HTTPFields([("Accept", "image/*"), ("AUTHORIZATION", "Bearer t")])
        #expect(HeaderHygiene.originRequestFields(from: client, forwardAuthorization: false) == HTTPFields([("User-Agent", "mediactl/0.1.0")]))
        #expect(HeaderHygiene.originRequestFields(from: client, forwardAuthorization: true)
                == HTTPFields([("AUTHORIZATION", "Bearer t"), ("User-Agent", "mediactl/0.1.0")]))
    }
}
