import Synchronization

@testable import MediaCTL

/// A ``CommandActions`` fake that records every call with its typed options and returns a fixed
/// status after writing one line naming the command to stdout.
final class RecordingActions: CommandActions {
    let status: ExitCode
    private let recorded = Mutex<[ParsedCommand]>([])

    init(status: ExitCode = .success) {
        self.status = status
    }

    /// Every call so far, in order.
    var calls: [ParsedCommand] { recorded.withLock { $0 } }

    private func record(_ call: ParsedCommand, _ name: String, _ context: CommandContext) -> ExitCode {
        recorded.withLock { $0.append(call) }
        context.stdout.writeLine("ran \(name)")
        return status
    }

    func serve(_ options: ServeOptions, context: CommandContext) async -> ExitCode {
        record(.serve(options), "serve", context)
    }
    func demo(_ options: DemoOptions, context: CommandContext) async -> ExitCode {
        record(.demo(options), "demo", context)
    }
    func fetch(_ options: FetchOptions, context: CommandContext) async -> ExitCode {
        record(.fetch(options), "fetch", context)
    }
    func inspect(_ options: InspectOptions, context: CommandContext) async -> ExitCode {
        record(.inspect(options), "inspect", context)
    }
    func audit(_ options: AuditOptions, context: CommandContext) async -> ExitCode {
        record(.audit(options), "audit", context)
    }
    func auditVerify(_ options: AuditVerifyOptions, context: CommandContext) async -> ExitCode {
        record(.auditVerify(options), "audit verify", context)
    }
    func policyCheck(_ options: PolicyCheckOptions, context: CommandContext) async -> ExitCode {
        record(.policyCheck(options), "policy check", context)
    }
    func purge(_ options: PurgeOptions, context: CommandContext) async -> ExitCode {
        record(.purge(options), "purge", context)
    }
    func reload(_ options: ReloadOptions, context: CommandContext) async -> ExitCode {
        record(.reload(options), "reload", context)
    }
}
