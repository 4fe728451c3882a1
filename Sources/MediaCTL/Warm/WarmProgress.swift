import Foundation

/// The progress display of `mediactl warm` on standard error.
///
/// - On a terminal: one bar redrawn in place at most every 0.1 s, such as
///   `\r[##########          ] 45/100  12.3/s  ETA 5 s\e[K`, ended by a line break when the run ends.
/// - Otherwise: a plain line at most every ``plainInterval`` (2 s) while the run lasts, such as
///   `mediactl: warm: 45/100 (45 %), 12.3/s, ETA 5 s`; a run shorter than that prints none.
public struct WarmProgress: Sendable {
    /// Seconds between two plain lines: 2.
    public static let plainInterval = 2.0
    /// Seconds between two redraws of the bar: 0.1.
    public static let barInterval = 0.1
    /// Characters of the bar between the brackets: 20.
    public static let barWidth = 20

    public let total: Int
    public let isTerminal: Bool
    public let started: Double
    private var lastShown: Double

    /// A display for `total` paths starting at `started` (seconds, any epoch; the same clock as updates).
    public init(total: Int, isTerminal: Bool, started: Double) {
        self.total = total
        self.isTerminal = isTerminal
        self.started = started
        lastShown = started
    }

    /// What to write after `done` paths at `now`, or `nil` (not due yet).
    public mutating func update(done: Int, now: Double) -> String? {
        let interval = isTerminal ? Self.barInterval : Self.plainInterval
        guard now - lastShown >= interval else { return nil }
        lastShown = now
        return isTerminal ? bar(done: done, now: now) : plain(done: done, now: now)
    }

    /// What to write when the run ends: on a terminal, the full bar and a line break; otherwise `nil`.
    public func finish(done: Int, now: Double) -> String? {
        isTerminal ? bar(done: done, now: now) + "\n" : nil
    }

    func bar(done: Int, now: Double) -> String {
        let filled = total == 0 ? Self.barWidth : Self.barWidth * done / total
        return "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: Self.barWidth - filled) + "] "
            + "\(done)/\(total)  \(rate(done: done, now: now))  ETA \(eta(done: done, now: now))\u{1B}[K"
    }

    func plain(done: Int, now: Double) -> String {
        let percent = total == 0 ? 100 : 100 * done / total
        return "mediactl: warm: \(done)/\(total) (\(percent) %), \(rate(done: done, now: now)), ETA \(eta(done: done, now: now))\n"
    }

    /// `12.3/s`.
    func rate(done: Int, now: Double) -> String {
        let elapsed = now - started
        return String(format: "%.1f/s", elapsed > 0 ? Double(done) / elapsed : 0)
    }

    /// Whole seconds left at the rate so far, rounded up (`5 s`), or `-` before the first path is done.
    func eta(done: Int, now: Double) -> String {
        let elapsed = now - started
        guard done > 0, elapsed > 0 else { return "-" }
        let left = Double(total - done) * elapsed / Double(done)
        return "\(Int(left.rounded(.up))) s"
    }

    /// `1.2 s`: seconds with one decimal.
    public static func seconds(_ value: Double) -> String {
        String(format: "%.1f s", value)
    }
}
