import MediaAudit
import MediaAuditReports
import MediaTestSupport
import Testing

@Suite struct SVGChartTests {
    static let series = [SVGChart.Series(name: "objects", color: "#4e79a7"), SVGChart.Series(name: "bytes", color: "#f28e2b")]

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
        #expect(chart.width == 900)
        #expect(chart.height == 76)
        #expect(chart.svg == """
            <svg width="900" height="76" viewBox="0 0 900 76" role="img" aria-label="Objects &amp; bytes">
            <title>Objects &amp; bytes</title>
            <text x="240" y="18" font-weight="bold">objects</text>
            <text x="570" y="18" font-weight="bold">bytes</text>
            <text x="0" y="41">private / encrypted-disk</text>
            <rect x="240" y="28" width="220" height="18" fill="#4e79a7"><title>private / encrypted-disk, objects: 2</title></rect>
            <text x="464" y="41">2</text>
            <rect x="570" y="28" width="220" height="18" fill="#f28e2b"><title>private / encrypted-disk, bytes: 40618</title></rect>
            <text x="794" y="41">40618</text>
            <text x="0" y="63">&lt;p&gt; / disk</text>
            <rect x="240" y="50" width="110" height="18" fill="#4e79a7"><title>&lt;p&gt; / disk, objects: 1</title></rect>
            <text x="354" y="63">1</text>
            <rect x="570" y="50" width="0" height="18" fill="#f28e2b"><title>&lt;p&gt; / disk, bytes: 0</title></rect>
            <text x="574" y="63">0</text>
            </svg>

            """)
    }

    @Test func anEmptyChartSaysNothingRecorded() {
        let chart = SVGChart(title: "t", series: Self.series, bars: [])
        #expect(chart.svg == """
            <svg width="900" height="54" viewBox="0 0 900 54" role="img" aria-label="t">
            <title>t</title>
            <text x="240" y="18" font-weight="bold">objects</text>
            <text x="570" y="18" font-weight="bold">bytes</text>
            <text x="0" y="41">nothing recorded</text>
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
        #expect(root.descendants("title").map(\.text) == ["a\"b", "x'\u{FFFD}&, objects: 3", "x'\u{FFFD}&, bytes: 4"])
    }
}
