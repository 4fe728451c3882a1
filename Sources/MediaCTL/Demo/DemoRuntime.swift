import Foundation
import HTTPServer
import MediaService

/// What a demo run started, so that every exit path stops it in order: the service's HTTP server,
/// the service (`stop` record, sealed objects shredded), the origin, then the temporary state directory.
final class DemoRuntime {
    var signals: ShutdownSignals?
    var originServer: HTTPServer?
    var server: HTTPServer?
    var adminServer: HTTPServer?
    var service: MediaService?
    var stateDirectory: String?

    /// Stops the service's server and the service (idempotent).
    func stopService() async {
        if let server {
            await OffPool.run { server.stop() }
        }
        if let adminServer {
            await OffPool.run { adminServer.stop() }
        }
        await service?.stop()
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
