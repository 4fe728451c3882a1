import MediaAudit

extension AuditReportContext {
    /// `durationMilliseconds` as seconds with three decimals, `12.345` (JUnit's `time` format).
    var durationSeconds: String { Self.seconds(milliseconds: durationMilliseconds) }

    /// Milliseconds as seconds with three decimals, no grouping: `0.000`, `12.345`.
    static func seconds(milliseconds: Int64) -> String {
        let value = max(0, milliseconds)
        let fraction = String(value % 1000)
        return "\(value / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
