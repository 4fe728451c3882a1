import MediaService
import Testing

/// `Cache-Status` values (RFC 9211) as written byte by byte: same text as the parts joined with "; ".
@Suite struct CacheStatusTests {
    @Test func everyPartInOrder() {
        var status = CacheStatus(hit: true, forward: .stale, forwardStatus: 304, ttl: -42, stored: true, detail: "memory")
        status.collapsed = true
        #expect(status.description == "mediactl; hit; fwd=stale; fwd-status=304; ttl=-42; stored; collapsed; detail=memory")
    }

    @Test func commonForms() {
        #expect(CacheStatus(forward: .uriMiss, forwardStatus: 200, ttl: 31_536_000, stored: true, detail: "memory").description
                == "mediactl; fwd=uri-miss; fwd-status=200; ttl=31536000; stored; detail=memory")
        #expect(CacheStatus(hit: true, ttl: 0).description == "mediactl; hit; ttl=0")
        #expect(CacheStatus(forward: .varyMiss, detail: "no-store").description == "mediactl; fwd=vary-miss; detail=no-store")
        #expect(CacheStatus(ttl: Int64.min).description == "mediactl; ttl=-9223372036854775808")
        #expect(CacheStatus(ttl: Int64.max).description == "mediactl; ttl=9223372036854775807")
        var renamed = CacheStatus(forward: .request)
        renamed.cacheName = "edge"
        #expect(renamed.description == "edge; fwd=request")
    }
}
