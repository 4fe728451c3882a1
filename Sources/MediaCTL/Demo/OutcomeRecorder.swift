import MediaServer
import HTTPServer
import MediaService
import Synchronization

/// Collects the service's outcome of each request the demo sends (the ``MediaHTTPHandler``
/// observer), in order. The demo's requests are sequential, so the n-th outcome belongs to the
/// n-th request; recording stops with ``stop()`` (requests of `--keep-serving` are not kept).
final class OutcomeRecorder: Sendable {
    private struct State {
        var recording = true
        var outcomes: [(target: String, response: ServiceOutcome)] = []
    }

    private let state = Mutex(State())

    /// The observer to install.
    var observer: MediaHTTPHandler.Observer {
        { [self] request, response in
            state.withLock { state in
                if state.recording { state.outcomes.append((request.target, response.outcome)) }
            }
        }
    }

    /// Removes and returns the outcomes recorded for `target` since the last call, the latest last.
    func take(target: String) -> ServiceOutcome? {
        state.withLock { state in
            let matching = state.outcomes.filter { $0.target == target }
            state.outcomes.removeAll()
            return matching.last?.response
        }
    }

    /// Stops recording.
    func stop() {
        state.withLock { $0.recording = false }
    }
}
