/// Waits until `condition` holds, up to 10 s of wall time (so a broken test fails instead of hanging, and a
/// loaded machine gets the time it needs): first by yielding (conditions other tasks set), then checking
/// every millisecond (conditions other threads set: curl's engine, an origin, a server's loop).
public func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1_000 {
        if condition() { return true }
        await Task.yield()
    }
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
