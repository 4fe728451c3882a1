import Glibc
@testable import HTTPServer
import Synchronization

/// Answers `200` with `method target body-length` (sync path unless `async`), or a 16 KiB body on `/big`.
struct EchoHandler: HTTPHandling {
    var useAsync = false

    func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        answer(request)
    }

    func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        useAsync ? nil : answer(request)
    }

    func answer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if request.target == "/big" {
            return HTTPServerResponse(status: 200, body: [UInt8](repeating: 0x61, count: 16_384))
        }
        if request.target == "/close" {
            return HTTPServerResponse(status: 200, body: Array("bye".utf8), closeConnection: true)
        }
        if request.method == "GET" && request.hasBody {
            return HTTPServerResponse.problem(status: 400, detail: "GET with a body")
        }
        let text = "\(request.method) \(request.target) \(request.body.count)"
        return HTTPServerResponse(status: 200, headerFields: [("Content-Type", "text/plain")], body: Array(text.utf8))
    }
}

/// A one-shot gate: `wait` blocks (a test thread, never the cooperative pool in a sync context) until `open`.
final class Gate: Sendable {
    private let read: Int32
    private let write: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        read = fds[0]
        write = fds[1]
    }

    deinit {
        close(read)
        close(write)
    }

    func open() {
        var byte: UInt8 = 1
        _ = Glibc.write(write, &byte, 1)
    }

    /// Waits up to `milliseconds`; `true` when opened.
    func wait(milliseconds: Int32 = 5_000) -> Bool {
        var entry = pollfd(fd: read, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) == 1
    }
}

/// A counting semaphore for async handlers: `acquire` suspends (without holding a pool thread)
/// until a `release` gives it a permit.
final class AsyncPermits: Sendable {
    private struct State {
        var permits = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                guard state.permits > 0 else {
                    state.waiters.append(continuation)
                    return false
                }
                state.permits -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.permits += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume()
    }
}

/// Signals `entered` when a request arrives, then holds it until `release` opens.
struct BlockingHandler: HTTPHandling {
    let entered = Gate()
    let release = Gate()

    func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        HTTPServerResponse(status: 500)
    }

    func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        entered.open()
        _ = release.wait(milliseconds: 10_000)
        return HTTPServerResponse(status: 200, body: Array("finished".utf8))
    }
}

/// Starts a server on 127.0.0.1 with an ephemeral port.
func startServer(
    _ handler: some HTTPHandling, configure: (inout HTTPServer.Configuration) -> Void = { _ in }
) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, handler: handler)
    try server.start()
    return server
}

/// Runs blocking client code on its own thread so the test does not occupy a cooperative-pool
/// thread the server's async handler path needs (the pool has one thread per core).
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let spawned = PosixThread.spawn(name: "test", stackBytes: 1 << 20, detached: true) {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        if spawned == nil { continuation.resume(throwing: TestClientError(message: "thread")) }
    }
}
