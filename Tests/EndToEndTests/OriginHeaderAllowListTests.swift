import Foundation
import Testing

/// Hardening item 6 against the built binary and a real nginx origin that reads fields the way CGI, WSGI, PHP and
/// Rack do (`underscores_in_headers on`: `X_Forwarded_Host` is `$http_x_forwarded_host`): image tiers send an
/// allow-list (docs/policy-format.md, "What reaches the origin"), names with `_` are refused at the parser unless a
/// tier forwards them, generic tiers keep forwarding end-to-end fields.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct OriginHeaderAllowListTests {
    static let logFormat = """
    log_format fields '$request_uri ua=$http_user_agent xfh=$http_x_forwarded_host xrip=$http_x_real_ip \
    cip=$http_client_ip tcip=$http_true_client_ip xou=$http_x_original_url xf=$http_x_forwarded \
    xoh=$http_x_original_host xhm=$http_x_http_method xmo=$http_x_method_override xoip=$http_x_originating_ip \
    xrmip=$http_x_remote_ip xra=$http_x_remote_addr xcia=$http_x_custom_ip_authorization ref=$http_referer \
    acc=$http_accept al=$http_accept_language ten=$http_x_tenant cookie=$http_cookie';
    """
    static let serverConfig = """
    underscores_in_headers on;
    location /fields/ {
        access_log fields.log fields;
        add_header Cache-Control "public, max-age=600";
        add_header Vary "Accept-Language";
        rewrite ^/fields/(.*)$ /catalog/$1 break;
    }
    """

    static func policy(_ base: String) -> String {
        """
        { "tiers": {
            "public": { "storage": "memory", "cache": "shared" },
            "tenant": { "storage": "memory", "cache": "shared", "forwardRequestHeaders": ["X_Tenant", "Accept-Language"] },
            "generic": { "storage": "memory", "cache": "shared", "contentTypes": ["*/*"] } },
          "routes": [
            { "name": "images", "mount": "/images/", "origin": "\(base)/fields/", "tier": "public" },
            { "name": "tenants", "mount": "/tenants/", "origin": "\(base)/fields/", "tier": "tenant" },
            { "name": "files", "mount": "/files/", "origin": "\(base)/fields/", "tier": "generic" } ] }
        """
    }

    /// The origin's lines for the requests so far (nginx writes a line after the last byte is sent).
    static func originLines(_ world: ServeEnvironment, count: Int) -> [String] {
        let url = world.origin.prefix.appendingPathComponent("fields.log")
        let deadline = Date().addingTimeInterval(5)
        var lines: [String] = []
        repeat {
            lines = ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if lines.count >= count { break }
            usleep(5_000)
        } while Date() < deadline
        return lines
    }

    static let clean = "ua=mediactl/0.1.0 xfh=- xrip=- cip=- tcip=- xou=- xf=- xoh=- xhm=- xmo=- xoip=- xrmip=- xra=- xcia=- ref=-"

    /// Every field of the security test's list, `-` spelled: none reaches the origin of an image tier, nor do
    /// `Referer`, `Accept`, `Accept-Language`, `Cookie` or the client's `User-Agent`.
    static let dashed = [
        ("X-Real-IP", "10.0.0.2"), ("Client-IP", "10.0.0.3"), ("True-Client-IP", "10.0.0.4"), ("X-Original-URL", "/admin"),
        ("X-Forwarded", "for=10.0.0.5"), ("X-Original-Host", "evil.example"), ("X-HTTP-Method", "DELETE"),
        ("X-Method-Override", "DELETE"), ("X-Originating-IP", "10.0.0.6"), ("X-Remote-IP", "10.0.0.7"),
        ("X-Remote-Addr", "10.0.0.8"), ("X-Custom-IP-Authorization", "127.0.0.1"), ("Referer", "https://app.example/r"),
        ("Accept", "image/avif"), ("Accept-Language", "de"), ("Cookie", "sid=S1"), ("User-Agent", "evil/1"),
        ("X-Forwarded-Host", "evil.example"),
    ]

    @Test func imageTiersSendOnlyTheirAllowList() throws {
        let world = try ServeEnvironment(originServerConfig: Self.serverConfig, originHTTPConfig: Self.logFormat,
                                         policy: Self.policy)
        defer { world.tearDown() }
        try world.start()
        let response = try world.get("/images/horse-d29d871c.jpg", headers: Self.dashed)
        #expect(response.status == 200)
        #expect(Self.originLines(world, count: 1)
                == ["/fields/horse-d29d871c.jpg \(Self.clean) acc=- al=- ten=- cookie=-"])
    }

    @Test(arguments: ["X_Forwarded_Host", "X_Real_IP", "Client_IP", "True_Client_IP", "X_Original_URL", "x_forwarded_host"])
    func underscoreNamesAreRefusedUnlessATierForwardsThem(_ name: String) throws {
        let world = try ServeEnvironment(originServerConfig: Self.serverConfig, originHTTPConfig: Self.logFormat,
                                         policy: Self.policy)
        defer { world.tearDown() }
        try world.start()
        for target in ["/images/horse-d29d871c.jpg", "/tenants/horse-d29d871c.jpg", "/files/horse-d29d871c.jpg"] {
            let response = try world.get(target, headers: [(name, "evil.example")])
            #expect(response.status == 400)
            #expect(response.problemCode == "invalid-field-name")
            #expect(response.problemDetail == "field name with '_' (CGI-style origins read it as '-')")
        }
        #expect(Self.originLines(world, count: 0) == [])
    }

    @Test func aTierForwardsWhatItNamesUnderscoresIncluded() throws {
        let world = try ServeEnvironment(originServerConfig: Self.serverConfig, originHTTPConfig: Self.logFormat,
                                         policy: Self.policy)
        defer { world.tearDown() }
        try world.start()
        let tenant = try world.get("/tenants/horse-d29d871c.jpg",
                                   headers: [("X_Tenant", "acme"), ("Accept-Language", "de"), ("X-Real-IP", "10.0.0.2")])
        #expect(tenant.status == 200)
        // The other tiers refuse nothing the tenant tier forwards, but do not send it.
        let image = try world.get("/images/horse-d29d871c.jpg", headers: [("X_Tenant", "acme"), ("Accept-Language", "de")])
        #expect(image.status == 200)
        #expect(Self.originLines(world, count: 2) == [
            "/fields/horse-d29d871c.jpg \(Self.clean) acc=- al=de ten=acme cookie=-",
            "/fields/horse-d29d871c.jpg \(Self.clean) acc=- al=- ten=- cookie=-",
        ])
    }

    /// RFC 9110 §7.6: a generic (`*/*`) tier is a proxy and forwards end-to-end fields (docs/conformance-mode.md).
    @Test func genericTiersForwardEndToEndFields() throws {
        let world = try ServeEnvironment(originServerConfig: Self.serverConfig, originHTTPConfig: Self.logFormat,
                                         policy: Self.policy)
        defer { world.tearDown() }
        try world.start()
        let response = try world.get("/files/horse-d29d871c.jpg",
                                     headers: [("X-Original-Host", "a.example"), ("Accept-Language", "fr"), ("User-Agent", "app/2")])
        #expect(response.status == 200)
        #expect(Self.originLines(world, count: 1) == [
            "/fields/horse-d29d871c.jpg ua=app/2 xfh=- xrip=- cip=- tcip=- xou=- xf=- xoh=a.example xhm=- xmo=- xoip=- "
                + "xrmip=- xra=- xcia=- ref=- acc=- al=fr ten=- cookie=-",
        ])
    }

    @Test func policyCheckWarnsThatForwardedFieldsAreUnkeyedWithoutVary() throws {
        let world = try ServeEnvironment(policy: Self.policy)
        defer { world.tearDown() }
        let result = try MediactlProcess.run(["policy", "check", "--policies", world.policiesDirectory.path])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("        forwardRequestHeaders: X_Tenant Accept-Language\n"))
        #expect(result.stderr == """
        mediactl: warning: tier tenant forwards X_Tenant to its origin: unkeyed unless the origin's answers list it in Vary
        mediactl: warning: tier tenant forwards Accept-Language to its origin: unkeyed unless the origin's answers list it in Vary

        """)
    }
}
