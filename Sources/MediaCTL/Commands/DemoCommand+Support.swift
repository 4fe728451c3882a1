import MediaCore
import Foundation
import HTTPServer
import MediaAudit
import MediaServer
import MediaService
import MediaStorage

#if canImport(Glibc)
    import Glibc
#endif

extension DemoCommand {
    /// `disk`, `hit (disk)`, `none (response-no-store)`, `refused (credentials-required)`.
    static func storageText(_ outcome: ServiceOutcome?, status: Int, storedIn: String?) -> String {
        guard let outcome else { return "-" }
        switch outcome.storage {
        case .hit?: return storedIn.map { "hit (\($0))" } ?? "hit"
        case .notStored?: return "none (\(outcome.reason ?? "-"))"
        case let storage?: return storage.description
        case nil: return status >= 400 ? "refused (\(outcome.reason ?? "-"))" : "-"
        }
    }

    static func audit(_ state: String, _ allowed: [String: AuditStorage]) throws(CommandError) -> AuditReport {
        do {
            let inventory = try StateInventory.scan(
                stateDirectory: state, integrityKey: try IntegrityKeyFile.existing(stateDirectory: state))
            return try AuditReconciler.report(
                stateDirectory: state, inventory: inventory.objects.map(AuditCommand.persistedObject),
                allowedStorage: allowed)
        } catch {
            throw CommandError(.unreadableFile, "cannot read the demo's audit log: \(error)", exitCode: .unusableInput)
        }
    }

    /// The `--keep-serving` hints: curl commands with the real ports (`admin`: the admin listener's base URL)
    /// and demo tokens.
    static func tryItText(base: String, admin: String, state: String, policies: String) -> String {
        """

        Both servers keep running; try (Ctrl-C stops them):
          curl -s -D - -o /dev/null \(base)/catalog/coffee-237a7131.jpg
          curl -s -D - -o /dev/null \(base)/avatars/u1002.jpg
          curl -s -D - -o /dev/null -H 'Authorization: Bearer demo-token-u2' \(base)/receipts/r-7732.jpg
          curl -s -D - -o /dev/null \(base)/receipts/r-7732.jpg
          curl -s -D - -o /dev/null \(base)/one-time/ticket-5510.jpg
          curl -s -D - -o /dev/null -H 'Accept: image/avif,image/webp' '\(base)/large/astronaut-4000.jpg?w=288&fmt=auto'
          curl -s -D - -o /dev/null '\(base)/uploads/gps-orient6.jpg?w=576&h=576&fit=cover'
          curl -s \(admin)/_mediactl/health
          curl -s \(admin)/_mediactl/metrics
          mediactl purge --route catalog --state-dir \(state)
          printf 'demo-token-u2' > u2.token && mediactl purge --credential-file u2.token --state-dir \(state)
          mediactl audit --state-dir \(state) --policies \(policies)
          mediactl audit verify --state-dir \(state)
        (from the package: swift run mediactl purge …)
        State directory (kept): \(state)

        """
    }

    static func start(_ server: HTTPServer) throws(CommandError) -> Int {
        do {
            return try server.start()
        } catch {
            throw ServeCommand.listenError(error, address: ListenAddress(host: "127.0.0.1", port: 0))
        }
    }

    /// A fresh `mediactl-demo-XXXXXX` directory (mode 0700) under `parent`.
    /// - Throws: ``CommandError`` `unwritable-file` (exit 2): `cannot create a temporary directory in 'P': <errno text>`.
    static func makeTemporaryDirectory(in parent: String) throws(CommandError) -> String {
        var template = Array((parent + "/mediactl-demo-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!) }
        guard let made else {
            throw CommandError(
                .unwritableFile, "cannot create a temporary directory in '\(parent)': \(SystemErrorText.current)",
                exitCode: .unusableInput)
        }
        return String(cString: made)
    }
}
