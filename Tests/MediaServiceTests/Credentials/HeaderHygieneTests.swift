import HTTPCaching
import MediaService
import Testing

@Suite struct HeaderHygieneTests {
    static let client = HTTPFields([
        ("Host", "mediactl.local"),
        ("Accept", "image/avif,image/*"),
        ("X-Forwarded-Host", "evil.example"),
        ("x-forwarded-for", "10.0.0.1"),
        ("X-Forwarded-Proto", "https"),
        ("Forwarded", "host=evil.example"),
        ("Cookie", "sid=S1"),
        ("Authorization", "Bearer t1"),
        ("Connection", "keep-alive, X-Secret-Hop"),
        ("X-Secret-Hop", "1"),
        ("Keep-Alive", "timeout=5"),
        ("TE", "trailers"),
        ("Trailer", "X-Checksum"),
        ("Transfer-Encoding", "chunked"),
        ("Upgrade", "websocket"),
        ("Proxy-Authorization", "Basic eDp5"),
        ("Proxy-Connection", "keep-alive"),
        ("X-Real-IP", "10.0.0.2"),
        ("X-Original-URL", "/admin"),
        ("X-HTTP-Method-Override", "DELETE"),
        ("User-Agent", "app/1.0"),
        ("Accept-Language", "de"),
    ])

    @Test func caseC06ForwardingHeadersAreDroppedAndAuthorizationStripped() {
        let out = HeaderHygiene.originRequestFields(from: Self.client, forwardAuthorization: false)
        #expect(out == HTTPFields([("Accept", "image/avif,image/*"), ("User-Agent", "app/1.0"), ("Accept-Language", "de")]))
    }

    @Test func bearerTiersKeepAuthorization() {
        let out = HeaderHygiene.originRequestFields(from: Self.client, forwardAuthorization: true)
        #expect(out == HTTPFields([("Accept", "image/avif,image/*"), ("Authorization", "Bearer t1"),
                                   ("User-Agent", "app/1.0"), ("Accept-Language", "de")]))
    }

    @Test func isDroppedIsCaseInsensitive() {
        #expect(HeaderHygiene.isDropped("X-FORWARDED-PORT"))
        #expect(HeaderHygiene.isDropped("proxy-anything"))
        #expect(HeaderHygiene.isDropped("COOKIE"))
        #expect(!HeaderHygiene.isDropped("Accept"))
        #expect(!HeaderHygiene.isDropped("X-Forwarded"))
        #expect(!HeaderHygiene.isDropped("If-None-Match"))
    }

    @Test func everyDroppedNameInAnyASCIICaseAndOnlyThose() {
        for name in HeaderHygiene.droppedNames {
            #expect(HeaderHygiene.isDropped(name.uppercased()))
            #expect(HeaderHygiene.isDropped(name))
            #expect(!HeaderHygiene.isDropped(name + "s") || name.hasPrefix("proxy-"))
        }
        #expect(HeaderHygiene.isDropped("Proxy-"))
        #expect(!HeaderHygiene.isDropped("Proxy"))
        #expect(!HeaderHygiene.isDropped(""))
    }

    @Test func nonASCIINamesFollowUnicodeLowerCasing() {
        // U+212A KELVIN SIGN lower-cases to `k`: the rule (lower-case, then compare) drops it, as before.
        #expect(HeaderHygiene.isDropped("\u{212A}eep-Alive"))
        #expect(HeaderHygiene.isDropped("Proxy-\u{E9}"))
        #expect(!HeaderHygiene.isDropped("H\u{F6}st"))
        let out = HeaderHygiene.originRequestFields(
            from: HTTPFields([("\u{212A}eep-Alive", "1"), ("\u{C4}-Option", "2"), ("Connection", "\u{C4}-OPTION")]),
            forwardAuthorization: false)
        #expect(out == HTTPFields())
    }

    @Test func connectionListedNamesAndAuthorizationInMixedCase() {
        let client = HTTPFields([("Accept", "image/*"), ("Connection", "X-Hop"), ("x-HOP", "1"), ("AUTHORIZATION", "Bearer t")])
        #expect(HeaderHygiene.originRequestFields(from: client, forwardAuthorization: false) == HTTPFields([("Accept", "image/*")]))
        #expect(HeaderHygiene.originRequestFields(from: client, forwardAuthorization: true)
                == HTTPFields([("Accept", "image/*"), ("AUTHORIZATION", "Bearer t")]))
        let clean = HTTPFields([("Accept", "image/*"), ("User-Agent", "app/1")])
        #expect(HeaderHygiene.originRequestFields(from: clean, forwardAuthorization: false) == clean)
    }
}

