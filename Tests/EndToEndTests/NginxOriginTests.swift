import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The origin harness itself: nginx answers with the per-folder headers the other suites rely on.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"))
struct NginxOriginTests {
    /// A configuration nginx refuses fails at once with nginx's own words, not a bare connection timeout.
    @Test func aRefusedConfigurationIsReportedWithNginxsErrorLog() throws {
        do {
            _ = try NginxOrigin(extraServerConfig: "location /catalog/ { }")
            Issue.record("nginx started with a duplicate location")
        } catch let failure as NginxOrigin.StartFailure {
            #expect(failure.description.hasPrefix("the nginx origin exited or did not listen on 127.0.0.1:\(failure.port) within 10 s; its error log: "))
            #expect(failure.errorLog.contains("duplicate location \"/catalog/\""))
        }
    }

    private func get(_ url: String, headers: [String: String] = [:]) async throws -> (Int, [String: String], Data) {
        var request = URLRequest(url: URL(string: url)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let (data, response) = try await URLSession(configuration: configuration).data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
        return (http.statusCode, fields, data)
    }

    @Test func servesEachFolderWithItsHeaders() async throws {
        let origin = try NginxOrigin()
        defer { origin.stop() }
        let (status, fields, body) = try await get(origin.baseURL + "/catalog/horse-d29d871c.jpg")
        #expect(status == 200)
        #expect(body.count == 5914)
        #expect(fields["cache-control"] == "public, max-age=31536000, immutable")
        #expect(fields["etag"] != nil)

        let (avatarStatus, avatarFields, _) = try await get(origin.baseURL + "/avatars/u1001.jpg")
        #expect(avatarStatus == 200)
        #expect(avatarFields["cache-control"] == "max-age=60")

        let (denied, deniedFields, _) = try await get(origin.baseURL + "/receipts/r-7731.png")
        #expect(denied == 401)
        #expect(deniedFields["www-authenticate"] == "Bearer")
        let (allowed, allowedFields, receipt) = try await get(
            origin.baseURL + "/receipts/r-7731.png", headers: ["Authorization": "Bearer t1"])
        #expect(allowed == 200)
        #expect(receipt.count == 47679)
        #expect(allowedFields["cache-control"] == "private, max-age=60")

        let (_, oneTimeFields, _) = try await get(origin.baseURL + "/one-time/horse-d29d871c.jpg")
        #expect(oneTimeFields["cache-control"] == "no-store")
    }
}
