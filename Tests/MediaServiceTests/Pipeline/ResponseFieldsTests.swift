import HTTPCaching
import MediaService
import MediaTestSupport
import Testing

/// Step 9 (respond): which fields clients receive, client conditionals, internal endpoints.
@Suite struct ResponseFieldsTests {
    /// A `["*/*"]` shared tier (no image validation) next to the default ones.
    static let rawPolicy = """
    { "tiers": {
        "public": { "storage": "disk", "cache": "shared", "credentials": "strip", "maxTTL": 31536000 },
        "raw":    { "storage": "memory", "cache": "shared", "credentials": "strip", "maxTTL": 3600, "contentTypes": ["*/*"] } },
      "routes": [
        { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "public" },
        { "name": "raw",     "mount": "/raw/",     "origin": "http://origin.test/raw/",     "tier": "raw" } ] }
    """

    @Test func c08OriginSetCookieNeverReachesAnyClient() async throws {
        let harness = try PipelineHarness(policyJSON: Self.rawPolicy)
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        for (url, body) in [("http://origin.test/raw/doc.txt", Array("plain".utf8)), ("http://origin.test/catalog/h.jpg", jpeg)] {
            harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600, private=\"Set-Cookie\"",
                                                   "Set-Cookie": "sid=S1; Path=/"], body: body), for: url)
        }
        for path in ["/raw/doc.txt", "/catalog/h.jpg"] {
            let first = await harness.get(path)
            let second = await harness.get(path)
            #expect(second.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
            for response in [first, second] {
                #expect(response.status == 200)
                #expect(response.fields["Set-Cookie"] == nil)
                #expect(!response.fields.description.contains("S1"))
            }
        }
    }

    @Test func varyOfTheOriginIsPassedDownstream() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let origin = harness.origin
        origin.setReply(.init(fields: ["Cache-Control": "max-age=600", "Vary": "Accept"],
                              body: try Fixtures.bytes("catalog/coffee.webp")), for: "http://origin.test/catalog/c")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=600", "Vary": "Accept"],
                              body: PipelineSupport.markedPNG("MARK-U1")), for: "http://origin.test/receipts/c")
        let miss = await harness.get("/catalog/c", [("Accept", "image/webp")])
        let hit = await harness.get("/catalog/c", [("Accept", "image/webp")])
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=600")
        for response in [miss, hit] {
            #expect(response.fields.values(for: "Vary") == ["Accept"])
            #expect(response.fields["Cache-Control"] == "public, max-age=31536000, immutable")
        }
        let receipt = await harness.get("/receipts/c", [("Accept", "image/webp"), ("Authorization", "Bearer t1")])
        #expect(receipt.fields.listValues(for: "Vary").map(String.init).sorted() == ["Accept", "Authorization"])
    }

    @Test func clientIfModifiedSinceIsAnsweredNotModified() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600", "Last-Modified": "Sun, 01 Nov 2026 00:00:00 GMT"],
                                      body: try Fixtures.bytes("catalog/horse-d29d871c.jpg")), for: "http://origin.test/catalog/h.jpg")
        _ = await harness.get("/catalog/h.jpg")
        let notModified = await harness.get("/catalog/h.jpg", [("If-Modified-Since", "Mon, 02 Nov 2026 00:00:00 GMT")])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.fields["Content-Type"] == nil)
        #expect(notModified.fields["Last-Modified"] == "Sun, 01 Nov 2026 00:00:00 GMT")
        #expect(notModified.fields["Cache-Status"] == "mediactl; hit; ttl=600")
        let modified = await harness.get("/catalog/h.jpg", [("If-Modified-Since", "Sat, 31 Oct 2026 00:00:00 GMT")])
        #expect(modified.status == 200)
        #expect(harness.origin.totalCallCount == 1)
        #expect(harness.origin.requests[0].fields["If-Modified-Since"] == nil)
    }

    /// Validators, language, `Vary` and CORS/resource-policy fields pass; nothing else of the origin's.
    @Test func imageTiersSendOnlyTheSafeOriginFields() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: [
            "Cache-Control": "max-age=600", "ETag": "\"e\"", "Content-Type": "text/html", "X-Powered-By": "php",
            "Content-Disposition": "inline; filename=x.html", "Access-Control-Allow-Origin": "*", "Server": "origin/1",
        ], body: try Fixtures.bytes("catalog/horse-d29d871c.jpg")), for: "http://origin.test/catalog/h.jpg")
        let response = await harness.get("/catalog/h.jpg")
        #expect(Set(response.fields.map { $0.name.lowercased() }) == [
            "etag", "content-type", "age", "cache-control", "x-content-type-options", "cache-status", "content-length",
            "access-control-allow-origin", "accept-ranges",
        ])
        #expect(response.fields["Content-Type"] == "image/jpeg")
    }

    @Test func healthEndpointIsJSON() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let health = await harness.get("/_mediactl/health")
        #expect(health.status == 200)
        #expect(health.text == "{\"routes\":[\"catalog\",\"avatars\",\"receipts\",\"one-time\"],\"status\":\"ok\",\"tiers\":[\"avatar\",\"no-store\",\"private\",\"public\"]}\n")
        #expect(health.fields["Content-Type"] == "application/json")
        #expect(health.fields["Cache-Control"] == "no-store")
    }

    @Test func metricsCountWhatHappened() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: jpeg), for: "http://origin.test/catalog/h.jpg")
        harness.origin.setReply(.init(body: try Fixtures.bytes("hostile/script.svg")), for: "http://origin.test/catalog/s.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: jpeg), for: "http://origin.test/receipts/r.jpg")
        _ = await harness.get("/catalog/h.jpg")
        _ = await harness.get("/catalog/h.jpg")
        _ = await harness.get("/catalog/s.jpg")
        harness.clock.advance(61)
        _ = await harness.get("/catalog/h.jpg")
        _ = await harness.get("/receipts/r.jpg", [("Authorization", "Bearer t1")])
        _ = try harness.service.purge(.credential(try BearerToken(token: "t1")))
        let metrics = await harness.get("/_mediactl/metrics")
        let diskFiles = harness.filesUnderState().filter { $0.path.hasPrefix("disk/public/") }
        #expect(diskFiles.count == 1)
        let diskBytes = diskFiles.reduce(0) { $0 + $1.bytes.count }
        #expect(diskBytes > jpeg.count)
        #expect(metrics.fields["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        let lines = Set(metrics.text.split(separator: "\n").map(String.init))
        for expected in [
            // The stale copy has no validator: it is fetched again (a miss), not revalidated.
            "mediactl_hits_total{tier=\"public\"} 1", "mediactl_misses_total{tier=\"public\"} 3",
            "mediactl_revalidations_total{tier=\"public\"} 0", "mediactl_stored_total{tier=\"public\"} 2",
            "mediactl_refused_total{tier=\"public\"} 1", "mediactl_skipped_total{tier=\"public\"} 0",
            "mediactl_misses_total{tier=\"private\"} 1", "mediactl_stored_total{tier=\"private\"} 1",
            "mediactl_purged_total{tier=\"private\"} 1", "mediactl_hits_total{tier=\"avatar\"} 0",
            // The disk gauge counts file bytes (body plus the stored head).
            "mediactl_stored_bytes{tier=\"public\",store=\"disk\"} \(diskBytes)",
            "mediactl_stored_bytes{tier=\"private\",store=\"memory\"} 0",
            "# TYPE mediactl_hits_total counter",
            "# HELP mediactl_hits_total Requests answered from a stored response (fresh, or stale where allowed).",
            "# HELP mediactl_refused_total Origin answers refused before storage (not an image, corrupt, over a limit, a redirect, an error), audited skip; requests refused at admission (400, 401, 404) are not counted.",
        ] {
            #expect(lines.contains(expected), "missing \(expected)")
        }
    }
}
