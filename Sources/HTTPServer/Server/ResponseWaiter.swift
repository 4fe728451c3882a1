import Glibc
import Synchronization

/// Hands the result of an async handler back to a blocked connection thread.
///
/// The connection thread blocks in `sem_wait`; the task posts after storing the response.
/// Only connection threads ever block here, never the cooperative pool.
final class ResponseWaiter: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>
    private let response = Mutex<HTTPServerResponse?>(nil)

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func resume(_ value: HTTPServerResponse) {
        response.withLock { $0 = value }
        sem_post(semaphore)
    }

    func wait() -> HTTPServerResponse {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
        return response.withLock { $0 } ?? HTTPServerResponse.problem(status: 500, detail: "no response")
    }
}

