import MediaAudit
import MediaAuditReports
import MediaTestSupport
import Testing

@Suite struct SVGChartTests {
    static let series = [SVGChart.Series(name: "objects", color: "#4e79a7"), SVGChart.Series(name: "bytes", color: "#f28e2b", unit: .bytes)]

    @Test func barsAreScaledToTheirSeriesMaximumRoundedDown() {
        #expect(SVGChart.barWidth(40618, maximum: 40618) == 220)
        #expect(SVGChart.barWidth(6402, maximum: 40618) == 34)
        #expect(SVGChart.barWidth(1, maximum: 1_000_000) == 1)  // visible, however small
        #expect(SVGChart.barWidth(0, maximum: 5) == 0)
        #expect(SVGChart.barWidth(0, maximum: 0) == 0)
        #expect(SVGChart.barWidth(Int(Int32.max), maximum: Int(Int32.max)) == 220)  // no overflow
    }

    @Test func twoBarsTwoSeriesExactSVG() {
        let chart = SVGChart(
            title: "Objects & bytes", series: Self.series,
            bars: [
                SVGChart.Bar(label: "private / encrypted-disk", values: [2, 40618]),
                SVGChart.Bar(label: "<p> / disk", values: [1]),  // a missing value counts as 0
            ])
        #expect(chart.width == 320)  // fits a 390 px phone at its natural size
        #expect(chart.groupHeight == 56)
        #expect(chart.height == 142)
        #expect(chart.svg == """
            <svg width="320" height="142" viewBox="0 0 320 142" role="img" aria-label="Objects &amp; bytes">
            <title>Objects &amp; bytes</title>
            <text x="0" y="16" font-weight="bold" fill="#4e79a7">objects</text>
            <text x="110" y="16" font-weight="bold" fill="#f28e2b">bytes</text>
            <text x="0" y="36">private / encrypted-disk</text>
            <rect x="0" y="41" width="220" height="14" fill="#4e79a7"><title>private / encrypted-disk, objects: 2</title></rect>
            <text x="224" y="52">2</text>
            <rect x="0" y="57" width="220" height="14" fill="#f28e2b"><title>private / encrypted-disk, bytes: 39.7 KiB (40618 bytes)</title></rect>
            <text x="224" y="68">39.7 KiB</text>
            <text x="0" y="92">&lt;p&gt; / disk</text>
            <rect x="0" y="97" width="110" height="14" fill="#4e79a7"><title>&lt;p&gt; / disk, objects: 1</title></rect>
            <text x="114" y="108">1</text>
            <rect x="0" y="113" width="0" height="14" fill="#f28e2b"><title>&lt;p&gt; / disk, bytes: 0 B (0 bytes)</title></rect>
            <text x="4" y="124">0 B</text>
            </svg>

            """)
    }

    @Test func anEmptyChartSaysNothingRecorded() {
        let chart = SVGChart(title: "t", series: Self.series, bars: [])
        #expect(chart.svg == """
            <svg width="320" height="54" viewBox="0 0 320 54" role="img" aria-label="t">
            <title>t</title>
            <text x="0" y="16" font-weight="bold" fill="#4e79a7">objects</text>
            <text x="110" y="16" font-weight="bold" fill="#f28e2b">bytes</text>
            <text x="0" y="36">nothing recorded</text>
            </svg>

            """)
    }

    /// The chart parses as XML (it is inline SVG), so its escaping holds in both syntaxes.
    @Test func theSVGIsWellFormedXML() throws {
        let chart = SVGChart(
            title: "a\"b", series: Self.series, bars: [SVGChart.Bar(label: "x'\u{2}&", values: [3, 4])])
        let root = try XMLNode.parse(chart.svg)
        #expect(root.name == "svg")
        #expect(root.attributes["aria-label"] == "a\"b")
        #expect(root.descendants("rect").count == 2)
        #expect(root.descendants("title").map(\.text) == ["a\"b", "x'\u{FFFD}&, objects: 3", "x'\u{FFFD}&, bytes: 4 B (4 bytes)"])
    }
}
