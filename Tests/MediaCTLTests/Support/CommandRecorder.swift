import Synchronization

@testable import MediaCTL

/// Records every command a command line reaches, with its typed options, instead of running it: it
/// writes `ran <command words>` to stdout and returns a fixed status (``environment``'s interceptor).
final class CommandRecorder: Sendable {
    let status: ExitCode
    private let recorded = Mutex<[ParsedCommandLine]>([])

    init(status: ExitCode = .success) {
        self.status = status
    }

    /// Every command reached so far, in order, as ``ParsedCommandLine/command(_:)``.
    var calls: [ParsedCommandLine] { recorded.withLock { $0 } }

    /// A command environment whose interceptor records instead of running.
    var environment: CommandEnvironment {
        CommandEnvironment(interceptor: { command, context in
            self.recorded.withLock { $0.append(.command(command)) }
            context.stdout.writeLine("ran " + type(of: command).path.joined(separator: " "))
            return self.status
        })
    }
}
