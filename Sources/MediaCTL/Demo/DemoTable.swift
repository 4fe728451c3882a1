/// One row of the demo's table: a request and what the service did with it.
public struct DemoRow: Sendable, Hashable {
    /// 1-based position in the visit.
    public var number: Int
    /// The step played.
    public var step: DemoScript.Step
    /// The status received.
    public var status: Int
    /// The `Cache-Status` received, or `nil`.
    public var cacheStatus: String?
    /// The storage decision: `disk`, `encrypted-disk`, `memory`, `hit`, `none (reason)`, or
    /// `refused (reason)` for requests answered before any lookup.
    public var storage: String
    /// Body bytes received.
    public var bytes: Int
    /// Why the body failed the step's ``DemoScript/Step/check``, or `nil`.
    public var checkFailure: String? = nil

    /// Whether the answer is what ``DemoScript/Step/expectation`` and the step's check ask for.
    public var isExpected: Bool { step.expectation.isMet(status: status, cacheStatus: cacheStatus) && checkFailure == nil }
}

/// Renders rows as an aligned text table: `#`, `request`, `user`, `status`, `Cache-Status`,
/// `storage`, `bytes` (right-aligned), `what it shows`; a dashed rule under the header.
enum DemoTable {
    static let header = ["#", "request", "user", "status", "Cache-Status", "storage", "bytes", "what it shows"]
    static let rightAligned: Set<Int> = [0, 3, 6]

    static func render(_ rows: [DemoRow]) -> String {
        let cells = [header] + rows.map { row in
            [
                String(row.number), row.step.path, row.step.user.rawValue, String(row.status), row.cacheStatus ?? "-",
                row.storage, String(row.bytes), row.step.note,
            ]
        }
        var widths = [Int](repeating: 0, count: header.count)
        for line in cells {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func format(_ line: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in line.enumerated() {
                let fill = String(repeating: " ", count: widths[index] - cell.count)
                if index == line.count - 1 {
                    parts.append(cell)
                } else {
                    parts.append(rightAligned.contains(index) ? fill + cell : cell + fill)
                }
            }
            return parts.joined(separator: "  ")
        }
        var out = format(cells[0]) + "\n"
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for line in cells.dropFirst() { out += format(line) + "\n" }
        return out
    }
}
