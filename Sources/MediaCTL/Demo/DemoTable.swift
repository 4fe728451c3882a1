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

/// Renders rows as an aligned text table that fits 120 columns: two lines per request, the first with `#`, `request`,
/// `user`, `status`, `bytes` (right-aligned) and `what it shows`, the second, indented under `request`, with the
/// `Cache-Status` received and the `storage` decision; the header has the same two lines and a dashed rule under the
/// first line's columns.
enum DemoTable {
    static let header = ["#", "request", "user", "status", "bytes", "what it shows"]
    static let secondHeader = ["Cache-Status", "storage"]
    static let rightAligned: Set<Int> = [0, 3, 4]

    static func render(_ rows: [DemoRow]) -> String {
        let firsts = [header] + rows.map { row in
            [String(row.number), row.step.path, row.step.user.rawValue, String(row.status), String(row.bytes), row.step.note]
        }
        let seconds = [secondHeader] + rows.map { row in [row.cacheStatus ?? "-", row.storage] }
        let widths = columnWidths(firsts), secondWidths = columnWidths(seconds)
        // The second line starts under `request`: after `#` and its gap.
        let indent = String(repeating: " ", count: widths[0] + 2)
        var out = format(firsts[0], widths: widths) + "\n" + indent + format(seconds[0], widths: secondWidths) + "\n"
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for (first, second) in zip(firsts.dropFirst(), seconds.dropFirst()) {
            out += format(first, widths: widths) + "\n" + indent + format(second, widths: secondWidths) + "\n"
        }
        return out
    }

    private static func columnWidths(_ lines: [[String]]) -> [Int] {
        var widths = [Int](repeating: 0, count: lines[0].count)
        for line in lines {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return widths
    }

    /// One line: cells padded to `widths` and joined by two spaces; the last cell unpadded; ``rightAligned`` columns of
    /// the first line's shape right-aligned.
    private static func format(_ line: [String], widths: [Int]) -> String {
        var parts: [String] = []
        for (index, cell) in line.enumerated() {
            let fill = String(repeating: " ", count: widths[index] - cell.count)
            if index == line.count - 1 {
                parts.append(cell)
            } else {
                parts.append(line.count == header.count && rightAligned.contains(index) ? fill + cell : cell + fill)
            }
        }
        return parts.joined(separator: "  ")
    }
}
