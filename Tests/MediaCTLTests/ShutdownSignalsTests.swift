import Glibc
import Testing

@testable import MediaCTL

/// Uses SIGUSR2 (never SIGINT/SIGTERM) so the test process itself is never at risk.
@Suite(.serialized) struct ShutdownSignalsTests {
    /// The handler currently installed for `number` is the default one.
    static func isDefaultAction(_ number: Int32) -> Bool {
        var current = sigaction()
        sigaction(number, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_DFL, to: Int.self)
    }

    @Test func returnsTheSignalAndRestoresTheDefault() async throws {
        let signals = try ShutdownSignals([SIGUSR2])
        #expect(signals.signals == [SIGUSR2])
        #expect(!Self.isDefaultAction(SIGUSR2))
        #expect(kill(getpid(), SIGUSR2) == 0)
        #expect(await signals.wait() == SIGUSR2)
        #expect(Self.isDefaultAction(SIGUSR2))
        #expect(await signals.wait() == nil)
    }

    @Test func signalBeforeWaitIsKept() async throws {
        let signals = try ShutdownSignals([SIGUSR1, SIGUSR2])
        #expect(kill(getpid(), SIGUSR1) == 0)
        #expect(await signals.wait() == SIGUSR1)
        #expect(Self.isDefaultAction(SIGUSR1))
        #expect(Self.isDefaultAction(SIGUSR2))
    }

    @Test func cancelBeforeWait() async throws {
        let signals = try ShutdownSignals([SIGUSR2])
        signals.cancel()
        #expect(Self.isDefaultAction(SIGUSR2))
        #expect(await signals.wait() == nil)
        signals.cancel()
    }

    @Test func cancelWhileWaiting() async throws {
        let signals = try ShutdownSignals([SIGUSR2])
        let waiter = Task { await signals.wait() }
        signals.cancel()
        #expect(await waiter.value == nil)
        #expect(Self.isDefaultAction(SIGUSR2))
    }

    @Test func onlyOneInstanceAtATime() async throws {
        let first = try ShutdownSignals([SIGUSR2])
        let error = #expect(throws: CommandError.self) { try ShutdownSignals([SIGUSR1]) }
        #expect(error?.message == "another ShutdownSignals is already installed")
        #expect(error?.code == .signalHandling)
        #expect(error?.exitCode == .failure)
        first.cancel()
        let second = try ShutdownSignals([SIGUSR1])
        second.cancel()
    }

    @Test func uncatchableSignalIsRefusedAndNothingStaysInstalled() async throws {
        let error = #expect(throws: CommandError.self) { try ShutdownSignals([SIGUSR2, SIGKILL]) }
        #expect(error?.message == "cannot handle signal 9: Invalid argument")
        #expect(Self.isDefaultAction(SIGUSR2))
        let next = try ShutdownSignals([SIGUSR2])
        next.cancel()
    }

    @Test func releasingAnInstanceUninstallsIt() throws {
        do {
            let signals = try ShutdownSignals([SIGUSR2])
            withExtendedLifetime(signals) { #expect(!Self.isDefaultAction(SIGUSR2)) }
        }
        #expect(Self.isDefaultAction(SIGUSR2))
        let next = try ShutdownSignals([SIGUSR2])
        next.cancel()
    }
}
