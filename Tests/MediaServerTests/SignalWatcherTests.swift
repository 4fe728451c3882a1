import Glibc
import Testing

@testable import MediaServer

/// Uses SIGUSR1 and SIGUSR2 (never SIGINT/SIGTERM) so the test process itself is never at risk.
@Suite(.serialized) struct SignalWatcherTests {
    /// The handler currently installed for `number` is the default one.
    static func isDefaultAction(_ number: Int32) -> Bool {
        var current = sigaction()
        sigaction(number, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_DFL, to: Int.self)
    }

    @Test func returnsTheStoppingSignalAndRestoresTheDefault() async throws {
        let signals = try SignalWatcher([SIGUSR2])
        #expect(signals.signals == [SIGUSR2])
        #expect(!Self.isDefaultAction(SIGUSR2))
        #expect(kill(getpid(), SIGUSR2) == 0)
        #expect(await signals.first(of: [SIGUSR2]) == SIGUSR2)
        #expect(Self.isDefaultAction(SIGUSR2))
        #expect(await signals.first(of: [SIGUSR2]) == nil)
    }

    @Test func signalBeforeWaitIsKept() async throws {
        let signals = try SignalWatcher([SIGUSR1, SIGUSR2])
        #expect(kill(getpid(), SIGUSR1) == 0)
        #expect(await signals.first(of: [SIGUSR1, SIGUSR2]) == SIGUSR1)
        #expect(Self.isDefaultAction(SIGUSR1))
        #expect(Self.isDefaultAction(SIGUSR2))
    }

    /// The other signals are handled once each, in order, until a stopping one comes (SIGHUP, SIGUSR1 in serve).
    @Test func otherSignalsReachTheirActionOncePerSignalUntilTheStoppingOne() async throws {
        let signals = try SignalWatcher([SIGUSR1, SIGUSR2])
        let seen = AsyncStream<Int32>.makeStream()
        let waiter = Task { await signals.first(of: [SIGUSR2]) { seen.continuation.yield($0) } }
        var iterator = seen.stream.makeAsyncIterator()
        #expect(kill(getpid(), SIGUSR1) == 0)
        #expect(await iterator.next() == SIGUSR1)
        #expect(kill(getpid(), SIGUSR1) == 0)
        #expect(await iterator.next() == SIGUSR1)
        #expect(kill(getpid(), SIGUSR2) == 0)
        #expect(await waiter.value == SIGUSR2)
        #expect(Self.isDefaultAction(SIGUSR1))
    }

    @Test func cancelBeforeWait() async throws {
        let signals = try SignalWatcher([SIGUSR2])
        signals.cancel()
        #expect(Self.isDefaultAction(SIGUSR2))
        #expect(await signals.first(of: [SIGUSR2]) == nil)
        signals.cancel()
    }

    @Test func cancelWhileWaiting() async throws {
        let signals = try SignalWatcher([SIGUSR2])
        let waiter = Task { await signals.first(of: [SIGUSR2]) }
        signals.cancel()
        #expect(await waiter.value == nil)
        #expect(Self.isDefaultAction(SIGUSR2))
    }

    @Test func onlyOneInstanceAtATime() async throws {
        let first = try SignalWatcher([SIGUSR2])
        #expect(throws: SignalWatcherError("another SignalWatcher is already installed")) {
            try SignalWatcher([SIGUSR1])
        }
        first.cancel()
        let second = try SignalWatcher([SIGUSR1])
        second.cancel()
    }

    @Test func uncatchableSignalIsRefusedAndNothingStaysInstalled() async throws {
        #expect(throws: SignalWatcherError("cannot handle signal 9: Invalid argument (errno 22)")) {
            try SignalWatcher([SIGUSR2, SIGKILL])
        }
        #expect(Self.isDefaultAction(SIGUSR2))
        let next = try SignalWatcher([SIGUSR2])
        next.cancel()
    }

    @Test func releasingAnInstanceUninstallsIt() throws {
        do {
            let signals = try SignalWatcher([SIGUSR2])
            withExtendedLifetime(signals) { #expect(!Self.isDefaultAction(SIGUSR2)) }
        }
        #expect(Self.isDefaultAction(SIGUSR2))
        let next = try SignalWatcher([SIGUSR2])
        next.cancel()
    }
}
