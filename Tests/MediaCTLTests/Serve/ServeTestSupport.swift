import MediaTestSupport
import Foundation
import HTTPServer
import Synchronization

@testable import MediaCTL
@testable import MediaServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo's embedded origin on a loopback port, as a real origin for serve/fetch/inspect tests.
final class TestOrigin: Sendable {
    let origin: DemoOrigin
    let server: HTTPServer
    let port: Int

    /// `addsDateField: false` makes ages and `Date` lines deterministic.
    init(addsDateField: Bool = true) throws {
        origin = try DemoOrigin(samples: DemoSamples.all())
        server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, addsDateField: addsDateField), handler: origin)
        port = try server.start()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    func stop() async {
        let server = self.server
        await OffPool.run { server.stop() }
    }

    /// A policy directory holding the default policy with every origin on this origin.
    func writePolicies(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path + "/Policies"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let text = DemoPolicy.text.replacingOccurrences(of: "http://127.0.0.1:8081", with: base)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/default.json"))
        return path
    }
}

/// One answer received over a real socket.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A `URLSession` client without caches or cookies (async: never blocks the cooperative pool).
enum HTTPGet {
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = 10
        return URLSession(configuration: configuration)
    }()

    static func fetch(_ url: String, method: String = "GET", headers: [String: String] = [:]) async throws
        -> HTTPAnswer
    {
        var request = URLRequest(url: URL(string: url)!, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            fields[String(describing: name)] = String(describing: value)
        }
        return HTTPAnswer(status: http.statusCode, headers: fields, body: [UInt8](data))
    }
}

/// A one-shot gate: ``wait()`` suspends until ``open(_:)``; the stop trigger of in-process serve runs.
final class Gate: Sendable {
    private let state = Mutex<(opened: String?, waiter: CheckedContinuation<String, Never>?)>((nil, nil))

    func wait() async -> String {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> String? in
                if let opened = state.opened { return opened }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func open(_ reason: String = "test-stop") {
        let waiter = state.withLock { state -> CheckedContinuation<String, Never>? in
            state.opened = reason
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: reason)
    }
}

