import MediaAudit
import MediaServer
import Synchronization

/// What the demo's walkthrough hands back across ``MediaServer/MediaServer/run(until:whenListening:)``: the ports
/// the service listens on (set when it listens, read by the walkthrough) and the walkthrough's result.
final class DemoWalk: Sendable {
    /// The rows of the table, and the audit report when the walkthrough made it (`--keep-serving`).
    typealias Walked = (rows: [DemoRow], report: AuditReport?)

    private let state = Mutex<(ports: MediaServer.BoundPorts?, result: Result<Walked, CommandError>?)>((nil, nil))

    /// The ports the service listens on, once it does.
    var ports: MediaServer.BoundPorts? {
        get { state.withLock { $0.ports } }
        set { state.withLock { $0.ports = newValue } }
    }

    /// Records how the walkthrough ended.
    func finish(_ result: Result<Walked, CommandError>) {
        state.withLock { $0.result = result }
    }

    /// The walkthrough's result.
    /// - Throws: what the walkthrough threw; ``CommandError`` `demo-failed` when it never ran.
    func result() throws(CommandError) -> Walked {
        guard let result = state.withLock({ $0.result }) else {
            throw CommandError(.demoFailed, "the walkthrough did not run", exitCode: .failure)
        }
        return try result.get()
    }
}
