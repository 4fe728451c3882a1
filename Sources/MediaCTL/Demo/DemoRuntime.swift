import Foundation
import HTTPServer
import MediaServer
import MediaService

/// What a demo run started, so that every exit path stops it in order: the service's listeners and the
/// service (``MediaServer/MediaServer/stop(beforeServiceStops:)``: `stop` record, sealed objects shredded), the
/// origin, then the temporary state directory.
final class DemoRuntime {
    var signals: SignalWatcher?
    var originServer: HTTPServer?
    var server: MediaServer?
    var service: MediaService?
    var stateDirectory: String?

    /// Stops the service's listeners and the service (idempotent).
    func stopService() async {
        if let server {
            await server.stop()
        } else {
            await service?.stop()
        }
        if let stateDirectory { ServeStateFile.remove(stateDirectory: stateDirectory) }
    }

    /// Stops everything; removes the state directory when `removingState`.
    func shutDown(removingState: Bool) async {
        signals?.cancel()
        await stopService()
        if let originServer {
            await OffPool.run { originServer.stop() }
        }
        if removingState, let stateDirectory {
            try? FileManager.default.removeItem(atPath: stateDirectory)
        }
    }
}
