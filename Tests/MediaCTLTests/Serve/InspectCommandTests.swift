import MediaTestSupport
import Foundation
import MediaTransform
import Testing

@testable import MediaCTL

/// `mediactl inspect URL` against the demo's origin (no `Date` field, so ages are exact).
@Suite struct InspectCommandTests {
    /// `inspect` with a fixed clock, so the request and response times are the same second.
    static var environment: CommandEnvironment {
        CommandEnvironment(clock: .fixed(at: Date().timeIntervalSince1970.rounded(.down)))
    }

    /// The lines that explain the default tiers' `variants` (docs/variants.md).
    /// `served` is the `served widths:` line's text for the source's width.
    static func variantLines(served: String) -> String {
        """
        variants:         widths 72 144 288 576 1152, formats jpeg webp avif png, maxDpr 3, quality jpeg 80 webp 85 avif 70 jxl 80, maxOutputPixels 1327104, maxAVIFWidth 576
                          ?w=N[&h=N][&fit=inside|cover[&gravity=centre|attention|entropy]][&dpr=N][&q=N][&fmt=jpeg|webp|avif|png|auto]; \(VipsRuntime.canSaveAVIF ? "AVIF available" : "AVIF unavailable here: avif falls back to webp")
        served widths:    \(served)

        """
    }

    @Test func catalogImageExplainsHeadersFreshnessRouteAndDecision() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = try origin.writePolicies(in: directory)
        let url = origin.base + "/catalog/coffee-237a7131.jpg"
        let run = await CLIRun.run(["inspect", url, "--policies", policies], using: Self.environment)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout == """
                GET \(url)
                status: 200 OK, 15996 bytes

                origin cache headers:
                  Cache-Control:  public, max-age=31536000, immutable
                  ETag:           "237a71317caaaa45"
                  Last-Modified:  -
                  Expires:        -
                  Vary:           -
                  Age:            -
                  Date:           -

                freshness (RFC 9111 §4.2):
                  shared cache:   31536000 s (max-age)
                  private cache:  31536000 s (max-age)
                  current age:    0 s

                route:            catalog (mount /catalog/, origin \(origin.base)/catalog/)
                tier:             public (storage disk, cache shared, credentials strip, maxTTL 31536000 s)
                body:             image/jpeg 256x256, 15996 bytes
                RFC 9111 §3:      storable in a shared cache, 31536000 s of freshness left
                decision:         disk, ttl 31536000 s (reason tier-storage)
                  rfc9111: disk ttl=31536000 rfc9111-storable
                  tier: disk ttl=31536000 tier-storage

                """ + Self.variantLines(served: "72 144 256 (288, 576, 1152 are wider than the source: 256, never enlarged)")
                + "variant storage:  disk at most, as its source (never wider, same partition, expires with it)\n")
        await origin.stop()
    }

    @Test func avatarAndNoStoreDecisions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = try origin.writePolicies(in: directory)
        let avatar = await CLIRun.run(
            ["inspect", origin.base + "/avatars/u1001.jpg", "--policies", policies], using: Self.environment)
        #expect(avatar.stdout.contains("\n  shared cache:   60 s (max-age)\n"))
        #expect(avatar.stdout.hasSuffix(
            "decision:         disk, ttl 60 s (reason tier-storage)\n  rfc9111: disk ttl=60 rfc9111-storable\n  tier: disk ttl=60 tier-storage\n"
                + "metadata:         strip (the original is served and stored without EXIF, XMP, IPTC or text; pixels unchanged)\n"
                + Self.variantLines(served: "72 96 (144, 288, 576, 1152 are wider than the source: 96, never enlarged)")
                + "variant storage:  disk at most, as its source (never wider, same partition, expires with it)\n"))
        let ticket = await CLIRun.run(
            ["inspect", origin.base + "/one-time/ticket-5510.jpg", "--policies", policies], using: Self.environment)
        #expect(ticket.status == 0)
        #expect(ticket.stdout.contains("\n  Cache-Control:  no-store\n"))
        #expect(ticket.stdout.contains("\nRFC 9111 §3:      not storable in a shared cache (response-no-store)\n"))
        #expect(ticket.stdout.hasSuffix(
            "decision:         none, ttl 0 s (reason response-no-store)\n  rfc9111: none ttl=0 response-no-store\n"
                + "variants:         none (the query is passed to the origin)\n"))
        await origin.stop()
    }

    @Test func credentialFileInspectsAPrivateReceipt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = try origin.writePolicies(in: directory)
        let credential = try directory.file("u1.cred", contents: "demo-token-u1\n")
        let url = origin.base + "/receipts/r-7731.png"
        let run = await CLIRun.run(["inspect", url, "--credential-file", credential, "--policies", policies],
                                   using: Self.environment)
        #expect(run.status == 0)
        #expect(run.stdout.contains("status: 200 OK, 47679 bytes"))
        #expect(run.stdout.contains("\ndecision:         encrypted-disk, ttl 60 s"))
        #expect(!run.stdout.contains("demo-token-u1"))
        let anonymous = await CLIRun.run(["inspect", url, "--policies", policies], using: Self.environment)
        #expect(anonymous.stdout.contains("status: 401 Unauthorized"))
        await origin.stop()
    }

    @Test func urlOutsideEveryRoute() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = try origin.writePolicies(in: directory)
        let run = await CLIRun.run(
            ["inspect", "http://127.0.0.1:\(origin.port)/catalog/coffee-237a7131.jpg".replacingOccurrences(
                of: "127.0.0.1", with: "localhost"), "--policies", policies], using: Self.environment)
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix(
            "route:            none (no route's origin is a prefix of the URL)\ndecision:         - (no tier)\n"))
        await origin.stop()
    }

    /// `--origin ROUTE=URL` replaces a route's origin as `serve --origin` does, so the URL of the
    /// real origin of this environment matches its route.
    @Test func originOverrideMatchesTheRoute() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = try origin.writePolicies(in: directory)
        let base = "http://localhost:\(origin.port)"
        let run = await CLIRun.run(
            ["inspect", base + "/catalog/coffee-237a7131.jpg", "--policies", policies,
             "--origin", "catalog=\(base)/catalog/"], using: Self.environment)
        #expect(run.status == 0)
        #expect(run.stdout.contains("\nroute:            catalog (mount /catalog/, origin \(base)/catalog/)\n"))
        let unknown = await CLIRun.run(
            ["inspect", base + "/catalog/coffee-237a7131.jpg", "--policies", policies, "--origin", "catalgo=\(base)/"],
            using: Self.environment)
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "mediactl: --origin: catalgo: unknown route (did you mean `catalog`?); "
                + "allowed: avatars, catalog, large, one-time, receipts, uploads\n")
        let malformed = await CLIRun.run(["inspect", base + "/catalog/a.jpg", "--origin", "bad"], using: Self.environment)
        #expect(malformed.status == 64)
        #expect(malformed.stderr == CLIRun.usageError("invalid --origin 'bad': expected ROUTE=URL", command: ["inspect"]))
        await origin.stop()
    }

    @Test func unreachableOriginExits1() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin()
        let policies = try origin.writePolicies(in: directory)
        await origin.stop()
        let url = origin.base + "/catalog/a.jpg"
        let run = await CLIRun.run(["inspect", url, "--policies", policies])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("mediactl: cannot fetch \(url): connection-failed: "))
    }

    @Test func badPoliciesExit2() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CLIRun.run(
            ["inspect", "http://127.0.0.1:9/a.jpg", "--policies", directory.path + "/none"], using: Self.environment)
        #expect(
            run
                == CLIRun(
                    status: 2, stdout: "",
                    stderr:
                        "mediactl: \(directory.path)/none: does not exist; allowed: a readable directory of *.json policy files\n"
                ))
    }
}
