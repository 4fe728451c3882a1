import MediaService
import MediaTestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct SingleFlightTests {
    struct OriginDown: Error, Equatable {}

    @Test func hundredConcurrentCallsRunOneOperation() async throws {
        let flight = SingleFlight<String, String>()
        let gate = Gate(), calls = Counter()
        let outcomes = try await withThrowingTaskGroup(of: SingleFlight<String, String>.Outcome.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    try await flight.run("GET /catalog/a.jpg") {
                        calls.increment()
                        await gate.wait()
                        return "MARK-PUBLIC"
                    }
                }
            }
            #expect(await eventually { flight.waiterCount(for: "GET /catalog/a.jpg") == 99 })
            await gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(calls.value == 1)
        #expect(outcomes.count == 100)
        #expect(outcomes.filter { $0.role == .leader }.count == 1)
        #expect(outcomes.filter { $0.role == .joined }.count == 99)
        #expect(outcomes.allSatisfy { $0.value == "MARK-PUBLIC" })
        #expect(flight.inFlightCount == 0)
    }

    @Test func distinctKeysAreNeverJoined() async throws {
        let flight = SingleFlight<String, String>()
        let gate = Gate(), calls = Counter()
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for key in ["p1", "p2"] {
                group.addTask {
                    try await flight.run(key) {
                        calls.increment()
                        await gate.wait()
                        return "MARK-" + key
                    }.value
                }
            }
            #expect(await eventually { calls.value == 2 })
            #expect(flight.inFlightCount == 2)
            await gate.open()
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(values == ["MARK-p1", "MARK-p2"])
    }

    @Test func caseC03NonShareableLeaderResultMakesEachWaiterRunItsOwn() async throws {
        let flight = SingleFlight<String, String>()
        let gate = Gate(), calls = Counter()
        let outcomes = try await withThrowingTaskGroup(of: (String, SingleFlight<String, String>.Outcome).self) { group in
            for user in ["U1", "U2", "ANON"] {
                group.addTask {
                    let outcome = try await flight.run("GET /receipts/r.png", isShareable: { _ in false }) {
                        calls.increment()
                        await gate.wait()
                        return "MARK-" + user
                    }
                    return (user, outcome)
                }
            }
            #expect(await eventually { flight.waiterCount(for: "GET /receipts/r.png") == 2 })
            await gate.open()
            return try await group.reduce(into: [(String, SingleFlight<String, String>.Outcome)]()) { $0.append($1) }
        }
        #expect(calls.value == 3)
        for (user, outcome) in outcomes { #expect(outcome.value == "MARK-" + user) }
        #expect(outcomes.filter { $0.1.role == .leader }.count == 1)
        #expect(outcomes.filter { $0.1.role == .ownOperation }.count == 2)
    }

    @Test func shareabilityIsDecidedPerValue() async throws {
        let flight = SingleFlight<String, Int>()
        let gate = Gate(), calls = Counter()
        let roles = try await withThrowingTaskGroup(of: SingleFlight<String, Int>.Role.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await flight.run("k", isShareable: { $0 == 200 }) {
                        calls.increment()
                        await gate.wait()
                        return 200
                    }.role
                }
            }
            #expect(await eventually { flight.waiterCount(for: "k") == 2 })
            await gate.open()
            return try await group.reduce(into: [SingleFlight<String, Int>.Role]()) { $0.append($1) }
        }
        #expect(calls.value == 1)
        #expect(roles.sorted { "\($0)" < "\($1)" } == [.joined, .joined, .leader])
    }

    @Test func errorsPropagateToWaiters() async throws {
        let flight = SingleFlight<String, String>()
        let gate = Gate(), calls = Counter(), failures = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await flight.run("k") {
                            calls.increment()
                            await gate.wait()
                            throw OriginDown()
                        }
                    } catch {
                        if error is OriginDown { failures.increment() }
                    }
                }
            }
            #expect(await eventually { flight.waiterCount(for: "k") == 9 })
            await gate.open()
        }
        #expect(calls.value == 1)
        #expect(failures.value == 10)
    }

    /// The leader's cancellation (its client went away) is its own: the waiters call again, one leads and the others
    /// join it, so the work runs once more, not once per waiter.
    @Test func leaderCancellationHandsTheFlightToAWaiter() async throws {
        let flight = SingleFlight<String, String>()
        let first = Gate(), second = Gate(), calls = Counter()
        let values = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<4 {
                group.addTask {
                    do {
                        return try await flight.run("k") {
                            let call = calls.increment()
                            if call == 1 {
                                await first.wait()
                                throw CancellationError()
                            }
                            await second.wait()
                            return "own-\(index)"
                        }.value
                    } catch is CancellationError {
                        return nil
                    }
                }
            }
            #expect(await eventually { flight.waiterCount(for: "k") == 3 })
            await first.open()
            // The three waiters called again: one leads, two wait on it.
            #expect(await eventually { flight.waiterCount(for: "k") == 2 })
            await second.open()
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(calls.value == 2)
        #expect(values.filter { $0 == nil }.count == 1)
        #expect(values.compactMap { $0 }.count == 3)
        #expect(Set(values.compactMap { $0 }).count == 1)
    }

    @Test func theKeyIsFreedAfterEachFlight() async throws {
        let flight = SingleFlight<String, Int>()
        let calls = Counter()
        let first = try await flight.run("k") { calls.increment() }
        let second = try await flight.run("k") { calls.increment() }
        #expect(first.value == 1 && first.role == .leader)
        #expect(second.value == 2 && second.role == .leader)
        #expect(flight.inFlightCount == 0)
    }
}
