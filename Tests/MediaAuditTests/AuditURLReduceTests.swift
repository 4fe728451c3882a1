@testable import MediaAudit
import Testing

/// The byte-level reduction of plain URLs against the `URLComponents` one it short-cuts.
@Suite struct AuditURLReduceTests {
    static let plain = [
        "http://origin.test/catalog/miss-0-1.jpg",
        "https://img.example/catalog/a.jpg?v=2",
        "https://IMG.Example:8443/Catalog/A.JPG?token=secret&sig=1#frag",
        "http://127.0.0.1:8081",
        "http://127.0.0.1:8081/",
        "http://h",
        "http://h?x=1",
        "http://h#f",
        "http://h:0/x",
        "http://h:65535/x",
        "https://h/a/b/c;p=1/d!$&'()*+,=:@~_-.e",
        "https://h/a?b=c/d?e#f?g/h",
        "http://a-b.c-d.example/x//y/",
    ]

    static let other = [
        "HTTP://h/x", "Https://h/x", "ftp://h/x", "http:/h/x", "http://", "http:///x", "http://user:pw@h/x",
        "http://[::1]:8081/x", "http://h/a%20b", "http://h/a b", "http://h/a\"b", "http://h/a#b#c",
        "http://h:/x", "http://h:08080/x", "http://h:65536/x", "http://h:123456/x", "http://h:80a/x",
        "http://h/[x]", "http://h_x/y", "http://h/é", "http://h/a<b", "http://h/a\\b", "http://h/a|b",
        "https://user:pw@IMG.example:8443/catalog/a%20b.jpg?token=secret&sig=1#frag", "",
    ]

    @Test func plainURLsAreReducedLikeURLComponents() throws {
        for url in Self.plain {
            let quick = try #require(AuditURL.reducedQuickly(url), "\(url)")
            #expect(quick == (try AuditURL.reducedByURLComponents(url)), "\(url)")
        }
        #expect(AuditURL.reducedQuickly("https://IMG.Example:8443/Catalog/A.JPG?token=secret#frag")
            == "https://img.example:8443/Catalog/A.JPG")
        #expect(AuditURL.reducedQuickly("http://127.0.0.1:8081") == "http://127.0.0.1:8081/")
        #expect(AuditURL.reducedQuickly("http://h?x=1") == "http://h/")
    }

    @Test func otherURLsTakeTheURLComponentsPath() {
        for url in Self.other { #expect(AuditURL.reducedQuickly(url) == nil, "\(url)") }
    }

    @Test func initGivesTheSameValueEitherWay() throws {
        for url in Self.plain + Self.other {
            let slow = try? AuditURL(reduced: AuditURL.reducedByURLComponents(url))
            #expect((try? AuditURL(url)) == slow, "\(url)")
        }
    }
}
