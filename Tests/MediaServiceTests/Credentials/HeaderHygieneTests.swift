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
}
